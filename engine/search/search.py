"""Best-move search: negamax alpha-beta with principal variation search inside
numba, iterative deepening, time control and helper threads in Python.

The protocol calls `Searcher.search` and, from any thread or a signal handler,
`Searcher.stop`. The compiled search polls a shared stop flag every 1024 nodes.
"""

import threading
import time
from typing import NamedTuple

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from . import timeman
from ..rules.board import copy_state, make_move, repetitions, side_to_move, turns_past_setup, unmake_move
from ..rules.bugs import QUEEN_ID
from ..rules.constants import (
    DRAW,
    IN_PROGRESS,
    INFO_DRAW_DUE,
    INFO_KEY,
    INFO_PLY,
    INFO_RESULT,
    MAX_MOVES,
    UNDO_MOVE,
    WHITE_WINS,
)
from .evaluate import DEFAULT_WEIGHTS, NUM_WEIGHTS, evaluate
from ..game import Board, Move
from ..rules.hexgrid import filled_neighbours, neighbor
from ..rules.movegen import bag_copies, generate_moves
from ..rules.moves import NUM_SLOTS, PASS_MOVE, move_dest, move_piece, move_slot
from .options import OptionSpec
from .tt import (
    BOUND_EXACT,
    BOUND_LOWER,
    BOUND_UPPER,
    NO_MOVE,
    entry_bound,
    entry_depth,
    entry_move,
    entry_score,
    new_table,
    probe,
    store,
    table_bytes,
)

MATE = 30000  # score of a win now; a win n plies away scores MATE - n
MATE_BOUND = MATE - 1000  # scores beyond this are wins or losses
INFINITE = 32000
MAX_PLY = 64  # deepest ply of any line, extensions included

# A Queen with this many filled neighbours can be surrounded by the next move.
# Such a position at the horizon is searched one more ply, and so on, up to
# MAX_EXTENSION plies beyond the nominal depth: a win in one, or the defence
# against it, is then seen instead of guessed by the evaluation.
DANGER_FILLED = 5
MAX_EXTENSION = 2

# Pruning of non-PV nodes where the side to move is well ahead (docs/sprt.md, test 3).
# Reverse futility: at depth <= FUTILITY_DEPTH, a static score that beats beta by
# FUTILITY_MARGIN a ply is taken as a cut-off (one move changes the evaluation by
# about one piece's worth of mobility, 20-60, or a Queen cell, up to 126).
# Null move: the side to move passes, and if a search NULL_REDUCTION plies shallower
# (one more from NULL_DEEP_DEPTH) still fails high, so would a real move. Hive has
# zugzwang (a move may have to free a cell next to the own Queen), so neither is
# tried when a Queen is one cell from surrounded, when the side to move has fewer
# than NULL_MIN_MOVES moves, or right after a pass (no two null moves in a row).
FUTILITY_DEPTH = 3
FUTILITY_MARGIN = 90
NULL_MIN_DEPTH = 3
NULL_REDUCTION = 2
NULL_DEEP_DEPTH = 7
NULL_MIN_MOVES = 6

# Late-move reductions: a quiet move (not the table's, not onto the enemy
# Queen's cells, not a killer) from the LMR_FIRST-th on, at depth LMR_DEPTH or
# more, is searched first REDUCTIONS[depth, index] plies shallower, about
# ln(depth) ln(index) / LMR_DIVISOR (the shape of Stockfish's), and again at
# full depth only if it beats alpha. Late-move pruning: at depth LMP_DEPTH or
# less, outside the principal variation, quiet moves from the LMP_MOVES[depth]-th
# on are not searched. Neither applies when a Queen is one cell from surrounded.
LMR_DEPTH, LMR_FIRST, LMR_DIVISOR = 3, 3, 2.0
LMP_DEPTH = 2
LMP_MOVES = np.array([0, 16, 32], dtype=np.int64)


def _reductions():
    table = np.zeros((MAX_PLY, MAX_PLY), dtype=np.int64)
    for depth in range(1, MAX_PLY):
        for index in range(1, MAX_PLY):
            table[depth, index] = int(0.5 + np.log(depth) * np.log(index) / LMR_DIVISOR)
    return table


REDUCTIONS = _reductions()  # by depth and move index, both cut at MAX_PLY - 1

# What one search thread works with is one numpy record, as the board state is
# (board.py): the kernels take it as one argument, a pointer without a reference
# count, and read its fields as arrays or scalars (`c.moves[ply]`, `c.nodes`).
# A namedtuple of arrays cost an atomic reference count per field on every access
# and per field on every call it was passed to.
CONTEXT_FIELDS = (
    ("moves", np.int32, (MAX_PLY, MAX_MOVES)),  # move lists per ply
    ("order", np.int64, (MAX_PLY, MAX_MOVES)),  # ordering scores per ply
    ("killers", np.int32, (MAX_PLY, 2)),  # quiet moves that caused cut-offs
    ("history", np.int64, (NUM_SLOTS,)),  # cut-off history by moves.move_slot
    ("counter", np.int32, (NUM_SLOTS,)),  # the quiet move that last refuted a move, by its move_slot
    ("pv", np.int32, (MAX_PLY, MAX_PLY)),  # triangular principal-variation table
    ("pv_len", np.int64, (MAX_PLY,)),
    ("extended", np.int64, (MAX_PLY,)),  # whether the node at this ply of the line was extended (Queen in danger)
    ("weights", np.int64, (NUM_WEIGHTS,)),  # the evaluation's, copied in by Searcher.search
    ("scratch", np.int64, (NUM_WEIGHTS,)),  # evaluation work space
    ("nodes", np.int64, ()),  # nodes searched since the context was reset
    ("aborted", np.int64, ()),  # non-zero once the stop flag was seen
    ("root_score", np.int64, ()),  # score of the best root move so far
    ("age", np.int64, ()),  # the table's age for `tt.store`: searches since it was cleared
    # Non-zero stops the search. Every thread of a search has its own copy, and
    # Searcher.stop raises them all: a shared array would be one more argument to
    # every negamax call, with an atomic reference count each (about 1 ns a call).
    ("stop", np.int64, ()),
    # The search also stops by itself when cycles() reaches this (see `cycles`).
    ("deadline", np.int64, ()),
)
CONTEXT_DTYPE = np.dtype([(name, dtype, shape) for name, dtype, shape in CONTEXT_FIELDS], align=True)


NO_DEADLINE = np.iinfo(np.int64).max


def new_context():
    """A zeroed search context with no killers and no deadline."""
    c = np.zeros(1, dtype=CONTEXT_DTYPE).view(np.recarray)[0]
    c.killers[:] = NO_MOVE
    c.counter[:] = NO_MOVE
    c.deadline = NO_DEADLINE
    return c


# --- The search's own clock -----------------------------------------------------
# A timer thread that raises the stop flag wakes up late on a loaded machine (2
# to 27 ms late under a load of 9 on two cores, measured); the search thread,
# which is running anyway, reads the processor's cycle counter every 1024 nodes
# and stops itself at its deadline. The counter runs at a constant rate on
# every core of the machines this is written for (constant_tsc, nonstop_tsc);
# the timer stays as a second stop.
@intrinsic
def _read_cycle_counter(typingctx):
    def codegen(context, builder, signature, args):
        function = builder.module.declare_intrinsic("llvm.readcyclecounter", fnty=ir.FunctionType(ir.IntType(64), []))
        return builder.call(function, [])

    return types.int64(), codegen


@njit(cache=True, nogil=True)
def cycles():
    """The processor's cycle counter (x86's time-stamp counter)."""
    return _read_cycle_counter()


class CycleClock:
    """Seconds in cycles(), from the rate seen since the clock was made (at
    least MIN_SPAN seconds apart; before that there is no rate)."""

    MIN_SPAN = 0.05

    def __init__(self):
        cycles()  # loads the kernel, which must not fall between the two readings
        self._start = (time.perf_counter(), cycles())

    def deadline(self, seconds):
        """cycles() `seconds` from now, or NO_DEADLINE (no limit, or no rate yet)."""
        now, ticks = time.perf_counter(), cycles()
        span = now - self._start[0]
        if seconds is None or span < self.MIN_SPAN or ticks <= self._start[1]:
            return NO_DEADLINE
        return int(ticks + seconds * (ticks - self._start[1]) / span)


# --- Kernels ------------------------------------------------------------------
@njit(cache=True, nogil=True)
def terminal_score(s, ply):
    """Score of a finished game for the side to move, mate distance included."""
    result = s.info[INFO_RESULT]
    if result == DRAW:
        return 0
    winner = 0 if result == WHITE_WINS else 1
    if winner == side_to_move(s):
        return MATE - ply
    return -(MATE - ply)


@njit(cache=True, nogil=True)
def queen_in_danger(s):
    """Whether either Queen is one filled cell from being surrounded: the side to
    move may win at once, or must defend."""
    for color in range(2):
        cell = s.piece_cell[QUEEN_ID[color]]
        if cell >= 0 and filled_neighbours(s.around, cell) >= DANGER_FILLED:
            return True
    return False


@njit(cache=True, nogil=True)
def score_to_table(score, ply):
    """Mate scores are stored relative to the node, not the root."""
    if score > MATE_BOUND:
        return score + ply
    if score < -MATE_BOUND:
        return score - ply
    return score


@njit(cache=True, nogil=True)
def score_from_table(score, ply):
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score


@njit(cache=True, nogil=True)
def attacks_queen(s, move, enemy_queen_cell):
    """A move that lands next to the enemy Queen from a cell that is not."""
    if enemy_queen_cell < 0 or move_slot(move) < 0:
        return False
    dest = move_dest(move)
    src = s.piece_cell[move_piece(move)]
    near_dest = False
    near_src = False
    for d in range(6):
        n = neighbor(enemy_queen_cell, d)
        if n == dest:
            near_dest = True
        if n == src:
            near_src = True
    return near_dest and not near_src


@njit(cache=True, nogil=True)
def previous_move(s):
    """The move that led to this position (NO_MOVE at the start of the game)."""
    ply = s.info[INFO_PLY]
    return s.undo[ply - 1, UNDO_MOVE] if ply > 0 else NO_MOVE


@njit(cache=True, nogil=True)
def order_moves(s, c, ply, n, tt_move):
    """Ordering scores: table move, then moves onto the enemy Queen's cells,
    then killers, then the counter move of the previous move, then by history."""
    moves = c.moves[ply]
    order = c.order[ply]
    enemy_queen = s.piece_cell[QUEEN_ID[1 - side_to_move(s)]]
    previous = move_slot(previous_move(s))
    counter = c.counter[previous] if previous >= 0 else NO_MOVE
    for i in range(n):
        m = moves[i]
        slot = move_slot(m)
        if m == tt_move:
            order[i] = 1 << 50
        elif attacks_queen(s, m, enemy_queen):
            order[i] = (1 << 40) + c.history[slot]
        elif m == c.killers[ply, 0]:
            order[i] = 1 << 39
        elif m == c.killers[ply, 1]:
            order[i] = 1 << 38
        elif m == counter:
            order[i] = 1 << 37
        elif slot >= 0:
            order[i] = c.history[slot]
        else:
            order[i] = 0


@njit(cache=True, nogil=True)
def pick_next(c, ply, i, n):
    """Swap the best-ordered remaining move into slot i (selection sort, lazily)."""
    moves = c.moves[ply]
    order = c.order[ply]
    best = i
    for j in range(i + 1, n):
        if order[j] > order[best]:
            best = j
    if best != i:
        moves[i], moves[best] = moves[best], moves[i]
        order[i], order[best] = order[best], order[i]
    return moves[i]


@njit(cache=True, nogil=True)
def negamax(s, c, table, depth, ply, alpha, beta):
    """Principal variation search to `depth` plies; returns the score for the side
    to move. Sets c.aborted and returns 0 when the stop flag is raised."""
    c.pv_len[ply] = 0
    c.nodes += 1
    if (c.nodes & 1023) == 0 and (c.stop != 0 or cycles() >= c.deadline):
        c.aborted = 1
    if c.aborted != 0:
        return 0
    if s.info[INFO_RESULT] != IN_PROGRESS:
        return terminal_score(s, ply)
    if ply > 0 and repetitions(s, 1) > 0:
        return 0
    if s.info[INFO_DRAW_DUE]:
        # A Swarm draw (SW-3) is the bag's, not a side's: the expectation of its
        # outcomes' scores, each weighted by its copies in the bag and searched
        # with a full window. It completes a placement, and takes no depth; nor
        # does it extend one, and it passes its placement's extension on, so that
        # MAX_EXTENSION bounds a line of Queen-in-danger extensions through draws
        # (a draw node that extended handed its children a depth of 1, which
        # began their run of extensions anew: a search of depth 1 never ended).
        # (Here, not in a function of its own: numba's cache cannot link a
        # mutual recursion.)
        if depth <= 0 or ply >= MAX_PLY - 1:
            return evaluate(s, c.weights, c.scratch)
        c.extended[ply] = c.extended[ply - 1] if ply > 0 else 0
        moves = c.moves[ply]
        n = generate_moves(s, moves)
        side = side_to_move(s)
        total = 0
        copies = 0
        full = np.int64(INFINITE)  # not the constant itself: see search_depth
        for i in range(n):
            weight = bag_copies(s, move_piece(moves[i]))
            make_move(s, moves[i])
            if side_to_move(s) == side:  # before the second action of a double turn
                score = negamax(s, c, table, depth, ply + 1, -full, full)
            else:
                score = -negamax(s, c, table, depth, ply + 1, -full, full)
            unmake_move(s)
            if c.aborted != 0:
                return 0
            total += weight * score
            copies += weight
        return total // copies

    c.extended[ply] = 0
    if depth <= 0 and queen_in_danger(s):
        # The line's own extensions, not the root's depth, bound it: a line
        # reduced by late-move reductions reaches depth 0 plies before the root
        # depth, and a Queen in danger stays in danger for many moves.
        run = 0
        while run < MAX_EXTENSION and run < ply and c.extended[ply - 1 - run] != 0:
            run += 1
        if run < MAX_EXTENSION:
            depth = 1
            c.extended[ply] = 1
    if depth <= 0 or ply >= MAX_PLY - 1:
        return evaluate(s, c.weights, c.scratch)
    # Mate-distance pruning: no line from here beats a win found closer to the root.
    if alpha < -(MATE - ply):
        alpha = -(MATE - ply)
    if beta > MATE - ply - 1:
        beta = MATE - ply - 1
    if alpha >= beta:
        return alpha

    pv_node = beta - alpha > 1
    key = s.info[INFO_KEY]
    data = probe(table, key)
    tt_move = NO_MOVE
    if data != 0:
        tt_move = entry_move(data)
        if not pv_node and entry_depth(data) >= depth:
            score = score_from_table(entry_score(data), ply)
            bound = entry_bound(data)
            if bound == BOUND_EXACT or (bound == BOUND_LOWER and score >= beta) or (bound == BOUND_UPPER and score <= alpha):
                return score

    danger = False
    static = 0
    if not pv_node and abs(beta) < MATE_BOUND:
        danger = queen_in_danger(s)
        if not danger:
            static = evaluate(s, c.weights, c.scratch)
            if depth <= FUTILITY_DEPTH and static - FUTILITY_MARGIN * depth >= beta:
                return static

    moves = c.moves[ply]
    n = generate_moves(s, moves)

    if (not pv_node and not danger and abs(beta) < MATE_BOUND and depth >= NULL_MIN_DEPTH and static >= beta
            and n >= NULL_MIN_MOVES and ply > 0 and previous_move(s) != PASS_MOVE and turns_past_setup(s) >= 0):
        reduction = NULL_REDUCTION + (1 if depth >= NULL_DEEP_DEPTH else 0)
        make_move(s, PASS_MOVE)
        score = -negamax(s, c, table, depth - 1 - reduction, ply + 1, -beta, -beta + 1)
        unmake_move(s)
        if c.aborted != 0:
            return 0
        if score >= beta:
            return beta if score >= MATE_BOUND else score

    order_moves(s, c, ply, n, tt_move)
    calm = not danger if not pv_node and abs(beta) < MATE_BOUND else not queen_in_danger(s)
    prune_from = LMP_MOVES[depth] if depth <= LMP_DEPTH and calm and not pv_node else n
    original_alpha = alpha
    best = -INFINITE
    best_move = NO_MOVE
    side = side_to_move(s)
    for i in range(n):
        move = pick_next(c, ply, i, n)
        quiet = c.order[ply, i] < (1 << 38)
        if quiet and i >= prune_from and best > -MATE_BOUND:
            break  # the rest are quiet too: ordered after this one
        make_move(s, move)
        if side_to_move(s) == side:
            # The first action of a HoneyCombo double turn: the same side acts
            # again, so the child's score is ours (HC-4), searched in full.
            score = negamax(s, c, table, depth - 1, ply + 1, alpha, beta)
        elif i == 0:
            score = -negamax(s, c, table, depth - 1, ply + 1, -beta, -alpha)
        else:
            reduction = 0
            if depth >= LMR_DEPTH and i >= LMR_FIRST and quiet and calm:
                reduction = min(REDUCTIONS[min(depth, MAX_PLY - 1), min(i, MAX_PLY - 1)], depth - 2)
            score = -negamax(s, c, table, depth - 1 - reduction, ply + 1, -alpha - 1, -alpha)
            if score > alpha and reduction > 0:
                score = -negamax(s, c, table, depth - 1, ply + 1, -alpha - 1, -alpha)
            if score > alpha and score < beta:
                score = -negamax(s, c, table, depth - 1, ply + 1, -beta, -alpha)
        unmake_move(s)
        if c.aborted != 0:
            return 0
        if score > best:
            best = score
            best_move = move
            if score > alpha:
                alpha = score
                c.pv[ply, 0] = move
                length = c.pv_len[ply + 1]
                for k in range(length):
                    c.pv[ply, k + 1] = c.pv[ply + 1, k]
                c.pv_len[ply] = length + 1
                if ply == 0:
                    c.root_score = score
                if alpha >= beta:
                    if quiet and move_slot(move) >= 0:  # not a pass, nor Swarm's choice or steal
                        if c.killers[ply, 0] != move:
                            c.killers[ply, 1] = c.killers[ply, 0]
                            c.killers[ply, 0] = move
                        c.history[move_slot(move)] += depth * depth
                        previous = move_slot(previous_move(s))
                        if previous >= 0:
                            c.counter[previous] = move
                        # The quiet moves tried before it did not cut: a malus.
                        for j in range(i):
                            slot = move_slot(moves[j])
                            if slot >= 0 and c.order[ply, j] < (1 << 38):
                                c.history[slot] -= depth * depth
                    break

    if best >= beta:
        bound = BOUND_LOWER
    elif best > original_alpha:
        bound = BOUND_EXACT
    else:
        bound = BOUND_UPPER
    store(table, c.age, key, best_move, depth, bound, score_to_table(best, ply))
    return best


@njit(cache=True, nogil=True)
def search_depth(s, c, table, depth, alpha, beta):
    """One iteration of iterative deepening from the root."""
    c.aborted = 0
    # Not a literal 0: numba's cache mis-links a recursive function that was
    # specialised on a literal argument, and the cached code crashes (numba #6061).
    root_ply = np.int64(0)
    return negamax(s, c, table, depth, root_ply, alpha, beta)


# --- Python driver -------------------------------------------------------------
class SearchResult(NamedTuple):
    move: Move  # the best move found (PASS when passing is forced)
    depth: int  # deepest completed iteration
    score: int  # for the side to move; beyond +-MATE_BOUND a forced win or loss
    pv: tuple  # principal variation, starting with `move`
    nodes: int  # nodes searched by all threads


def mate_in(score):
    """Plies to a forced end found by the search, or None."""
    if abs(score) > MATE_BOUND:
        return MATE - abs(score)
    return None


class Searcher:
    """One per engine session. `search` runs in the caller's thread, and calls
    `on_iteration` there (the UHP session calls it from a worker thread, on a
    copy of its board); `stop` may be called from any thread and makes `search`
    return its best move so far. A stop that comes before `search` has started
    may be ignored: the session repeats it.

    Each thread searches with its own context (main first in `_contexts`), and
    each context carries its own copy of the stop flag, which `stop` raises in
    all of them. The list is replaced, never changed in place, so that `stop` in
    another thread reads one whole list; the main context is in every list, so
    the main thread never misses a stop, and a helper that misses one is stopped
    with the others when the main thread ends the search."""

    OPTIONS = (
        OptionSpec("TranspositionTableSizeMB", "int", 64, 1, 4096, help="transposition table size in MiB",
                   apply=lambda searcher, megabytes: searcher.resize_table(megabytes)),
        OptionSpec("MaxHelperThreads", "int", 0, 0, 15, help="helper threads searching beside the main one"),
    )
    ASPIRATION = 50  # half-width of the first window around the previous score

    def __init__(self, weights=None):
        self.options = {spec.name: spec.default for spec in self.OPTIONS}
        self.weights = DEFAULT_WEIGHTS.copy() if weights is None else np.asarray(weights, dtype=np.int64)
        self.resize_table(self.options["TranspositionTableSizeMB"])
        self._contexts = [new_context()]
        self._clock = CycleClock()
        self.last_result = None

    def set_option(self, name, value):
        """Set one of OPTIONS, by name, to a value it has parsed, and apply it."""
        spec = next(spec for spec in self.OPTIONS if spec.name == name)
        self.options[name] = value
        if spec.apply is not None:
            spec.apply(self, value)

    def resize_table(self, megabytes):
        """A new, empty transposition table of at most `megabytes` MiB.

        The old table is let go first, so that the two never exist together.
        The new one is asked of the system zeroed (tt.new_table: pages mapped
        on first use), so that neither a resize nor a new game writes the
        whole table: a search pays for the pages it touches, as it touches them."""
        self._table = None
        self._table = new_table(megabytes)
        self._age = 0  # searches since the table was cleared: the age of its new entries

    @property
    def table_bytes(self):
        return table_bytes(self._table)

    def new_game(self):
        """Forget what was learnt in the previous game: a fresh table (see
        resize_table) rather than writing zeros over 4 GiB, which took 10 s."""
        self.resize_table(self.options["TranspositionTableSizeMB"])
        for context in self._contexts:
            context.history[:] = 0
            context.counter[:] = NO_MOVE

    def stop(self):
        for context in self._contexts:
            context.stop = 1

    def search(self, board: Board, depth=None, seconds=None, on_iteration=None, soft_seconds=None) -> SearchResult:
        """Best move for the side to move in `board` (game not over), searching
        `depth` plies and/or for at most `seconds`; with neither, until `stop()`.
        With `soft_seconds` (a clock's share, timeman.clock_budget) it aims at
        that long and stops between it and `seconds` as timeman.Pacer decides;
        without, it uses all of `seconds`. `on_iteration(result)` is called as
        each depth completes. The board is left unchanged. Stopped early, it
        still returns a legal move: the best one so far, or the first legal move
        if no depth has completed."""
        start = time.perf_counter()
        for context in self._contexts:
            context.stop = 0
        if board.draw_due:
            raise ValueError("a Swarm draw is due: the bag chooses it, not a search (SW-3)")
        moves = board.legal_moves
        if not moves:
            raise ValueError("the game is over")
        max_depth = min(depth or MAX_PLY - 8, MAX_PLY - 8)
        if len(moves) == 1:
            result = SearchResult(moves[0], 0, 0, (moves[0],), 0)
            self.last_result = result
            return result

        pacer = timeman.Pacer(seconds, soft_seconds)
        deadline = self._clock.deadline(None if seconds is None else seconds - timeman.SAFETY_SECONDS)
        timer = timeman.stop_timer(seconds, self.stop)
        soft_timer = None
        self._age += 1
        helpers = self._start_helpers(board, self.options["MaxHelperThreads"])
        main = self._contexts[0]
        self._reset_context(main)
        main.deadline = deadline
        state = copy_state(board.state)
        result = SearchResult(moves[0], 0, 0, (moves[0],), 0)
        try:
            for d in range(1, max_depth + 1):
                score, aborted = self._iterate(state, main, d, result.score if d > 1 else None)
                if main.pv_len[0] > 0:  # a root move searched in full beat alpha
                    pv = tuple(Move(int(m)) for m in main.pv[0, : main.pv_len[0]])
                    result = SearchResult(pv[0], d - 1 if aborted else d, score, pv, 0)
                if aborted:
                    break
                if on_iteration is not None:
                    on_iteration(result._replace(nodes=self._nodes()))
                distance = mate_in(score)
                if distance is not None and distance <= d:
                    break  # a forced result within the horizon: deeper cannot change it
                if not pacer.go_on(time.perf_counter() - start, d, result.move, score):
                    break
                soft_timer = self._arm_soft_stop(soft_timer, pacer, start, main)
        finally:
            self.stop()
            for thread in helpers:
                thread.join()
            for t in (timer, soft_timer):
                if t is not None:
                    t.cancel()
        result = result._replace(nodes=self._nodes())
        self.last_result = result
        return result

    def _arm_soft_stop(self, previous, pacer, start, main):
        """A timer at the pacer's soft deadline (replacing `previous`) that stops
        the search if the depth in progress has not changed the best move."""
        if previous is not None:
            previous.cancel()
        deadline = pacer.soft_deadline()
        if deadline is None:
            return None

        def stop_if_stable():
            in_progress = int(main.pv[0, 0]) if main.pv_len[0] > 0 else None
            if pacer.may_stop_now(in_progress):
                self.stop()

        return timeman.start_timer(deadline - (time.perf_counter() - start), stop_if_stable)

    def _iterate(self, state, context, depth, previous):
        """One depth, first in an aspiration window around the previous score,
        widened to the full window on the side that fails. Returns the score
        (of the best root move so far when aborted) and whether it was aborted."""
        alpha, beta = -INFINITE, INFINITE
        if previous is not None and depth >= 4 and abs(previous) < MATE_BOUND:
            alpha, beta = previous - self.ASPIRATION, previous + self.ASPIRATION
        while True:
            score = int(search_depth(state, context, self._table, depth, alpha, beta))
            if context.aborted != 0:
                return int(context.root_score), True
            if score <= alpha:
                alpha = -INFINITE
            elif score >= beta:
                beta = INFINITE
            else:
                return score, False

    def _nodes(self):
        return int(sum(int(c.nodes) for c in self._contexts))

    def _reset_context(self, context):
        """Ready a context for a new search: counters and killers cleared, the
        history faded, this search's table age and the weights copied in."""
        context.nodes = context.aborted = context.root_score = 0
        context.deadline = NO_DEADLINE  # helpers end with the main thread's search
        context.killers[:] = NO_MOVE
        context.history[:] //= 8
        context.age = self._age
        context.weights[:] = self.weights

    def _start_helpers(self, board, count):
        """Lazy SMP: helper threads search the same position on their own copies,
        sharing the table; odd helpers start a ply deeper so that the threads
        spread over the tree. Their results feed the table only."""
        contexts = self._contexts[: count + 1]
        contexts += [new_context() for _ in range(count + 1 - len(contexts))]
        for context in contexts[1:]:
            context.stop = contexts[0].stop  # a stop raised already holds for the helpers
        self._contexts = contexts
        threads = []
        for index in range(1, count + 1):
            context = self._contexts[index]
            self._reset_context(context)
            state = copy_state(board.state)
            thread = threading.Thread(target=self._helper, args=(state, context, 1 + index % 2), daemon=True)
            thread.start()
            threads.append(thread)
        return threads

    def _helper(self, state, context, first_depth):
        for d in range(first_depth, MAX_PLY - 8):
            search_depth(state, context, self._table, d, -INFINITE, INFINITE)
            if context.aborted != 0 or context.stop != 0:
                return
