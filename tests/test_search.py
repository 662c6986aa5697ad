"""Search: puzzles solved at their depth, always a legal move, table-size
independence, the table's memory bound, and stopping."""

import subprocess
import sys
import threading
import time

import pytest

from bench.perft import midgame_position
from engine.rules.board import repetitions
from engine.game import PASS, Board
from engine.search.search import MATE, Searcher, mate_in
from engine.search.tt import new_table, table_bytes

from .conftest import read_mzinga, read_nokamute_cases, read_rows

PUZZLES = [
    pytest.param(game_string, int(plies), best, id=f"{plies}ply-{best}")
    for name in ["PuzzleCandidate_IsOneBestMoveToForceWinPuzzleTest.csv", "GameAI_BlockWinningMoveIsBestMoveTest.csv"]
    for _, (game_string, plies, best) in read_mzinga(name)
]

ONE_LEGAL_MOVE = (  # found by random play: Black's only legal move
    "Base;InProgress;Black[38];wB1;bG1 -wB1;wQ wB1\\;bQ /bG1;wA1 wQ/;bG2 /bQ;wG1 wQ\\;bS1 \\bG1;wA1 /bG2;"
    "bA1 bS1/;wA1 wQ/;bA1 bQ\\;wA1 wB1/;bB1 bS1/;wA2 /wG1;bG2 /wQ;wA1 /bA1;bA2 bB1-;wS1 wG1\\;bA2 wS1\\;"
    "wB1 wQ/;bS2 -bB1;wS2 wA1\\;bA2 \\bB1;wA2 wS2-;bB2 \\bA2;wG2 wB1/;bA3 /bS1;wA2 wG2-;bG1 -bA3;wA3 -wB1;"
    "bG3 /bB2;wA3 -wQ;bB1 bA2;wA2 bB1\\;bB1 wA2/;wA2 -bG1;bB1 bA2;wS1 wG2\\;bB1 bA2/;wA3 bB1\\;bB1 bB2;"
    "wA2 bS1-;bB1 bG3;wB2 wS1\\;bB2 \\bB1;wA3 wA2/;bA2 /bB1;wS2 wG1\\;bB1 bS2/;wA3 wB2\\;bB2 bG3;wG2 wA3\\;"
    "bA2 /wG2;wA2 bG2\\;bA2 \\wS1;wA2 \\bB2;bA2 bG2\\;wA1 -bG1;bA2 wS1/;wG3 /wB2;bA2 /wS2;wB1 \\wS1;"
    "bA2 bG1\\;wB1 -wS1;bA2 wG3\\;wG3 /bQ;bA2 /wG3;wA1 bB1\\;bA2 wG3\\;wA1 \\wS1;bB2 \\bB1;wG3 bA2\\;"
    "bB1 bB2-;wA1 bB1\\"
)


def nokamute_case(title):
    return next(game_string for case, game_string, _ in read_nokamute_cases() if case == title)


@pytest.fixture(scope="module")
def searcher():
    return Searcher()


@pytest.mark.parametrize("game_string,plies,best", PUZZLES)
def test_puzzles_are_solved_at_their_depth(searcher, game_string, plies, best):
    board = Board.from_game_string(game_string)
    searcher.new_game()
    result = searcher.search(board, depth=plies)
    assert board.uhp(result.move) == board.uhp(board.parse_uhp(best))


def test_fastest_win_is_preferred(searcher):
    """With a win in one on the board, a deeper search still plays it and scores
    it as a win one ply away."""
    game_string, _, best = read_mzinga("PuzzleCandidate_IsOneBestMoveToForceWinPuzzleTest.csv")[0][1]
    board = Board.from_game_string(game_string)
    searcher.new_game()
    result = searcher.search(board, depth=4)
    assert result.move == board.parse_uhp(best)
    assert result.score == MATE - 1 and mate_in(result.score) == 1


def test_queen_danger_extensions_are_bounded_by_the_line_not_by_the_root_depth(searcher):
    """A Queen one cell from surrounded extends a line by at most MAX_EXTENSION
    plies. Bounded by the root's depth instead, a line cut short by late-move
    reductions went on extending while the danger lasted: this middle game took
    51 M nodes to depth 7 that way (0.66 M to depth 6); 2.9 M now."""
    board = Board.from_game_string(midgame_position("Base+MLP_ply24"))
    searcher.new_game()
    assert searcher.search(board, depth=7).nodes < 6_000_000


@pytest.mark.parametrize("start", range(0, 1500, 300))
def test_bestmove_is_legal_in_random_positions(searcher, start):
    for game_string, _, _ in read_rows("validmoves_random.tsv")[start : start + 300 : 30]:
        board = Board.from_game_string(game_string)
        before = board.game_string()
        result = searcher.search(board, depth=2)
        assert result.move in board.legal_moves
        assert result.pv[0] == result.move
        assert board.game_string() == before


def test_forced_pass_and_single_move_are_answered_at_once(searcher):
    board = Board.from_game_string(nokamute_case("Pass"))
    assert searcher.search(board, depth=6).move == PASS
    board = Board.from_game_string(ONE_LEGAL_MOVE)
    assert len(board.legal_moves) == 1
    result = searcher.search(board, seconds=30)
    assert result.move == board.legal_moves[0] and result.nodes == 0


def test_the_move_does_not_depend_on_the_table_size():
    tiny, large = Searcher(), Searcher()
    tiny.set_option("TranspositionTableSizeMB", 1)
    large.set_option("TranspositionTableSizeMB", 256)
    for game_string in [p.values[0] for p in PUZZLES] + [row[0] for row in read_rows("validmoves_random.tsv")[::150]]:
        board = Board.from_game_string(game_string)
        assert tiny.search(board, depth=3).move == large.search(board, depth=3).move, game_string


@pytest.mark.parametrize("megabytes", [1, 3, 17, 64])
def test_the_table_never_exceeds_its_option(megabytes):
    assert table_bytes(new_table(megabytes)) <= megabytes * 2**20
    searcher = Searcher()
    searcher.set_option("TranspositionTableSizeMB", megabytes)
    searcher.search(Board.from_game_string(read_rows("validmoves_random.tsv")[700][0]), depth=3)
    assert searcher.table_bytes <= megabytes * 2**20


def _resident_mib():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_a_new_game_does_not_write_the_whole_table():
    """`TranspositionTableSizeMB 4096` made the next newgame take 10 s while the
    table was zeroed; a game's table is now fresh from the system, its pages
    mapped as the search touches them, and still within the option."""
    searcher = Searcher()
    searcher.set_option("TranspositionTableSizeMB", 2048)
    before = _resident_mib()
    start = time.monotonic()
    searcher.new_game()
    searcher.new_game()
    took = time.monotonic() - start
    assert _resident_mib() - before < 256, "new_game wrote the table"
    assert took < 1.0
    assert searcher.table_bytes <= 2048 * 2**20
    board = Board.from_game_string(read_rows("validmoves_random.tsv")[700][0])
    start = time.monotonic()
    assert searcher.search(board, depth=3).move in board.legal_moves
    # Nor does the first search pay for the whole table: in huge pages its
    # stores zeroed all of it (4 s here, against 0.02 s in small pages).
    assert time.monotonic() - start < 2.0
    assert _resident_mib() - before < 256
    searcher.set_option("TranspositionTableSizeMB", 1)
    assert searcher.table_bytes <= 2**20


def test_stop_from_another_thread_returns_the_best_move_so_far(searcher):
    board = Board.from_game_string(read_rows("validmoves_random.tsv")[1200][0])
    threading.Timer(0.5, searcher.stop).start()
    start = time.perf_counter()
    result = searcher.search(board)  # no limit but the stop
    assert time.perf_counter() - start < 5
    assert result.move in board.legal_moves


def test_helper_threads_find_a_legal_move():
    searcher = Searcher()
    searcher.set_option("MaxHelperThreads", 2)
    board = Board.from_game_string(read_rows("validmoves_random.tsv")[333][0])
    assert searcher.search(board, depth=4).move in board.legal_moves


def test_repetitions_count_back_to_the_last_placement():
    board = Board.from_game_string(nokamute_case("Draw by threefold repetition"))
    assert repetitions(board.state, 3) == 2
    board.push_uhp("wQ -wS1")
    assert repetitions(board.state, 3) == 2  # the position after ply 9, a third time
    placement = next(m for m in board.legal_moves if board.piece_cell(m.piece) < 0)
    board.push(placement)  # a placement: nothing before it can repeat
    assert repetitions(board.state, 3) == 0


def test_search_kernels_load_from_the_cache_in_a_new_process():
    """numba mis-links cached recursive kernels in some cases (numba #6061);
    a fresh process must load the search from the cache and run it."""
    code = (
        "from engine.game import Board; from engine.search.search import Searcher; "
        "b = Board('Base+MLP'); [b.push(b.legal_moves[0]) for _ in range(6)]; "
        "print(b.uhp(Searcher().search(b, depth=3).move))"
    )
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip()


def test_with_a_clock_the_search_spends_about_its_soft_budget_not_its_hard_one(searcher):
    """`bestmove clock`: a soft budget of 0.2 s and a hard one of 3 s. Stable
    searches stop near the soft budget (at most 2.5 times it, plus an
    unstable depth finished); measured 0.09-0.38 s each, 0.88 s for the four."""
    from bench.search import positions

    total = 0.0
    for _, game_string in positions():
        board = Board.from_game_string(game_string)
        searcher.new_game()
        start = time.monotonic()
        result = searcher.search(board, seconds=3.0, soft_seconds=0.2)
        elapsed = time.monotonic() - start
        assert result.move in board.legal_moves and result.depth >= 1
        assert elapsed < 3.0
        total += elapsed
    assert total < 2.0


def test_the_sampled_positions_are_in_progress_from_distinct_real_games_and_repeatable():
    """bench.search --sample: positions of the recorded SPRT games within
    SAMPLE_PLIES, all different, the same ones for the same seed."""
    from bench.search import SAMPLE_PLIES, sample_positions

    boards = sample_positions(12, seed=3)
    assert len(boards) == 12
    assert all(not board.is_game_over() and len(board.legal_moves) > 1 for board in boards)
    assert all(SAMPLE_PLIES[0] <= board.ply <= SAMPLE_PLIES[1] for board in boards)
    game_strings = [board.game_string() for board in boards]
    assert len(set(game_strings)) == 12
    assert [board.game_string() for board in sample_positions(12, seed=3)] == game_strings
