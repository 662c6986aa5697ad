"""Perft: count the leaves of the legal-move tree, with bulk counting at the last ply,
and at the last two after a placement when the opponent may only place.

The command line is engine/perft_cli.py; `perft_line` is the result line it and UHP's
`perft` print (MzingaEngine's).
"""

import threading

import numpy as np
from numba import njit

from .board import copy_state, make_move, unmake_move
from .constants import INFO_PINNED_PASS, MAX_MOVES
from .moves import KIND_PLACE, NO_MOVE, move_kind
from .movegen import count_after_placement, count_moves, generate_moves, mark_pinned, new_stamp, pinned_after_placement


@njit(cache=True, nogil=True)
def _perft(s, depth, buffers):
    moves = buffers[depth - 1]
    if depth == 1:
        return count_moves(s, moves, 0)
    n = generate_moves(s, moves)
    if depth == 2:
        return _last_two(s, moves, n, buffers[0])
    total = 0
    for i in range(n):
        make_move(s, moves[i])
        total += _perft(s, depth - 1, buffers)
        unmake_move(s)
    return total


@njit(cache=True, nogil=True)
def _perft_until_stopped(s, depth, buffers, stop):
    """_perft, or -1 as soon as `stop[0]` is seen non-zero: it is read before
    each subtree of three plies or more, so that between two reads there is at
    most one perft(3) (milliseconds in a wide position); the counting below
    that is _perft's, untouched."""
    if depth <= 3:
        return _perft(s, depth, buffers)
    moves = buffers[depth - 1]
    n = generate_moves(s, moves)
    total = 0
    for i in range(n):
        if stop[0] != 0:
            return -1
        make_move(s, moves[i])
        count = _perft_until_stopped(s, depth - 1, buffers, stop)
        unmake_move(s)
        if count < 0:
            return -1
        total += count
    return total


@njit(cache=True, nogil=True)
def _last_two(s, moves, n, replies):
    """Leaves two plies down from `s`, whose n moves are in `moves` (which it
    overwrites). After a placement, the opponent's moves are counted without
    making it when the opponent may only place (count_after_placement); the
    placements that leave the hive's cuts as they were, but for one new one,
    share one articulation pass of this position; every other reply count makes
    its own."""
    total = 0
    pass_stamp = 0
    for i in range(n):
        move = moves[i]
        if move_kind(move) != KIND_PLACE:
            continue
        count = count_after_placement(s, move)
        if count < 0:
            new_cut = pinned_after_placement(s, move)
            if new_cut == -2:
                continue
            if pass_stamp == 0:
                pass_stamp = new_stamp(s)
                mark_pinned(s, pass_stamp)
            make_move(s, move)
            s.info[INFO_PINNED_PASS] = pass_stamp
            before = 0
            if new_cut >= 0:
                before = s.pinned[new_cut]
                s.pinned[new_cut] = pass_stamp
            count = count_moves(s, replies, pass_stamp)
            if new_cut >= 0:
                s.pinned[new_cut] = before
            unmake_move(s)
        total += count
        moves[i] = NO_MOVE
    for i in range(n):
        if moves[i] != NO_MOVE:
            make_move(s, moves[i])
            total += count_moves(s, replies, 0)
            unmake_move(s)
    return total


@njit(cache=True, nogil=True)
def perft_kernel(s, depth, stop):
    """Leaf count of the tree of legal moves `depth` plies deep from state `s`,
    or -1 if the flag `stop[0]` (an int64 array that another thread may set)
    turned non-zero before it was complete. The undo stack of `s` must have room
    for `depth` more plies."""
    if depth <= 0:
        return 1
    buffers = np.empty((depth, MAX_MOVES), dtype=np.int32)
    return _perft_until_stopped(s, depth, buffers, stop)


@njit(cache=True, nogil=True)
def split_points(s):
    """Every legal two-move sequence from `s`, as rows (first, second); a first
    move that ends the game gets the row (first, NO_MOVE), a leaf."""
    first = np.empty(MAX_MOVES, dtype=np.int32)
    second = np.empty(MAX_MOVES, dtype=np.int32)
    n = generate_moves(s, first)
    rows = []
    for i in range(n):
        make_move(s, first[i])
        m = generate_moves(s, second)
        if m == 0:
            rows.append((first[i], NO_MOVE))
        for j in range(m):
            rows.append((first[i], second[j]))
        unmake_move(s)
    out = np.empty((len(rows), 2), dtype=np.int32)
    for k in range(len(rows)):
        out[k, 0] = rows[k][0]
        out[k, 1] = rows[k][1]
    return out


@njit(cache=True, nogil=True)
def perft_after_two(s, first, second, depth, stop):
    """perft(depth) after the moves first, second (second = NO_MOVE marks a
    finished game, which has no leaves), -1 if stopped (perft_kernel); leaves
    `s` unchanged."""
    if second == NO_MOVE:
        return 0
    make_move(s, first)
    make_move(s, second)
    count = perft_kernel(s, depth, stop)
    unmake_move(s)
    unmake_move(s)
    return count


class StopFlag:
    """A request to stop a count, which the perft kernels poll (a threading.Event
    in its use, set from any thread or a signal handler): once `set()`, a count
    in progress ends within a fraction of a millisecond."""

    def __init__(self):
        self.array = np.zeros(1, dtype=np.int64)

    def set(self):
        self.array[0] = 1

    def is_set(self):
        return bool(self.array[0])


_NEVER = StopFlag()  # the flag of a count that nothing stops; never set


def perft(state, depth, threads=1, stop=None):
    """perft(depth) from `state`. With threads > 1 and depth >= 4, the two-ply
    sequences are handed out one at a time to that many threads, each on its own
    copy of the state (the kernels release the GIL).

    `stop`, a StopFlag, makes the count cancellable: the result is None if it
    was set before the count was complete."""
    stop = _NEVER if stop is None else stop
    flag = stop.array
    if depth < 4 or threads <= 1:
        count = int(perft_kernel(state, depth, flag))
        return None if count < 0 else count
    rows = split_points(state)
    copies = [copy_state(state) for _ in range(threads)]
    next_row = iter(range(len(rows)))
    lock = threading.Lock()
    totals = [0] * threads
    stopped = []

    def work(index):
        while True:
            with lock:
                k = next(next_row, None)
            if k is None:
                return
            count = -1 if stop.is_set() else int(perft_after_two(copies[index], rows[k, 0], rows[k, 1], depth - 2, flag))
            if count < 0:  # stopped: this sequence, and those left, are not counted
                stopped.append(k)
                return
            totals[index] += count

    workers = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return None if stopped else sum(totals)


def perft_line(depth, count, seconds):
    """One result line in MzingaEngine's format, its rate in at least two figures.
    A count that took under a millisecond gets no rate: the timer's own overhead
    would be most of it.

    >>> perft_line(3, 6678, 0.02)
    'perft(3) = 6678 in 20 ms. 334 KN/s'
    >>> perft_line(1, 7, 0.019)
    'perft(1) = 7 in 19 ms. 0.37 KN/s'
    >>> perft_line(0, 1, 0.0002)
    'perft(0) = 1 in <1 ms.'
    """
    ms = seconds * 1000.0
    if ms < 1:
        return f"perft({depth}) = {count} in <1 ms."
    knps = count / ms
    rate = f"{knps:.0f}" if knps >= 10 else f"{knps:.2g}"
    return f"perft({depth}) = {count} in {ms:.0f} ms. {rate} KN/s"
