"""A soak test of the engine process: games between engine processes with
everything a hostile or clumsy client does mixed in, every answer checked.

    python -m bench.soak                                     # the short form (the default test run's)
    python -m bench.soak --engines 4 --games 200 --max-plies 80 --max-seconds 240 --seed 1   # the long form

N processes of this checkout's engine (`python -m engine`) play games against
each other at short limits, two at a time, the referee a `Board` of this
process. Between moves, at random: a SIGINT storm during a `bestmove` without a
limit, an `undo`, a bad line (unknown command, bad limit, illegal move,
control characters, an over-long line), a `newgame` that reloads the game from
its GameString, a short `perft`. Every answer is checked: its lines, exactly
one `ok` and nothing after it, a legal move in the referee's position, the
GameString after each `play`/`undo`/`newgame`, the perft counts, a rejected
line leaving the game unchanged, and the time of a `bestmove time` against its
limit. The resident memory of each process is read at its start and at the end.

Bounded: at most --games games, and no new game after --max-seconds. Exits 1,
with the first broken answer, when a check fails.
"""

import argparse
import random
import signal
import sys
import time
from typing import NamedTuple

from engine import MAX_LINE_CHARS

from .openings import random_opening
from .uhp_client import EngineError, EngineProcess, this_engine

BAD_LINES = [
    "foo", "play", "play wQ wQ-", "play zz9", "bestmove time 25:00:00", "bestmove depth 0", "bestmove seconds x",
    "undo x", "undo 9999", "options set MaxHelperThreads 99", "options get Nope", "perft -1", "newgame Base+XYZ",
    "newgame Base;InProgress;White[2];wQ", "play w\x07S1", "\x01validmoves", "x" * (MAX_LINE_CHARS + 10),
]


class SoakFailure(AssertionError):
    """An answer that broke the protocol's contract."""


class SoakReport(NamedTuple):
    games: int
    plies: int
    answers: int  # answers checked, `ok` included
    worst_overrun: float  # seconds of the slowest `bestmove time` answer beyond its limit (negative: within)
    rss_start: list  # MiB of each process once its kernels are loaded
    rss_end: list  # MiB of each process at the end
    seconds: float

    def lines(self):
        return [
            f"games {self.games}, plies {self.plies}, answers checked {self.answers}, {self.seconds:.0f} s",
            f"worst bestmove time answer over its limit: {self.worst_overrun:+.3f} s",
            "resident MiB per process, start -> end: "
            + ", ".join(f"{a:.0f} -> {b:.0f}" for a, b in zip(self.rss_start, self.rss_end)),
        ]


def resident_mib(pid):
    """VmRSS of process `pid` in MiB (Linux), or 0.0 where /proc is missing."""
    try:
        with open(f"/proc/{pid}/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024
    except (OSError, StopIteration):
        return 0.0


class Checked:
    """One engine process whose every answer is checked."""

    def __init__(self, name):
        self.name = name
        self.process = EngineProcess(this_engine(), capture_stderr=True).launch()
        self.answers = 0
        self.expect("banner", self.process.read_answer(timeout=120).lines, lambda lines: lines[0].startswith("id "))
        self.expect("newgame", self.ask("newgame").lines, lambda lines: lines == ["Base;NotStarted;White[1]"])
        self.rss_start = resident_mib(self.process._process.pid)  # the kernels loaded, no search yet

    def fail(self, what, lines):
        raise SoakFailure(f"{self.name}: {what}: answered {lines!r}; stderr: {self.process.stderr[-2000:]!r}")

    def expect(self, what, lines, check):
        self.answers += 1
        if not check(lines):
            self.fail(what, lines)
        return lines

    def ask_later(self, line):
        """Send `line` after checking that nothing came after the previous `ok`."""
        stray = self.process.stray_lines()
        if stray:
            self.fail(f"output after an ok, before {line[:40]!r}", stray)
        self.process.send(line)

    def ask(self, line, timeout=60.0):
        """The Answer to `line` (see ask_later), no line of it empty or `ok`."""
        self.ask_later(line)
        answer = self.process.read_answer(timeout)
        if any(text.strip() == "ok" or not text for text in answer.lines):
            self.fail(line[:40], answer.lines)
        return answer

    def game_string(self, line, board):
        """Send `line` (play, undo, newgame) and check that it answers the referee's GameString."""
        expected = board.game_string()
        return self.expect(line[:60], self.ask(line).lines, lambda lines: lines == [expected])

    def close(self):
        self.rss_end = resident_mib(self.process._process.pid)
        self.process.close_input()
        if self.process.wait(timeout=30) != 0 or "Traceback" in self.process.stderr:
            self.fail("exit", [self.process.stderr[-2000:]])


def _legal(board, lines):
    if len(lines) != 1:
        return False
    try:
        return board.parse_uhp(lines[0]) in board.legal_moves
    except ValueError:
        return False


def _bestmove(engine, board, rng, movetime, report):
    """Ask `engine` for a move in `board` in one of the ways a client does; the move."""
    kind = rng.random()
    if kind < 0.15:  # a search without a limit, stopped by a storm of SIGINTs
        engine.ask_later("bestmove")
        # Not at once: a SIGINT that reaches the engine before it has read the
        # line finds it idle, and ends it or is lost (signals are out of band).
        time.sleep(rng.uniform(0.05, 0.3))
        gap = rng.choice([0.0005, 0.002, 0.02])
        for _ in range(rng.randrange(1, 6)):
            # A search that found a forced result answers by itself: a SIGINT
            # after its answer would find the engine idle and end it (README).
            if engine.process.has_output():
                break
            engine.process.send_signal(signal.SIGINT)
            time.sleep(gap)
        lines = engine.process.read_answer(timeout=10).lines
    elif kind < 0.3:
        lines = engine.ask(f"bestmove depth {rng.randrange(1, 3)}").lines
    else:
        answer = engine.ask(f"bestmove time 00:00:{movetime:06.3f}")
        report["worst"] = max(report["worst"], answer.seconds - movetime)
        lines = answer.lines
    engine.expect("bestmove", lines, lambda lines: _legal(board, lines))
    return board.parse_uhp(lines[0])


def _mischief(engines, board, rng):
    """One random disturbance between moves, checked on both engines."""
    kind = rng.randrange(4)
    if kind == 0 and board.ply > 0:
        count = rng.randrange(1, min(board.ply, 3) + 1)
        for _ in range(count):
            board.pop()
        for engine in engines:
            engine.game_string(f"undo {count}", board)
    elif kind == 1:
        line = rng.choice(BAD_LINES)
        for engine in engines:
            engine.expect(line[:40], engine.ask(line).lines,
                          lambda lines: len(lines) == 1 and lines[0].startswith(("err ", "invalidmove ")))
            if not board.is_game_over():  # the game is as it was
                moves = sorted(board.uhp(move) for move in board.legal_moves)
                engine.expect("validmoves", engine.ask("validmoves").lines,
                              lambda lines: len(lines) == 1 and sorted(lines[0].split(";")) == moves)
    elif kind == 2:
        for engine in engines:
            engine.game_string("newgame " + board.game_string(), board)
    elif not board.is_game_over():
        engine = rng.choice(engines)
        counts = [f"perft({d}) = {board.perft(d)}" for d in range(3)]
        engine.expect("perft 2", engine.ask("perft 2").lines,
                      lambda lines: [line.split(" in ")[0] for line in lines] == counts)


def run(engines=2, games=2, max_plies=40, movetime=0.05, mischief=0.1, max_seconds=60.0, seed=1, log=None):
    """Play the soak; returns a SoakReport, raises SoakFailure at the first broken answer."""
    rng = random.Random(seed)
    start = time.monotonic()
    players = [Checked(f"engine {i + 1}") for i in range(engines)]
    report = {"worst": -float("inf")}
    played = plies = 0
    try:
        while played < games and time.monotonic() - start < max_seconds:
            pair = rng.sample(players, 2)
            board = random_opening(rng.choice(["Base+MLP", "Base"]), rng.randrange(0, 6), rng,
                                   placements_first=False, repetition_draw=True)
            for engine in pair:
                engine.expect("options", engine.ask("options set RepetitionDraw True").lines, lambda lines: len(lines) == 1)
                engine.game_string("newgame " + board.game_string(), board)
            while not board.is_game_over() and board.ply < max_plies:
                if rng.random() < mischief:
                    _mischief(pair, board, rng)
                    continue
                move = _bestmove(pair[board.side_to_move], board, rng, movetime, report)
                text = board.uhp(move)
                board.push(move)
                plies += 1
                for engine in pair:
                    engine.game_string(f"play {text}", board)
            played += 1
            if log is not None:
                print(f"game {played}: {board.ply} plies, {board.outcome(max_plies=max_plies)}", file=log, flush=True)
    finally:
        for engine in players:
            try:
                engine.close()
            finally:
                engine.process.kill()
    return SoakReport(played, plies, sum(e.answers for e in players), report["worst"],
                      [e.rss_start for e in players], [e.rss_end for e in players], time.monotonic() - start)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__.split("\n\n")[0])
    parser.add_argument("--engines", type=int, default=2, help="engine processes (default 2)")
    parser.add_argument("--games", type=int, default=2, help="at most this many games (default 2)")
    parser.add_argument("--max-seconds", type=float, default=60.0, help="no new game after this (default 60)")
    parser.add_argument("--max-plies", type=int, default=40, help="a game ends undecided here (default 40)")
    parser.add_argument("--movetime", type=float, default=0.05, help="seconds of a bestmove time (default 0.05)")
    parser.add_argument("--mischief", type=float, default=0.1, help="chance of a disturbance per ply (default 0.1)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        report = run(args.engines, args.games, args.max_plies, args.movetime, args.mischief, args.max_seconds,
                     args.seed, log=sys.stderr)
    except (SoakFailure, EngineError) as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        return 1
    print("\n".join(report.lines()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
