"""The Universal Hive Protocol (spec/uhp.md): one engine session over a text stream.

A Session takes one command line at a time (`handle`) and writes the answer to
its output stream, always ending with exactly one `ok` line (only `exit` prints
nothing). The same object serves stdin/stdout (main.py), the golden
transcripts and the fuzz tests. This is the one place where errors become
protocol output: a rejected move is `invalidmove <reason>`, anything else that
fails is `err <message>`, and a failed command leaves the game as it was.

>>> import io
>>> out = io.StringIO()
>>> session = Session(out)
>>> for line in ["newgame Base+MLP", "play wG1", "play bL /wG1", "play wQ", "undo"]:
...     session.handle(line)
>>> print(out.getvalue(), end="")  # doctest: +NORMALIZE_WHITESPACE
Base+MLP;NotStarted;White[1]
ok
Base+MLP;InProgress;Black[1];wG1
ok
Base+MLP;InProgress;White[2];wG1;bL /wG1
ok
invalidmove You can't move there because a piece already exists at that position. Only the first piece
  is played by its name alone; after it a MoveString names a reference piece, as 'wQ \\wG1'.
ok
Base+MLP;InProgress;Black[1];wG1
ok
"""

import logging
import math
import re
import threading
import time
from typing import Callable, NamedTuple

from .. import MAX_LINE_CHARS, info_lines
from ..rules.errors import IllegalMoveError, NotationError
from ..game import Board
from ..rules.notation import parse_game_type
from ..search.options import OptionSpec
from ..rules.perft import StopFlag, perft_line
from ..search import timeman
from ..search.search import Searcher
from ..search.worker import Job

log = logging.getLogger("hexbee")

INVALID_COMMAND = "Invalid command. Try 'help' to see a list of valid commands."
NO_GAME = "No game in progress. Try 'newgame' to start a new game."
GAME_OVER = "The game is over. Try 'newgame' to start a new game."
MAX_MESSAGE_CHARS = 300  # of an err or invalidmove message, which may quote the input
# Whole numbers (depths, plies to undo) are at most this; Python's int() refuses
# strings of more than 4,300 digits, and no depth or game comes near it.
MAX_WHOLE = 2**63 - 1


def _board_rule(keyword):
    """How an option that is a rules switch of the Board (a keyword of Board and
    an attribute of it) is applied: to the game in hand and to every new game."""
    def apply(session, value):
        session.rules[keyword] = value
        if session.board is not None:
            setattr(session.board, keyword, value)
    return apply


def _in_searcher(spec):
    """A search option as the session has it: setting it sets it in the searcher."""
    return spec._replace(apply=lambda session, value: session.searcher.set_option(spec.name, value))


# The session's own options (ReportIntermediateBestMoves is read by bestmove); the
# search adds Searcher.OPTIONS.
ENGINE_OPTIONS = (
    OptionSpec("RepetitionDraw", "bool", False,
               help="Draw the game when a position occurs for the third time (nokamute, hivegame.com).",
               apply=_board_rule("repetition_draw")),
    OptionSpec("AllowQueenOnFirstTurn", "bool", False,
               help="Allow a Queen on a side's first turn, as in games made on hivegame.com.",
               apply=_board_rule("queen_first")),
    OptionSpec("FanBugs", "bool", False,
               help="Let newgame start the fan game types (docs/fan-pieces.md); a game in progress goes on."),
    OptionSpec("ReportIntermediateBestMoves", "bool", False,
               help="bestmove also prints move;depth;score;pv... as each search depth completes."),
)

# Time of a `bestmove time` limit: .NET TimeSpan's [d.]hh:mm[:ss[.fff]], as MzingaViewer writes it.
_TIME_RE = re.compile(r"(?:([0-9]+)\.)?([0-9]{1,2}):([0-9]{1,2})(?::([0-9]{1,2})(\.[0-9]+)?)?")
_WHOLE_RE = re.compile(r"[0-9]+")
_SECONDS_RE = re.compile(r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+")

class CommandError(Exception):
    """A command that cannot be carried out; answered `err <message>`."""


class InvalidMove(CommandError):
    """A move that `play` or `pass` cannot make; answered `invalidmove <reason>`."""


def parse_time(text):
    """Seconds in a `bestmove time` limit (at most timeman.MAX_LIMIT_SECONDS, a year).

    >>> [parse_time(t) for t in ("00:00:05", "00:00:00.5", "1.00:00:00", "00:01", "99999999999.00:00:00")]
    [5.0, 0.5, 86400.0, 60.0, 31536000.0]
    """
    match = _TIME_RE.fullmatch(text)
    if match:
        days, hours, minutes, seconds, fraction = match.groups()
        days = _bounded_int(days or "0", int(timeman.MAX_LIMIT_SECONDS // 86400) + 1)
        hours, minutes, seconds = (int(field or 0) for field in (hours, minutes, seconds))
        if hours < 24 and minutes < 60 and seconds < 60:
            return timeman.clamp_limit(((days * 24 + hours) * 60 + minutes) * 60 + seconds + float(fraction or 0))
    raise CommandError(f"Invalid time '{text}'; expected hh:mm:ss, e.g. 00:00:05, 00:00:00.5 or 1.00:00:00.")


def _bounded_int(digits, cap):
    """int(digits), or `cap` if it is larger (without converting a huge string)."""
    digits = digits.lstrip("0") or "0"
    return cap if len(digits) > len(str(cap)) else min(int(digits), cap)


def _parse_whole(text, what, minimum):
    if not _WHOLE_RE.fullmatch(text) or _bounded_int(text, MAX_WHOLE + 1) < minimum:
        raise CommandError(f"Invalid {what} '{text}'; expected a whole number of at least {minimum}.")
    value = _bounded_int(text, MAX_WHOLE + 1)
    if value > MAX_WHOLE:
        raise CommandError(f"Invalid {what} '{text}'; expected a whole number of at most {MAX_WHOLE}.")
    return value


def _parse_seconds(text):
    if not _SECONDS_RE.fullmatch(text):
        raise CommandError(f"Invalid number of seconds '{text}'; expected a number such as 5 or 0.5.")
    return timeman.clamp_limit(float(text))


def _printable(text, limit=None):
    """One line of printable text: echoed input may hold control characters; a
    text longer than `limit` characters is cut there and ends with '...'."""
    if limit is not None and len(text) > limit:
        text = text[:limit] + "..."
    return "".join(c if c.isprintable() else "?" for c in text)

class Session:
    """One engine session: the game, the options, the search, and the commands.

    `handle(line)` runs one command and writes its answer to `output`;
    `interrupt()` is for SIGINT (stop a running search or perft);
    `end_of_input()`, or setting the Event `input_ended`, stops a search or
    perft, now and later (one with a limit after a short grace);
    `exit_requested` turns True after `exit`; `close()` ends what still runs."""

    def __init__(self, output, searcher=None, input_ended=None):
        self._out = output
        self.searcher = searcher if searcher is not None else Searcher()
        specs = ENGINE_OPTIONS + tuple(_in_searcher(spec) for spec in self.searcher.OPTIONS)
        self._specs = {spec.name: spec for spec in specs}
        self.options = {name: spec.default for name, spec in self._specs.items()}
        self.board = None
        self.rules = {}  # Board keywords of the rules options, for each new game
        for spec in ENGINE_OPTIONS:
            if spec.apply is not None:
                spec.apply(self, spec.default)
        self.exit_requested = False
        self._pv = None  # MoveStrings of the last principal variation
        self._job = None  # the running bestmove or perft, which SIGINT stops
        self._input_ended = input_ended if input_ended is not None else threading.Event()
        self._received = None  # when the command in hand arrived
        self._straggler = None  # a search answered at its deadline that has not ended yet
        self._busy = False  # a command is in hand (from its line to its ok)
        self._stoppable = False  # ... and it is one that SIGINT stops (bestmove, perft)
        self._exit_after = False  # SIGINT came during a command that it does not stop
        self._stop_asked = False  # SIGINT came during this command before its job started
        self._stopped_at = -math.inf  # time.monotonic() of the last SIGINT that stopped a command

    # --- Driving the session ---------------------------------------------------------
    def handle(self, line, received=None):
        """Run one command line; empty lines are ignored (no answer). A time
        limit counts from `received` (time.monotonic() when the line arrived;
        default now). A line of more than MAX_LINE_CHARS characters is
        answered `err` unread."""
        if len(line) > MAX_LINE_CHARS and len(line.rstrip("\r\n")) > MAX_LINE_CHARS:
            self._say(f"err {_printable(line[:40])}... is too long: a command line has at most "
                      f"{MAX_LINE_CHARS} characters.")
            self._say("ok")
            return
        words = line.split(None, 1)
        if not words:
            return
        self._received = time.monotonic() if received is None else received
        keyword = words[0].lower()
        self._busy, self._stoppable, self._stop_asked = True, keyword in _STOPPABLE, False
        try:
            self._answer(line, keyword, words)
        finally:
            self._busy = False
        if self._exit_after:  # SIGINT during a command that it cannot stop: exit, once answered
            self.exit_requested = True

    def _answer(self, line, keyword, words):
        argument = words[1].strip() if len(words) > 1 else ""
        try:
            entry = _COMMANDS.get(keyword)
            if entry is None:
                raise CommandError(INVALID_COMMAND)
            entry.run(self, argument)
        except InvalidMove as error:
            self._say(f"invalidmove {_printable(str(error), MAX_MESSAGE_CHARS)}")
        except (CommandError, NotationError, IllegalMoveError) as error:
            self._say(f"err {_printable(str(error), MAX_MESSAGE_CHARS)}")
        except OSError:  # the output is gone: there is no one left to answer
            raise
        except Exception as error:  # a bug: answer it and keep the session alive
            log.exception("command %r failed", line[:MAX_MESSAGE_CHARS])
            self._say(f"err {_printable(f'{type(error).__name__}: {error}', MAX_MESSAGE_CHARS)}")
        if not self.exit_requested:
            self._say("ok")

    def interrupt(self):
        """SIGINT (called in the main thread, between any two steps of `handle`):
        stop the running bestmove or perft, whose answer and `ok` still come out
        whole; one that has not started its search yet stops as soon as it does.
        A stop sent again within timeman.REPEATED_STOP_SECONDS (a viewer's button
        pressed twice, a storm of signals) is part of the same stop. During
        another command, the engine exits once that command is answered
        (`exit_requested`). Returns False, and the engine then exits at once,
        only when idle and not just after a stop."""
        now = time.monotonic()
        if self._job is not None:
            self._job.interrupt()
        elif now - self._stopped_at < timeman.REPEATED_STOP_SECONDS:
            return True
        elif self._busy and self._stoppable:
            self._stop_asked = True
        elif self._busy:
            self._exit_after = True
            return True
        else:
            return False
        self._stopped_at = now
        return True

    def end_of_input(self):
        """No more commands will come (callable from any thread): a search or
        perft, running or to come, is stopped and answers (one without a limit
        at once, one with a limit after timeman.END_OF_INPUT_GRACE_SECONDS)."""
        self._input_ended.set()

    def close(self, timeout=1.0):
        """Stop any work still running and give it `timeout` seconds to end."""
        for job in (self._job, self._straggler):
            if job is not None:
                job.finish(timeout)

    def _say(self, line):
        self._out.write(line + "\n")
        self._out.flush()

    # --- Game state ------------------------------------------------------------------
    def _game(self):
        if self.board is None:
            raise CommandError(NO_GAME)
        return self.board

    def _game_in_progress(self):
        board = self._game()
        if board.is_game_over():
            raise CommandError(GAME_OVER)
        return board

    # --- Commands ----------------------------------------------------------------------
    def _info(self, argument):
        for line in info_lines(self.options["FanBugs"]):
            self._say(line)

    def _help(self, argument):
        if not argument:
            self._say("Commands:")
            for name, entry in _COMMANDS.items():
                self._say(f"  {name:<12}{entry.summary}")
            self._say("Try 'help <command>' for its arguments and examples.")
            return
        entry = _COMMANDS.get(argument.lower())
        if entry is None:
            raise CommandError(INVALID_COMMAND)
        for usage in entry.usages:
            self._say(f"  {usage}")
        self._say(f"  {entry.summary}")
        if argument.lower() == "options":
            for spec in self._specs.values():
                self._say(f"  {spec.name}: {spec.help}")

    def _newgame(self, argument):
        parse_game_type(argument.split(";", 1)[0] or "Base", fan=self.options["FanBugs"])
        if ";" in argument:
            board = Board.from_game_string(argument, **self.rules)
        else:
            board = Board(argument or "Base", **self.rules)
        self.board = board
        self._pv = None
        self.searcher.new_game()
        self._say(board.game_string())

    def _play(self, argument):
        if not argument:
            raise CommandError(INVALID_COMMAND)
        board = self._game_in_progress()
        try:
            board.push_uhp(argument)
        except (NotationError, IllegalMoveError) as error:
            raise InvalidMove(str(error)) from None
        self._say(board.game_string())

    def _pass(self, argument):
        self._play("pass")

    def _validmoves(self, argument):
        board = self._game_in_progress()
        self._say(";".join(board.uhp(move) for move in board.legal_moves))

    def _bestmove(self, argument):
        depth, seconds, soft = _parse_limits(argument)
        board = self._game_in_progress()
        if board.draw_due:
            raise CommandError("A draw is due: the bag chooses it, not the engine. Send `play draw <piece>` "
                               f"with a piece of the bag ({', '.join(board.bag_kinds())}).")
        moves = board.legal_moves
        if len(moves) == 1:  # uhp.md: if only one move is legal, answer it at once
            self._pv = [board.uhp(moves[0])]
            self._say(self._pv[0])
            return
        plan = timeman.plan(seconds, self._received)
        root = board.copy()
        latest = []  # the result of the deepest completed iteration
        report = self.options["ReportIntermediateBestMoves"]

        def on_iteration(result):
            def record():
                latest[:] = [result]
                pv = _pv_strings(root, result.pv) if report else None
                if pv:  # uhp.md: move;depth;score;pv1;pv2;...
                    self._say(";".join([pv[0], str(result.depth), str(result.score)] + pv))
            job.publish(record)

        clock = {} if soft is None else {"soft_seconds": soft}  # only the clock form has a soft budget
        job = Job(lambda: self.searcher.search(root.copy(), depth, plan.search_seconds, on_iteration, **clock),
                  self.searcher.stop)
        finished = self._run(job, plan.stop_at, plan.answer_at, unbounded=depth is None and seconds is None)
        result = job.result if finished else (latest[0] if latest else None)
        move, pv = (result.move, result.pv) if result is not None else (moves[0], (moves[0],))
        if move not in moves:  # never answer an illegal move, whatever the search says
            log.error("the search returned an illegal move %r in %s", move, board.game_string())
            move, pv = moves[0], (moves[0],)
        self._pv = _pv_strings(root, pv)
        self._say(board.uhp(move))

    def _undo(self, argument):
        count = _parse_whole(argument, "number of moves to undo", 1) if argument else 1
        board = self._game()
        if count > board.ply:
            raise CommandError(f"Unable to undo {count} moves: {board.ply} played.")
        for _ in range(count):
            board.pop()
        self._say(board.game_string())

    def _options(self, argument):
        words = argument.split()
        action = words[0].lower() if words else ""
        if not words:
            for name, spec in self._specs.items():
                self._say(spec.line(self.options[name]))
        elif action == "get" and len(words) == 2:
            self._say(self._spec(words[1]).line(self.options[words[1]]))
        elif action == "set" and len(words) == 3:
            self._say(self.set_option(words[1], words[2]))
        else:
            raise CommandError("Invalid options command; expected 'options', 'options get <Name>' "
                               "or 'options set <Name> <Value>'.")

    def _spec(self, name):
        spec = self._specs.get(name)
        if spec is None:
            raise CommandError(f'The option "{name}" is not valid.')
        return spec

    def set_option(self, name, text):
        """Set an option from its text and return its new line; CommandError
        (nothing changed) for an unknown name or a bad value."""
        spec = self._spec(name)
        try:
            value = spec.parse(text)
        except ValueError as error:
            raise CommandError(str(error)) from None
        if spec.apply is not None:
            spec.apply(self, value)
        self.options[spec.name] = value
        return spec.line(value)

    def _perft(self, argument):
        max_depth = _parse_whole(argument, "perft depth", 0) if argument else math.inf
        root = self._game().copy()
        stop = StopFlag()  # SIGINT and the end of input set it; the count polls it
        threads = 1 + self.options.get("MaxHelperThreads", 0)  # as many as a search uses

        def count_each_depth():
            depth = 0
            while depth <= max_depth and not stop.is_set():
                start = time.perf_counter()
                count = root.perft(depth, threads, stop)
                if count is None:
                    return
                line = perft_line(depth, count, time.perf_counter() - start)
                job.publish(lambda: self._say(line))
                if count == 0:  # a finished game: every deeper count is 0 too
                    return
                depth += 1

        job = Job(count_each_depth, stop.set)
        self._run(job, unbounded=max_depth == math.inf)

    def _pv_command(self, argument):
        if self._pv is None:
            raise CommandError("No principal variation yet. Try 'bestmove' first.")
        self._say(";".join(self._pv))

    def _exit(self, argument):
        self.exit_requested = True

    # --- Running long commands ----------------------------------------------------------
    def _run(self, job, stop_at=math.inf, give_up_at=math.inf, unbounded=False):
        """Run a Job to its end (or its deadline) where SIGINT and the end of
        input can stop it: an `unbounded` job at once, one with a limit after
        timeman.END_OF_INPUT_GRACE_SECONDS."""
        if self._straggler is not None:  # one search at a time: the previous one must end first
            if not self._straggler.finish(timeout=5.0):
                log.warning("the previous search did not stop within 5 s")
            self._straggler = None
        self._job = job.start()
        if self._stop_asked:  # SIGINT came before the job did
            job.interrupt()
        grace = 0.0 if unbounded else timeman.END_OF_INPUT_GRACE_SECONDS
        try:
            finished = job.wait(stop_at, give_up_at, self._input_ended, grace)
        finally:
            self._job = None
        if not finished:
            self._straggler = job
        return finished


_STOPPABLE = ("bestmove", "perft")  # the commands that SIGINT stops


def _parse_limits(argument):
    """(depth, seconds, soft seconds) of a bestmove command; None where there is
    no limit (soft seconds: the share of a clock the search aims at)."""
    words = argument.split()
    if not words:
        return None, None, None  # as MzingaEngine: think until stopped
    kind = words[0].lower()
    if kind == "depth" and len(words) == 2:
        return _parse_whole(words[1], "depth", 1), None, None
    if kind == "time" and len(words) == 2:
        return None, parse_time(words[1]), None
    if kind == "seconds" and len(words) == 2:
        return None, _parse_seconds(words[1]), None
    if kind == "depthorseconds" and len(words) == 3:
        return _parse_whole(words[1], "depth", 1), _parse_seconds(words[2]), None
    if kind == "clock" and len(words) in (2, 3):  # hexbee's: the time left on the clock, the increment
        remaining = _parse_seconds(words[1])
        increment = _parse_seconds(words[2]) if len(words) == 3 else 0.0
        soft, hard = timeman.clock_budget(remaining, increment)
        return None, hard, soft
    raise CommandError("Invalid bestmove command; expected 'bestmove time hh:mm:ss' or 'bestmove depth N'.")


def _pv_strings(root, pv):
    """MoveStrings of a principal variation from `root`, up to its first illegal
    move (or the longest game a board holds)."""
    board = root.copy()
    strings = []
    for move in pv:
        if move not in board.legal_moves:
            break
        text = board.uhp(move)
        try:
            board.push(move)
        except IllegalMoveError:
            break
        strings.append(text)
    return strings


class _Command(NamedTuple):
    run: Callable
    usages: list
    summary: str


# Every command once: what runs it, how it is written, what it does (`help` prints these).
_COMMANDS = {
    "info": _Command(Session._info, ["info"], "Print the engine's id and capabilities."),
    "newgame": _Command(Session._newgame,
                        ["newgame", "newgame Base+MLP", "newgame Base+MLP;InProgress;White[2];wS1;bS1 wS1-"],
                        "Start a game: Base, the given game type, or load a GameString (moves replayed and checked)."),
    "play": _Command(Session._play, ["play wB1 -bS1"], "Play a move; print the new GameString."),
    "pass": _Command(Session._pass, ["pass"], "Pass (only legal when no other move is)."),
    "validmoves": _Command(Session._validmoves, ["validmoves"], "Print every legal move, separated by ';'."),
    "bestmove": _Command(Session._bestmove,
                         ["bestmove time 00:00:05", "bestmove depth 3", "bestmove seconds 2.5",
                          "bestmove depthorseconds 4 2.5", "bestmove clock 60 0.5", "bestmove"],
                         "Search and print the best move: within a time (hh:mm:ss, also 00:00:00.5 and "
                         "1.00:00:00), to a depth in plies, with a clock (seconds left, increment: a share "
                         "of it is spent), or until stopped (SIGINT or end of input)."),
    "undo": _Command(Session._undo, ["undo", "undo 2"], "Take back the last move, or the last N (a pass counts)."),
    "options": _Command(Session._options,
                        ["options", "options get RepetitionDraw", "options set RepetitionDraw True"],
                        "List the options, print one, or set one (lines Name;Type;Value;Default[;Min;Max])."),
    "perft": _Command(Session._perft, ["perft 4", "perft"],
                      "Count the move sequences of each length from the current position, from 0 up to the "
                      "given depth or until stopped (SIGINT or end of input)."),
    "pv": _Command(Session._pv_command, ["pv"], "Print the principal variation of the last bestmove."),
    "help": _Command(Session._help, ["help", "help bestmove"], "List the commands, or explain one."),
    "exit": _Command(Session._exit, ["exit"], "Quit the engine."),
}
