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


def warm_up(searcher=None, perft=True):
    """Call every kernel once and return the seconds it took. The search runs
    in `searcher` (a new Searcher if None), which is then reset for a new game;
    `perft=False` leaves out the perft kernels, which only `perft` uses."""
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
        board.perft(4, threads=2)  # the kernels of the parallel split
    searcher = searcher if searcher is not None else Searcher()
    searcher.search(board, depth=1)
    searcher.new_game()
    return time.perf_counter() - start
