"""Geometry of the folded hex grid: cells, directions, neighbours, and the gates.

A 64 x 64 axial grid folded into one index, cell = (q + 64 * r) mod 4096, so that a
neighbour is an add and a mask. The smallest non-zero hex distance that folds onto
itself is 64, and a hive of every piece of the table (plus a ring of empty cells)
never spans that far (checked in constants.py), so the fold never makes distant
cells adjacent. 64 holds the largest game type the grammar allows (fan-rules.md
§2.4: some 45 ground pieces in a line); 32 held only the official game, and cost
the same speed (docs/benchmarks.md).

Besides the heights, the state keeps for every cell the 6-bit set of its occupied
neighbours (`State.around`, bit d for direction d). Most questions of geometry are a
table lookup in that set: where a ground piece may slide, how many neighbours are
filled, whether a cell is surrounded.
"""

import numpy as np
from numba import njit

GRID_SIZE = 64
NUM_CELLS = GRID_SIZE * GRID_SIZE
CELL_MASK = NUM_CELLS - 1
ORIGIN = GRID_SIZE // 2 + GRID_SIZE * (GRID_SIZE // 2)

# Directions in clockwise order, starting north-west (uhp.md, "Directions").
# Consecutive directions are neighbours of each other, so the two cells shared by
# a cell and its neighbour in direction d lie in directions d-1 and d+1.
NUM_DIRECTIONS = 6
DIR_NW, DIR_NE, DIR_E, DIR_SE, DIR_SW, DIR_W = range(6)
DIRECTION_DQ_DR = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
DIRECTION_DELTA = np.array([dq + GRID_SIZE * dr for dq, dr in DIRECTION_DQ_DR], dtype=np.int64)
LEFT = np.array([(d + 5) % 6 for d in range(6)], dtype=np.int64)
RIGHT = np.array([(d + 1) % 6 for d in range(6)], dtype=np.int64)
OPPOSITE = np.array([(d + 3) % 6 for d in range(6)], dtype=np.int64)
ALL_AROUND = (1 << NUM_DIRECTIONS) - 1


def cell_of(q, r=None):
    """Grid cell of axial coordinates relative to the origin: cell_of(q, r), or
    cell_of((q, r)) as axial() gives them."""
    if r is None:
        q, r = q
    return (ORIGIN + q + GRID_SIZE * r) & CELL_MASK


@njit(cache=True, nogil=True)
def unfold(offset):
    """Axial (dq, dr), each in -32..31, of the folded difference `offset` of two
    cells ((a - b) & CELL_MASK): where a lies from b."""
    q = offset % GRID_SIZE
    r = offset // GRID_SIZE
    if q >= GRID_SIZE // 2:
        q -= GRID_SIZE
        r += 1
    if r >= GRID_SIZE // 2:
        r -= GRID_SIZE
    return q, r


_unfold = unfold.py_func  # from Python: no call into compiled code per cell


def axial(cell):
    """Axial (q, r) of a cell relative to the origin, in -32..31."""
    return _unfold((cell - ORIGIN) & CELL_MASK)


def _slide_table():
    """SLIDE_OUT[around]: directions a ground piece may slide to from a cell whose
    occupied neighbours are `around` (rules.md, "Movement rules common to all
    bugs"): the target is empty and exactly one of the two cells it shares with
    the start is occupied. Both is a gate; neither loses contact with the hive."""
    table = np.zeros(1 << NUM_DIRECTIONS, dtype=np.int64)
    for around in range(1 << NUM_DIRECTIONS):
        for d in range(NUM_DIRECTIONS):
            target = (around >> d) & 1
            left = (around >> LEFT[d]) & 1
            right = (around >> RIGHT[d]) & 1
            if not target and left != right:
                table[around] |= 1 << d
    return table


def _runs(around):
    """Maximal runs of occupied neighbours going round the cell."""
    return sum(1 for d in range(NUM_DIRECTIONS) if (around >> d) & 1 and not (around >> LEFT[d]) & 1)


SLIDE_OUT = _slide_table()
LOWEST_BIT = np.array([(bits & -bits).bit_length() - 1 if bits else 0 for bits in range(1 << NUM_DIRECTIONS)], dtype=np.int64)
FILLED = np.array([bin(around).count("1") for around in range(1 << NUM_DIRECTIONS)], dtype=np.int64)
# A piece whose occupied neighbours form one run round it never holds the hive
# together: consecutive neighbours touch, so they stay connected without it. Only
# pieces with two runs or more need the articulation pass (a ring has all six
# filled: one "run" of six, counted as 1 here too).
RUNS = np.array([max(_runs(around), 1 if around == ALL_AROUND else 0) for around in range(1 << NUM_DIRECTIONS)], dtype=np.int64)


@njit(cache=True, nogil=True)
def neighbor(cell, d):
    return (cell + DIRECTION_DELTA[d]) & CELL_MASK


@njit(cache=True, nogil=True)
def slide_out(around, cell):
    """Bit set of the directions a ground piece at `cell` may slide to."""
    return SLIDE_OUT[around[cell]]


@njit(cache=True, nogil=True)
def filled_neighbours(around, cell):
    """How many of the six cells around `cell` are occupied."""
    return FILLED[around[cell]]


@njit(cache=True, nogil=True)
def may_hold_hive(around, cell):
    """Whether the piece at `cell` could be an articulation point of the hive."""
    return RUNS[around[cell]] > 1


@njit(cache=True, nogil=True)
def is_surrounded(around, cell):
    return around[cell] == ALL_AROUND


@njit(cache=True, nogil=True)
def can_climb(height, cell, d, h_from):
    """Whether a piece standing on a pile of `h_from` pieces at `cell` may step to
    its neighbour in direction d, at any height (rules.md, climbing): the higher of
    the two piles must reach the lower of the two piles that flank the step. On the
    ground both ends are empty, and the step is a slide."""
    h_to = height[neighbor(cell, d)]
    h_left = height[neighbor(cell, LEFT[d])]
    h_right = height[neighbor(cell, RIGHT[d])]
    if h_from == 0 and h_to == 0:
        return (h_left > 0) != (h_right > 0)
    return max(h_from, h_to) >= min(h_left, h_right)


@njit(cache=True, nogil=True)
def set_occupied(around, cell, occupied):
    """Keep `around` true when `cell` becomes occupied (or empty)."""
    for d in range(NUM_DIRECTIONS):
        n = neighbor(cell, d)
        bit = 1 << OPPOSITE[d]
        if occupied:
            around[n] |= bit
        else:
            around[n] &= ~bit
