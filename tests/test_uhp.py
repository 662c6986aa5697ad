"""The UHP session in-process (engine/protocol/uhp.py): answers, options, time control,
interruption, and what happens when the search misbehaves."""

import io
import logging
import threading
import time

import pytest

from engine import MAX_LINE_CHARS
from engine.protocol import uhp
from engine.search import timeman
from engine.game import PASS, Board, Move
from engine.search.options import OptionSpec
from engine.search.search import SearchResult
from engine.protocol.uhp import CommandError, Session, parse_time

from .conftest import SessionDriver

PASS_POSITION = ("Base;InProgress;White[7];wA1;bS1 wA1-;wQ -wA1;bQ bS1/;wQ \\wA1;bA1 bS1\\;wQ -wA1;"
                 "bA2 bQ\\;wQ \\wA1;bA1 \\wQ;wG1 /wQ;bA2 /wG1")
OPENING = "Base+MLP;InProgress;White[2];wG1;bL /wG1"


class FakeSearcher:
    """The part of Searcher's interface the session uses, without a search."""

    OPTIONS = ()

    def __init__(self):
        self.options = {spec.name: spec.default for spec in self.OPTIONS}
        self._stop = threading.Event()

    def set_option(self, name, value):
        self.options[name] = value

    def new_game(self):
        pass

    def stop(self):
        self._stop.set()


class ScriptedSearcher(FakeSearcher):
    """A stand-in search: completes one depth every `step` seconds, always
    preferring the last legal move, until its depth or until stopped. It ignores
    its time limit, and after a stop it runs on for `lag` seconds, so that the
    session alone must keep the time."""

    OPTIONS = (
        OptionSpec("MaxHelperThreads", "int", 1, minimum=0, maximum=8),
        OptionSpec("Aggression", "double", 0.5, minimum=0.0, maximum=1.0),
        OptionSpec("Style", "enum", "Normal", choices=("Normal", "Wild")),
    )

    def __init__(self, step=0.02, lag=0.0):
        super().__init__()
        self.step, self.lag = step, lag
        self.calls = []

    def search(self, board, depth=None, seconds=None, on_iteration=None):
        self._stop.clear()
        self.calls.append((board.game_string(), depth, seconds))
        move = board.legal_moves[-1]
        result = SearchResult(move, 0, 0, (move,), 0)
        while depth is None or result.depth < depth:
            if self._stop.wait(self.step):
                time.sleep(self.lag)
                break
            result = SearchResult(move, result.depth + 1, 10 * (result.depth + 1), (move,), 0)
            if on_iteration is not None:
                on_iteration(result)
        return result


class BrokenSearcher(FakeSearcher):
    def __init__(self, answer):
        super().__init__()
        self.answer = answer

    def search(self, board, depth=None, seconds=None, on_iteration=None):
        if isinstance(self.answer, Exception):
            raise self.answer
        return SearchResult(self.answer, 1, 0, (self.answer,), 1)


# --- Shape of every answer -----------------------------------------------------------
class FlushRecorder(io.StringIO):
    def __init__(self):
        super().__init__()
        self.flushed_at = []

    def flush(self):
        self.flushed_at.append(len(self.getvalue()))


def test_every_answer_is_flushed_when_its_ok_is_written():
    out = FlushRecorder()
    session = Session(out)
    for command in ["info", "frobnicate", "newgame", "play wQ", "validmoves", "undo 5"]:
        session.handle(command)
        assert out.getvalue().endswith("ok\n")
        assert out.flushed_at[-1] == len(out.getvalue())


@pytest.mark.parametrize("line", ["", "\n", "   \t ", "\r\n"])
def test_empty_lines_get_no_answer(line):
    out = io.StringIO()
    Session(out).handle(line)
    assert out.getvalue() == ""


def test_exit_prints_nothing():
    out = io.StringIO()
    session = Session(out)
    session.handle("exit")
    assert out.getvalue() == ""
    assert session.exit_requested


def test_crlf_tabs_and_case():
    engine = SessionDriver()
    assert engine.ask("NewGame\tBase+MLP\r\n") == ["Base+MLP;NotStarted;White[1]"]
    assert engine.ask("PLAY   wg1  \r") == ["Base+MLP;InProgress;Black[1];wG1"]


def test_echoed_input_is_one_printable_line():
    engine = SessionDriver()
    engine.ask("newgame")
    assert engine.ask("play w\x1bS1") == ["invalidmove Unknown piece 'w?S1'."]
    answer = engine.ask("newgame Base+\u2028X")
    assert answer == ["err Unknown game type 'Base+?X'; expected Base or Base+ with M, L, P."]


def test_an_unexpected_error_is_answered_err_and_the_session_goes_on(monkeypatch, caplog):
    engine = SessionDriver()
    engine.ask("newgame")
    monkeypatch.setattr(Board, "legal_moves", property(lambda self: 1 / 0))
    with caplog.at_level(logging.ERROR, logger="hexbee"):
        assert engine.ask("validmoves") == ["err ZeroDivisionError: division by zero"]
    assert "Traceback" in caplog.text
    monkeypatch.undo()
    assert engine.ask("play wS1") == ["Base;InProgress;Black[1];wS1"]


def test_a_closed_output_ends_the_session():
    class Closed(io.StringIO):
        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

    with pytest.raises(OSError):
        Session(Closed()).handle("info")


# --- newgame, play, undo ----------------------------------------------------------------
def test_a_bad_newgame_keeps_the_previous_game_and_options():
    engine = SessionDriver()
    engine.ask("newgame " + OPENING)
    for bad in ["Base+Q", "Base;InProgress;White[2];wG1;bL /wG2", "Base;Done;White[1]", OPENING + ";wQ"]:
        assert engine.ask("newgame " + bad)[0].startswith("err ")
        assert engine.game_string == OPENING


def test_rules_options_apply_to_the_game_in_progress():
    engine = SessionDriver()
    engine.ask("newgame")
    assert engine.ask("play wQ") == ["invalidmove You can't play your Queen Bee on your first turn."]
    engine.ask("options set AllowQueenOnFirstTurn True")
    assert engine.ask("play wQ") == ["Base;InProgress;Black[1];wQ"]
    assert engine.session.board.queen_first
    engine.ask("options set RepetitionDraw True")
    assert engine.session.board.repetition_draw
    assert engine.ask("newgame")
    assert engine.session.board.queen_first and engine.session.board.repetition_draw


# --- Options -----------------------------------------------------------------------------
def test_the_search_options_are_listed_and_set_through_the_searcher():
    searcher = ScriptedSearcher()
    engine = SessionDriver(searcher)
    assert engine.ask("options") == [
        "RepetitionDraw;bool;False;False",
        "AllowQueenOnFirstTurn;bool;False;False",
        "FanBugs;bool;False;False",
        "ReportIntermediateBestMoves;bool;False;False",
        "MaxHelperThreads;int;1;1;0;8",
        "Aggression;double;0.5;0.5;0.0;1.0",
        "Style;enum;Normal;Normal;Normal;Wild",
    ]
    assert engine.ask("options set MaxHelperThreads 4") == ["MaxHelperThreads;int;4;1;0;8"]
    assert engine.ask("options set Aggression .25") == ["Aggression;double;0.25;0.5;0.0;1.0"]
    assert engine.ask("options set Style wild") == ["Style;enum;Wild;Normal;Normal;Wild"]
    assert searcher.options == {"MaxHelperThreads": 4, "Aggression": 0.25, "Style": "Wild"}


@pytest.mark.parametrize("name,value", [
    ("MaxHelperThreads", "9"), ("MaxHelperThreads", "-1"), ("MaxHelperThreads", "2.5"), ("MaxHelperThreads", "0x4"),
    ("Aggression", "1.5"), ("Aggression", "nan"), ("Aggression", "inf"), ("Style", "Calm"), ("RepetitionDraw", "yes"),
])
def test_a_bad_option_value_is_refused_and_changes_nothing(name, value):
    searcher = ScriptedSearcher()
    engine = SessionDriver(searcher)
    before = engine.ask("options")
    assert engine.ask(f"options set {name} {value}")[0].startswith(f"err {name} must be ")
    assert engine.ask("options") == before
    assert searcher.options == {spec.name: spec.default for spec in searcher.OPTIONS}


# --- bestmove -------------------------------------------------------------------------------
@pytest.mark.parametrize("text,seconds", [
    ("00:00:05", 5.0), ("00:00:00.5", 0.5), ("1.00:00:00", 86400.0), ("00:01:30", 90.0), ("23:59:59.25", 86399.25),
    ("0:0:1", 1.0), ("00:02", 120.0), ("2.03:04:05.5", 183845.5),
])
def test_time_limits_as_mzinga_writes_them(text, seconds):
    assert parse_time(text) == pytest.approx(seconds)


@pytest.mark.parametrize("text", ["5", "00:00:60", "24:00:00", "00:60:00", "-00:00:01", "00:00:05.", "1.", "a:b:c",
                                  "00:00:05:00:00", "", "1.2.00:00:00", "００:00:01"])
def test_bad_time_limits(text):
    with pytest.raises(CommandError, match="Invalid time"):
        parse_time(text)


def test_bestmove_time_answers_within_the_limit_although_the_search_overruns():
    searcher = ScriptedSearcher(step=0.05, lag=0.5)
    engine = SessionDriver(searcher)
    engine.ask("newgame " + OPENING)
    start = time.monotonic()
    answer = engine.ask("bestmove time 00:00:01")
    assert time.monotonic() - start < 1.0
    assert answer == [Board.from_game_string(OPENING).uhp(Board.from_game_string(OPENING).legal_moves[-1])]
    # The next search waits for the straggler to end: one search at a time.
    assert len(engine.ask("bestmove depth 2")) == 1
    assert [calls[1:] for calls in searcher.calls] == [(None, pytest.approx(1 - timeman.reserve(1.0), abs=0.05)), (2, None)]


def test_the_time_limit_counts_from_the_arrival_of_the_command():
    searcher = ScriptedSearcher()
    out = io.StringIO()
    session = Session(out, searcher)
    session.handle("newgame " + OPENING)
    start = time.monotonic()
    session.handle("bestmove time 00:00:01", received=start - 0.5)  # it waited while the kernels loaded
    assert time.monotonic() - start < 0.5
    assert searcher.calls[0][2] == pytest.approx(0.5 - timeman.reserve(1.0), abs=0.05)
    assert out.getvalue().endswith("ok\n")


def test_bestmove_time_stops_an_obedient_search_inside_the_limit():
    engine = SessionDriver(ScriptedSearcher(step=0.01))
    engine.ask("newgame " + OPENING)
    start = time.monotonic()
    engine.ask("bestmove seconds 1")
    assert 0.8 < time.monotonic() - start < 1.0


def test_bestmove_without_a_limit_runs_until_interrupted():
    engine = SessionDriver(ScriptedSearcher())
    engine.ask("newgame " + OPENING)
    assert not engine.session.interrupt()  # idle: SIGINT would exit
    start = time.monotonic()
    threading.Timer(0.3, engine.session.interrupt).start()
    assert len(engine.ask("bestmove")) == 1
    assert 0.3 <= time.monotonic() - start < 1.5


def test_end_of_input_stops_a_search_without_a_limit_at_once_and_one_with_a_limit_after_a_grace():
    engine = SessionDriver(ScriptedSearcher())
    engine.ask("newgame " + OPENING)
    engine.ask("options set ReportIntermediateBestMoves True")
    start = time.monotonic()
    threading.Timer(0.3, engine.session.end_of_input).start()
    engine.ask("bestmove")
    assert 0.3 <= time.monotonic() - start < 1.5
    assert len(engine.ask("bestmove depth 3")) == 4  # a short search runs to its end within the grace
    start = time.monotonic()
    engine.ask("bestmove")  # after the end of input: stopped at once
    assert time.monotonic() - start < timeman.END_OF_INPUT_GRACE_SECONDS
    for command in ("bestmove depth 1000000", "bestmove seconds 3600", "bestmove time 01:00:00", "perft 999999999"):
        start = time.monotonic()
        engine.ask(command)  # stopped after the grace
        assert timeman.END_OF_INPUT_GRACE_SECONDS <= time.monotonic() - start < 1.5, command


def test_a_sigint_during_a_command_stops_it_and_a_repeated_one_is_not_an_exit(monkeypatch):
    """SIGINT (Session.interrupt, run between two steps of handle) while a
    bestmove is in hand but its search has not started yet stops the search as
    it starts; right after a stop, another SIGINT is part of that stop, not an
    exit; later, when idle, SIGINT exits at once, and during another command
    once it is answered."""
    engine = SessionDriver(ScriptedSearcher())
    engine.ask("newgame " + OPENING)
    assert not engine.session.interrupt()  # idle, no stop before: exit
    bestmove = uhp._COMMANDS["bestmove"]

    def interrupted_first(session, argument):
        assert session.interrupt()  # in hand, no job yet
        bestmove.run(session, argument)

    monkeypatch.setitem(uhp._COMMANDS, "bestmove", bestmove._replace(run=interrupted_first))
    start = time.monotonic()
    assert len(engine.ask("bestmove")) == 1  # without a limit, yet stopped
    assert time.monotonic() - start < 1.0
    assert engine.session.interrupt()  # idle, but just after a stop: absorbed
    engine.session._stopped_at -= timeman.REPEATED_STOP_SECONDS
    assert not engine.session.interrupt()
    newgame = uhp._COMMANDS["newgame"]

    def interrupted_newgame(session, argument):
        newgame.run(session, argument)
        assert session.interrupt()  # not a command that SIGINT stops: answered, then exit

    monkeypatch.setitem(uhp._COMMANDS, "newgame", newgame._replace(run=interrupted_newgame))
    assert engine.ask("newgame") == ["Base;NotStarted;White[1]"]
    assert engine.session.exit_requested


def test_depth_and_seconds_both_reach_the_search():
    searcher = ScriptedSearcher()
    engine = SessionDriver(searcher)
    engine.ask("newgame " + OPENING)
    engine.ask("bestmove depthorseconds 3 2.5")
    engine.ask("bestmove depth 2")
    assert [call[1:] for call in searcher.calls] == [(3, pytest.approx(2.5 - timeman.reserve(2.5), abs=0.05)), (2, None)]


def test_intermediate_best_moves_are_reported_as_each_depth_completes():
    engine = SessionDriver(ScriptedSearcher())
    engine.ask("newgame " + OPENING)
    move = Board.from_game_string(OPENING).uhp(Board.from_game_string(OPENING).legal_moves[-1])
    assert engine.ask("bestmove depth 3") == [move]
    engine.ask("options set ReportIntermediateBestMoves True")
    assert engine.ask("bestmove depth 3") == [f"{move};1;10;{move}", f"{move};2;20;{move}", f"{move};3;30;{move}", move]
    assert engine.ask("pv") == [move]


def test_the_only_legal_move_is_answered_without_searching():
    engine = SessionDriver(BrokenSearcher(RuntimeError("must not be called")))
    engine.ask("newgame " + PASS_POSITION)
    assert engine.ask("bestmove time 00:00:05") == ["pass"]
    assert engine.ask("pv") == ["pass"]


def test_a_failing_search_is_answered_err_and_the_session_goes_on(caplog):
    engine = SessionDriver(BrokenSearcher(RuntimeError("boom")))
    engine.ask("newgame " + OPENING)
    with caplog.at_level(logging.ERROR, logger="hexbee"):
        assert engine.ask("bestmove depth 2") == ["err RuntimeError: boom"]
    assert engine.ask("undo") == ["Base+MLP;InProgress;Black[1];wG1"]


@pytest.mark.parametrize("answer", [PASS, Move.move(0, 0)])
def test_an_illegal_move_from_the_search_is_never_answered(answer, caplog):
    engine = SessionDriver(BrokenSearcher(answer))
    engine.ask("newgame " + OPENING)
    with caplog.at_level(logging.ERROR, logger="hexbee"):
        (move,) = engine.ask("bestmove depth 1")
    assert Board.from_game_string(OPENING).parse_uhp(move) is not None
    assert "illegal move" in caplog.text


def test_a_principal_variation_is_printed_up_to_its_first_illegal_move():
    class Rambler(FakeSearcher):
        def search(self, board, depth=None, seconds=None, on_iteration=None):
            first = board.legal_moves[0]
            board.push(first)
            second = board.legal_moves[0]
            board.pop()
            result = SearchResult(first, 1, 0, (first, second, first, Move(123456)), 1)
            on_iteration(result)
            return result

    engine = SessionDriver(Rambler())
    engine.ask("newgame " + OPENING)
    engine.ask("options set ReportIntermediateBestMoves True")
    report, move = engine.ask("bestmove depth 1")
    assert report.startswith(f"{move};1;0;{move};")
    assert report.count(";") == 4
    assert engine.ask("pv") == [";".join(report.split(";")[3:])]


def test_the_board_given_to_the_search_is_a_copy():
    class Vandal(FakeSearcher):
        def search(self, board, depth=None, seconds=None, on_iteration=None):
            move = board.legal_moves[0]
            board.push(move)
            return SearchResult(move, 1, 0, (move,), 1)

    engine = SessionDriver(Vandal())
    engine.ask("newgame " + OPENING)
    engine.ask("bestmove depth 1")
    assert engine.game_string == OPENING


# --- perft -------------------------------------------------------------------------------------
def test_perft_counts_each_depth_from_zero():
    engine = SessionDriver()
    engine.ask("newgame Base+MLP")
    lines = engine.ask("perft 3")
    assert [line.split(" in ")[0] for line in lines] == [
        "perft(0) = 1", "perft(1) = 7", "perft(2) = 294", "perft(3) = 6678"]


def test_perft_without_a_depth_runs_until_interrupted():
    engine = SessionDriver()
    engine.ask("newgame Base+MLP")
    threading.Timer(0.5, engine.session.interrupt).start()
    lines = engine.ask("perft")
    assert lines[:4] == [line for line in lines[:4] if line.startswith("perft(")]
    assert engine.ask("undo") == ["err Unable to undo 1 moves: 0 played."]


@pytest.mark.parametrize("searcher,helpers,threads", [
    (None, None, 1),  # the engine's default: MaxHelperThreads 0
    (None, "1", 2),
    (FakeSearcher(), None, 1),  # a searcher without helper threads
])
def test_perft_uses_as_many_threads_as_a_search(monkeypatch, searcher, helpers, threads):
    used = []
    count = Board.perft

    def spy(board, depth, threads=1, stop=None):
        used.append(threads)
        return count(board, depth, threads, stop)

    monkeypatch.setattr(Board, "perft", spy)
    engine = SessionDriver(searcher)
    if helpers is not None:
        engine.ask(f"options set MaxHelperThreads {helpers}")
    engine.ask("newgame Base+MLP")
    assert [line.split(" in ")[0] for line in engine.ask("perft 4")][-1] == "perft(4) = 151686"
    assert set(used) == {threads}


# --- Absurd input (issue 11) ---------------------------------------------------------
@pytest.mark.parametrize("command", ["bestmove seconds 99999999999", "bestmove seconds " + "9" * 400,
                                     "bestmove time 99999999999.00:00:00", "bestmove time " + "9" * 5000 + ".00:00:00",
                                     "bestmove depthorseconds 2 99999999999"])
def test_absurd_time_limits_are_cut_to_a_year(command):
    searcher = ScriptedSearcher()
    engine = SessionDriver(searcher)
    engine.ask("newgame " + OPENING)
    timer = threading.Timer(0.2, engine.session.interrupt)
    timer.start()
    assert len(engine.ask(command)) == 1
    timer.join()
    assert 0 < searcher.calls[-1][2] <= timeman.MAX_LIMIT_SECONDS


@pytest.mark.parametrize("command, message", [
    ("bestmove depth " + "9" * 5000, "err Invalid depth '9999"),
    ("undo " + "1" * 20, "err Invalid number of moves to undo '1111"),
    ("perft " + "0" * 5000 + "1" + "0" * 30, "err Invalid perft depth '0000"),
])
def test_absurd_whole_numbers_are_refused_without_a_traceback(command, message, caplog):
    engine = SessionDriver(ScriptedSearcher())
    engine.ask("newgame " + OPENING)
    (answer,) = engine.ask(command)
    assert answer.startswith(message) and len(answer) < 400
    assert not caplog.records


def test_the_largest_whole_number_is_accepted():
    engine = SessionDriver(ScriptedSearcher())
    engine.ask("newgame " + OPENING)
    assert engine.ask(f"undo {2**63 - 1}") == [f"err Unable to undo {2**63 - 1} moves: 2 played."]


def test_echoed_input_is_bounded():
    engine = SessionDriver()
    engine.ask("newgame")
    (answer,) = engine.ask("play " + "x" * 60_000)
    assert answer.startswith("invalidmove Unknown piece 'xxx") and len(answer) < 400


@pytest.mark.parametrize("length, answered", [(MAX_LINE_CHARS, False), (MAX_LINE_CHARS + 1, True)])
def test_an_over_long_line_is_refused_unread(length, answered):
    engine = SessionDriver()
    engine.ask("newgame")
    line = ("play " + "wS1" * length)[:length]
    (answer,) = engine.ask(line + "\r\n")
    assert answer.startswith("err play wS1") == answered
    assert answer.endswith(f"is too long: a command line has at most {MAX_LINE_CHARS} characters.") == answered
    assert len(answer) < 400
    assert engine.ask("validmoves")  # the game is as it was
