"""Best-move search behind a narrow seam: the protocol calls `Searcher.search`
and, from another thread or a signal handler, `Searcher.stop`.

Placeholder until the search issue lands: a one-ply search that takes a winning
move, avoids a losing one, and otherwise plays the first legal move.
"""

import threading
from typing import NamedTuple

from .constants import BLACK_WINS, DRAW, WHITE_WINS
from .game import Board, Move


class SearchResult(NamedTuple):
    move: Move  # the best move found (PASS when passing is forced)
    depth: int  # deepest completed iteration
    score: int  # from the side to move's view, in evaluation units
    pv: tuple  # principal variation, starting with `move`
    nodes: int


class Searcher:
    """One per engine session. `search` runs in the caller's thread, and calls
    `on_iteration` there (the UHP session calls it from a worker thread, on a
    copy of its board); `stop` may be called from any thread and makes `search`
    return its best move so far. A stop that comes before `search` has started
    may be ignored: the session repeats it."""

    OPTIONS = ()  # OptionSpec rows the search adds to the engine's options

    def __init__(self):
        self._stop = threading.Event()
        self.options = {spec.name: spec.default for spec in self.OPTIONS}

    def set_option(self, name, value):
        self.options[name] = value

    def new_game(self):
        """Forget what was learnt in the previous game (tables, histories)."""

    def stop(self):
        self._stop.set()

    def search(self, board: Board, depth=None, seconds=None, on_iteration=None) -> SearchResult:
        """Best move for the side to move in `board` (not game over), searching
        `depth` plies and/or for at most `seconds`; with neither, until `stop()`.
        `on_iteration(result)` is called as each depth completes. The board is
        left unchanged. Stopped early, it still returns a legal move: the best
        one so far, or any legal move if no depth has completed."""
        self._stop.clear()
        moves = board.legal_moves
        side = board.side_to_move
        win = WHITE_WINS if side == 0 else BLACK_WINS
        best, best_score = moves[0], -1
        for move in moves:
            board.push(move)
            result = board.result
            board.pop()
            score = 2 if result == win else 0 if result in (WHITE_WINS, BLACK_WINS) else 1
            if result == DRAW:
                score = 1
            if score > best_score:
                best, best_score = move, score
        outcome = SearchResult(best, 1, best_score, (best,), len(moves))
        if on_iteration is not None:
            on_iteration(outcome)
        return outcome
