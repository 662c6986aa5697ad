"""Load every numba kernel the engine uses, so that no command waits for one.

Kernels are `cache=True`: the first call of each in a process loads its
machine code from numba's cache, or compiles it (tens of seconds) and stores it
there when the cache is empty or stale. Calling each kernel once, right after
start-up, moves that cost ahead of the first command.
"""

import time

from .errors import IllegalMoveError
from .game import Board
from .search import Searcher

# White to move with wS1 pinned between wQ and bS1.
_GAME = "Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-"


def warm_up(perft=True):
    """Call every kernel once and return the seconds it took. `perft=False`
    leaves out the perft kernels, which only the `perft` command uses."""
    start = time.perf_counter()
    board = Board.from_game_string(_GAME)  # new state, moves, make, references
    board.uhp(board.legal_moves[-1])
    try:
        board.push_uhp("wS1 wQ\\")  # the reason for an illegal move: pinned pieces
    except IllegalMoveError:
        pass
    board.copy().pop()  # unmake
    if perft:
        board.perft(2)
        board.perft(4, threads=2, stop=None)  # the kernels of the parallel split
    Searcher().search(board, depth=1)
    return time.perf_counter() - start
