"""Load the numba kernels the engine uses, so that commands do not wait for them.

Kernels are `cache=True`: the first call of each in a process loads its
machine code from numba's cache (a few milliseconds each, and about 0.2 s for
the first, which sets up numba's compiler) or compiles it (tens of seconds in
all) and stores it there when the cache is empty or stale. Calling each kernel
once moves that cost ahead of the commands that need it.

The warm-up comes in two stages (`steps`). The engine (main.py) runs the
first before it reads its first command: the kernels that a new game, its moves
and a search need, which is what a client sends first (hivegame.com's bridge
sends nothing else). It runs the second, the kernels only an illegal move or
`undo` call, in the background once it is idle, so that they are not in the
way of the first answer. `python -m engine --warmup` and the tests run both,
and the perft kernels as well (a `perft` command loads its own).
"""

import logging
import threading
import time

from ..rules.errors import IllegalMoveError
from ..game import Board
from ..search.search import Searcher

# White to move with wS1 pinned between wQ and bS1.
_GAME = "Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-"


def _game_and_search(searcher):
    """What a new game, its moves and a search call: the move generator, make,
    the notation (neighbours, the top of a stack) and the search, which is then
    reset for a new game."""
    board = Board("Base+MLP")
    board.push_uhp("wS1")
    board.push_uhp("bS1 wS1-")  # a MoveString with a reference, as a GameString's
    board.uhp(board.legal_moves[-1])
    _, cell, _ = board.pieces_in_play()[0]
    board.top_piece(cell)
    board.game_string()  # the TurnString's turns (board.turns_past_setup)
    searcher.search(board, depth=1)
    searcher.new_game()


def _rest_of_the_rules():
    """What only some commands call: the reasons for an illegal move (pinned
    pieces, covered pieces, what may be placed) and unmake (`undo`)."""
    board = Board.from_game_string(_GAME)
    try:
        board.push_uhp("wS1 wQ\\")
    except IllegalMoveError:
        pass
    board.copy().pop()


def _perft():
    board = Board.from_game_string(_GAME)
    board.perft(2)
    board.perft(4, threads=2)  # the kernels of the parallel split


def steps(searcher=None, perft=True):
    """The warm-up as a list of (stage name, function), in order: the first
    answers' kernels, then the rest (and perft's unless `perft` is False). The
    search runs in `searcher` (a new Searcher if None)."""
    stages = [("new game, moves, search", lambda: _game_and_search(searcher if searcher is not None else Searcher())),
              ("illegal moves, undo", _rest_of_the_rules)]
    if perft:
        stages.append(("perft", _perft))
    return stages


def warm_up(searcher=None, perft=True):
    """Run every stage of `steps(searcher, perft)`; return the seconds they took."""
    start = time.perf_counter()
    for _, stage in steps(searcher, perft):
        stage()
    return time.perf_counter() - start


def warm_up_first(searcher):
    """The first stage only: what the first answers need (see the module's doc)."""
    steps(searcher, perft=False)[0][1]()


def warm_up_rest_in_background():
    """Start the stages after the first (not perft) in a daemon thread and return it.
    Kernels it is still loading when a command needs them make that command wait
    (numba loads each once, under its own lock); it is otherwise out of the way."""
    def run():
        try:
            for _, stage in steps(perft=False)[1:]:
                stage()
        except Exception:  # a bug here must not end the engine; the command that needs the kernel says more
            logging.getLogger("hexbee").warning("loading the kernels in the background failed", exc_info=True)

    thread = threading.Thread(target=run, name="hexbee-warmup", daemon=True)
    thread.start()
    return thread
