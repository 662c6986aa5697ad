"""Robustness: long random sequences of valid, malformed and illegal commands
fed to one engine session. After each command: exactly one `ok`, last; the
session still answers; a rejected command (err, invalidmove) leaves the game
and the options as they were; an accepted one answers what the spec says.
"""

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.rules.bugs import PIECE_NAMES
from engine.rules.notation import GAME_TYPES

from .conftest import SessionDriver, engine_process, read_nokamute_cases

POSITIONS = [game_string for _, game_string, _ in read_nokamute_cases()]
OPTION_NAMES = ["RepetitionDraw", "AllowQueenOnFirstTurn", "ReportIntermediateBestMoves", "repetitiondraw", "Foo", ""]
OPTION_VALUES = ["True", "False", "true", "FALSE", "1", "0", "yes", "", "True False"]
# Commands that end the session or may run until stopped are left out.
UNBOUNDED = {"exit", "perft", "bestmove"}
SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _vary_case(draw, text):
    return "".join(c.upper() if draw(st.booleans()) else c.lower() for c in text) if draw(st.booleans()) else text


piece = st.sampled_from(PIECE_NAMES + ("wQ1", "bS3", "xA1", "w", "bL2", "wP0"))
mark = st.sampled_from(["", "", "-", "/", "\\", "--", "*"])
line_text = st.text(st.characters(blacklist_characters="\r\n", blacklist_categories=("Cs",)), max_size=30)
line_text = line_text.filter(str.strip)  # blank lines get no answer
whole = st.one_of(st.integers(-3, 40).map(str), st.sampled_from(["x", "1.5", "", "+1", "١"]))


@st.composite
def random_move(draw):
    """A MoveString that is most often malformed or illegal."""
    mover = draw(piece)
    if draw(st.integers(0, 4)) == 0:
        return mover
    before, after = draw(mark), draw(mark)
    return f"{mover} {before}{draw(piece)}{after}"


@st.composite
def legal_move(draw, board):
    moves = board.legal_moves
    move = board.uhp(draw(st.sampled_from(moves)))
    return _vary_case(draw, move).replace(" ", draw(st.sampled_from([" ", "  ", "\t"])))


@st.composite
def game_string(draw, board):
    """The current game (or a known position) cut short or extended by a random move."""
    fields = (board.game_string() if board is not None else draw(st.sampled_from(POSITIONS))).split(";")
    if draw(st.booleans()):
        return ";".join(fields[: draw(st.integers(1, len(fields)))])
    return ";".join(fields + [draw(random_move())])


@st.composite
def command(draw, board):
    """Any command, weighted towards ones that touch the game."""
    in_progress = board is not None and not board.is_game_over()
    choices = [
        lambda: "play " + draw(random_move()),
        lambda: "newgame " + draw(game_string(board)),
        lambda: "newgame " + draw(st.sampled_from(POSITIONS)),  # finished games and a forced pass among them
        lambda: "newgame " + _vary_case(draw, draw(st.sampled_from(GAME_TYPES + ("Base+X", "Base+MM", "")))),
        lambda: "undo" + draw(st.sampled_from(["", " "])) + draw(whole),
        lambda: draw(st.sampled_from(["validmoves", "pass", "info", "pv", "help", "help play", "options"])),
        lambda: f"options get {draw(st.sampled_from(OPTION_NAMES))}",
        lambda: f"options set {draw(st.sampled_from(OPTION_NAMES))} {draw(st.sampled_from(OPTION_VALUES))}",
        lambda: draw(st.sampled_from(["bestmove depth 1", "bestmove time 00:00:00.05", "bestmove seconds 0.03",
                                      "bestmove depthorseconds 2 0.05", "bestmove depth x", "bestmove time 5",
                                      "bestmove foo", "perft 0", "perft 2", "perft x"])),
        lambda: draw(line_text.filter(lambda t: not (t.split() and t.split()[0].lower() in UNBOUNDED))),
        lambda: _vary_case(draw, draw(st.sampled_from(["play", "newgame", "undo", "options"]))) + " "
        + draw(line_text),
    ]
    if in_progress:
        choices += [lambda: "play " + draw(legal_move(board))] * 4
    return draw(st.sampled_from(choices))()


def check_answer(engine, command, lines, before):
    """The answer fits the command, and a refusal changed nothing."""
    game_before, options_before = before
    session = engine.session
    if lines and lines[0].startswith(("err ", "invalidmove ")):
        assert len(lines) == 1, lines
        assert engine.game_string == game_before, command
        assert session.options == options_before, command
        return
    keyword = command.split()[0].lower()
    if keyword in ("newgame", "play", "pass", "undo"):
        assert lines == [engine.game_string]
    else:
        assert engine.game_string == game_before, command
    if keyword == "validmoves":
        board = session.board
        assert sorted(lines[0].split(";")) == sorted(board.uhp(move) for move in board.legal_moves)
    if keyword == "bestmove":
        assert session.board.parse_uhp(lines[-1]) in session.board.legal_moves


@SETTINGS
@given(st.data())
def test_one_session_survives_any_command_sequence(data):
    engine = SessionDriver()
    for _ in range(data.draw(st.integers(30, 80), label="length")):
        line = data.draw(command(engine.session.board), label="command")
        before = (engine.game_string, dict(engine.session.options))
        check_answer(engine, line, engine.ask(line), before)


# Answers that may differ between two runs: timings and the search's choices.
_TIMING_RE = re.compile(r" in (<1 ms\.|\d+ ms\. [\d.]+ KN/s)")


def _comparable(command, lines):
    if command.split() and command.split()[0].lower() in ("bestmove", "pv") and not lines[0].startswith("err"):
        return ["<search answer>"]
    return [_TIMING_RE.sub("", line) for line in lines]


@settings(SETTINGS, max_examples=3)
@given(st.data())
def test_an_engine_process_answers_like_the_session(data):
    """The same random sequence to a real process and to an in-process session."""
    shadow = SessionDriver()
    with engine_process() as process:
        process.read_answer()
        for _ in range(60):
            line = data.draw(command(shadow.session.board), label="command")
            expected = shadow.ask(line)
            answer = process.ask(line).lines  # up to its first ok: another would be taken for the next answer
            assert _comparable(line, answer) == _comparable(line, expected), line
        process.send("exit")
        assert process.wait() == 0
