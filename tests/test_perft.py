"""Perft against the reference tables (rules.md, "Perft")."""

import io
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from engine import perft_cli
from engine.game import Board
from engine.rules.board import make_move, unmake_move
from engine.rules.bugs import NUM_BUGS, PLACE_AWAY_FROM_QUEENS, PLACE_BESIDE_BOTH, PLACE_ON_TOP, PLACE_QUEEN_AWAY
from engine.rules.constants import INFO_PLY, MAX_MOVES
from engine.rules.movegen import count_after_placement, count_moves, generate_moves, placeable_pieces, placement_rule
from engine.rules.moves import KIND_PLACE, move_kind
from engine.rules.perft import StopFlag, perft_line

from .conftest import read_rows

ROOT = Path(__file__).resolve().parent.parent

STARTPOS = [(game_type, int(depth), int(count)) for game_type, depth, count in read_rows("perft_startpos.tsv")]
MIDGAME = [(name, game_string, int(depth), int(count)) for name, game_string, depth, count in read_rows("perft_midgame.tsv")]


def _depth_mark(depth, fast_limit):
    return [pytest.mark.slow] if depth > fast_limit else []


@pytest.mark.parametrize(
    "game_type,depth,count",
    [pytest.param(*row, marks=_depth_mark(row[1], 5), id=f"{row[0]}-{row[1]}") for row in STARTPOS if row[1] <= 7],
)
def test_perft_from_start(game_type, depth, count):
    assert Board(game_type).perft(depth) == count


@pytest.mark.parametrize(
    "name,game_string,depth,count",
    [pytest.param(*row, marks=_depth_mark(row[2], 3), id=f"{row[0]}-{row[2]}") for row in MIDGAME],
)
def test_perft_midgame(name, game_string, depth, count):
    assert Board.from_game_string(game_string).perft(depth) == count


@pytest.mark.parametrize("game_type", [
    "Base+MLP", "Base+Guardians", "Base+E", "Base+MLP+Guardians+Dx+E+J", "Base+E+Guardians+Venom",
    "Base+MLP+Venom", "Base+Venom(Placed)", "Base+MP+Venom+Predators", "Base+MP+Fx+Wx", "Base+Guardians+Fx+Nx",
    "Base+HoneyCombo", "Base+MLP+HoneyCombo",
])
def test_the_count_after_a_placement_is_the_count_once_it_is_made(game_type):
    """perft's last two plies count the opponent's placements without making the
    move (count_after_placement): in seeded random games, every count it gives is
    the one found by making the move, fan placement rules and faces included."""
    rng = random.Random(game_type)
    moves, replies = np.empty(MAX_MOVES, np.int32), np.empty(MAX_MOVES, np.int32)
    counted, rules = 0, set()
    for _ in range(12):
        s = Board(game_type).state
        for _ in range(rng.randrange(2, 16)):
            n = generate_moves(s, moves)
            for move in moves[:n]:
                if move_kind(move) != KIND_PLACE or (count := count_after_placement(s, move)) < 0:
                    continue
                make_move(s, move)
                assert count == count_moves(s, replies, 0), (game_type, s.info[INFO_PLY], int(move))
                unmake_move(s)
                counted += 1
                pieces = np.empty(NUM_BUGS, np.int64)
                num_pieces = placeable_pieces(s, 1 - s.info[INFO_PLY] % 2, pieces)
                rules.update(int(placement_rule(s, piece)) for piece in pieces[:num_pieces])
            make_move(s, moves[rng.randrange(n)])
    assert counted > 100
    if "E" in game_type.split("+"):
        assert PLACE_BESIDE_BOTH in rules
    if "Guardians" in game_type:
        assert PLACE_ON_TOP in rules
    if "Wx" in game_type.split("+"):
        assert {PLACE_AWAY_FROM_QUEENS, PLACE_QUEEN_AWAY} <= rules


@pytest.mark.parametrize("game_type", ["Base", "Base+MLP"])
def test_parallel_perft_equals_single_threaded(game_type):
    board = Board(game_type)
    assert board.perft(4, threads=2) == board.perft(4)


def test_perft_leaves_the_board_unchanged():
    board = Board.from_game_string(MIDGAME[-1][1])
    before = (board.game_string(), board.key, board.state.height.copy())
    board.perft(3)
    board.perft(3, threads=2)
    assert (board.game_string(), board.key) == before[:2]
    assert (board.state.height == before[2]).all()


def test_finished_game_has_no_moves():
    board = Board.from_game_string(
        "Base;WhiteWins;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;"
        "bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bA1 bG2/;wQ /bG1"
    )
    assert board.perft(0) == 1
    assert board.perft(1) == 0
    assert board.perft(2) == 0


def test_a_set_stop_flag_abandons_the_count():
    board = Board("Base+MLP")
    stop = StopFlag()
    assert board.perft(4, stop=stop) == board.perft(4)
    assert board.perft(4, threads=2, stop=stop) == board.perft(4)
    stop.set()
    assert board.perft(4, stop=stop) is None
    assert board.perft(4, threads=2, stop=stop) is None
    assert board.perft(5, stop=stop) is None


@pytest.mark.parametrize("threads", [1, 2])
def test_a_stop_ends_a_deep_count_at_once(threads):
    """A stop is seen inside the count, not only between its two-ply sequences,
    each of which is a perft(4) of 10^8 leaves here (about a second; the whole
    perft(6) would take hours): the count returns as soon as the stop is set."""
    game_string = next(row[1] for row in MIDGAME if row[0] == "Base+MLP_ply24")
    board = Board.from_game_string(game_string)
    stop = StopFlag()
    threading.Timer(0.2, stop.set).start()
    start = time.monotonic()
    assert board.perft(6, threads=threads, stop=stop) is None
    assert time.monotonic() - start < 0.2 + 0.3
    assert board.game_string() == game_string  # every make undone


@pytest.mark.parametrize("depth,count,seconds,line", [
    (0, 1, 0.0, "perft(0) = 1 in <1 ms."),
    (2, 294, 0.0004, "perft(2) = 294 in <1 ms."),
    (1, 7, 0.019, "perft(1) = 7 in 19 ms. 0.37 KN/s"),
    (1, 0, 0.002, "perft(1) = 0 in 2 ms. 0 KN/s"),
    (5, 10**9, 3.0, "perft(5) = 1000000000 in 3000 ms. 333333 KN/s"),
])
def test_a_result_line_rates_only_what_was_timed_and_never_shows_leaves_as_0_kn_s(depth, count, seconds, line):
    """Issue 29: `perft(0) = 1 in 0 ms. 0 KN/s` rated a count too quick to time,
    and `perft(1) = 7 in 19 ms. 0 KN/s` rounded its leaves away."""
    assert perft_line(depth, count, seconds) == line


def test_the_command_line_prints_mzinga_lines(capsys):
    assert perft_cli.main(["Base+MLP;InProgress;White[2];wG1;bL /wG1", "2"]) == 0
    printed = capsys.readouterr()
    assert [line.split(" in ")[0] for line in printed.out.splitlines()] == ["perft(1) = 24", "perft(2) = 504"]
    assert printed.err == ""  # stderr is no terminal here: no progress in logs and pipes


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_on_a_terminal_the_command_line_shows_how_far_each_depth_has_got(capsys, monkeypatch):
    """Issue 29: a deep depth was silent for its whole count."""
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert perft_cli.main(["Base", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(" in ")[0] for line in lines] == ["perft(1) = 4", "perft(2) = 96", "perft(3) = 1440"]
    shown = terminal.getvalue().split(perft_cli.CLEAR_LINE)
    assert "perft(3): 3/4 root moves, 1,080 leaves so far" in shown
    assert shown[-1] == ""  # the line is erased before each result line


@pytest.mark.parametrize("name,game_string,depth,count", [row for row in MIDGAME if row[2] >= 2 and row[3] < 2 * 10**6][:5])
def test_counting_root_move_by_root_move_gives_perft(name, game_string, depth, count):
    board = Board.from_game_string(game_string)
    assert perft_cli.count(board, depth, 2, StopFlag(), io.StringIO()) == count
    assert board.game_string() == game_string


def test_ctrl_c_stops_the_command_line_cleanly(kernel_cache):
    """SIGINT during a deep count: the process ends within a second with status
    130, every printed line complete, the interrupted depth named on stderr and
    no traceback (issue 29: it used to run on for seconds and die in one)."""
    process = subprocess.Popen([sys.executable, "-m", "engine.perft_cli", "Base+MLP", "12"], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        lines = [process.stdout.readline() for _ in range(4)]  # depths 1-4 come within a second
        process.send_signal(signal.SIGINT)
        sent = time.monotonic()
        rest, errors = process.communicate(timeout=30)
        waited = time.monotonic() - sent
    finally:
        process.kill()
    assert process.returncode == 130 and waited < 1.0, (process.returncode, waited, errors)
    printed = [line.split(" in ")[0] for line in "".join(lines + [rest]).splitlines()]
    assert printed[:4] == ["perft(1) = 7", "perft(2) = 294", "perft(3) = 6678", "perft(4) = 151686"]
    assert "interrupted" in errors and "Traceback" not in errors
