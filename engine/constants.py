"""Shapes of the state, game results, and the Zobrist tables, derived from the
table of bugs (bugs.py), the grid (hexgrid.py) and the move codec (moves.py).

Every capacity the kernels rely on is derived here and checked by an assert at
import, because numba does not check bounds: a table of bugs that does not fit
fails loudly here instead of writing past a buffer. The Zobrist table is built
from a fixed seed so that two runs give the same keys and node counts.
"""

import numpy as np

from .bugs import (
    BUG_FIRST_ID,
    BUGS,
    CLIMBERS,
    EXPANSION_BIT,
    EXPANSION_LETTERS,
    NUM_BUGS,
    NUM_PIECES,
    PIECES,
    PIECES_PER_SIDE,
    THROWERS,
)
from .hexgrid import GRID_SIZE, NUM_CELLS, NUM_DIRECTIONS
from .moves import PIECE_BITS

# --- The table of bugs as arrays, for the kernels ------------------------------
BUG_COPIES = np.array([bug.copies for bug in BUGS], dtype=np.int64)
BUG_FIRST_IDS = np.array(BUG_FIRST_ID, dtype=np.int64)
BUG_EXPANSION = np.array([EXPANSION_BIT.get(bug.expansion, 0) for bug in BUGS], dtype=np.int64)
BUG_MOVEMENT = np.array([bug.movement for bug in BUGS], dtype=np.int64)
BUG_ABILITIES = np.array([bug.abilities for bug in BUGS], dtype=np.int64)
BUG_FLAGS = np.array([bug.flags for bug in BUGS], dtype=np.int64)
BUG_LENDS = np.array([bug.movement if bug.lends is None else bug.lends for bug in BUGS], dtype=np.int64)
BUG_PLACEMENT = np.array([bug.placement for bug in BUGS], dtype=np.int64)
PIECE_COLOR = np.array([color for color, _, _ in PIECES], dtype=np.int64)
PIECE_BUG = np.array([bug for _, bug, _ in PIECES], dtype=np.int64)
PIECE_FIRST_COPY = PIECE_COLOR * PIECES_PER_SIDE + BUG_FIRST_IDS[PIECE_BUG]

# --- Capacities ------------------------------------------------------------------
# A stack is the ground piece and every piece that may rest on top; rows of the
# stack array are a power of two long so that a cell's row is a shift away.
MAX_HEIGHT = 1 << (CLIMBERS).bit_length()
assert MAX_HEIGHT >= 1 + CLIMBERS
# Empty cells next to a hive of n cells: at most 2n + 4 (a straight line). Each
# movable piece, each piece a thrower can lift, and each bug placed can reach at
# most that many; the move buffer is rounded up to a power of two.
MAX_REACH = 2 * NUM_PIECES + 4
MAX_MOVES = 1 << ((PIECES_PER_SIDE + NUM_DIRECTIONS * THROWERS + NUM_BUGS) * MAX_REACH - 1).bit_length()
# Plies the undo stack of a state holds (it is part of the state), and the plies
# a game may last: the rest is room for a search or a perft beyond the last move.
MAX_PLIES = 4096
MAX_GAME_PLIES = MAX_PLIES - 256
# The articulation pass has a node per occupied cell.
MAX_NODES = NUM_PIECES
# The fold of the grid must not bring two cells of one hive together: a hive of
# the official game spans at most its 28 pieces, plus a ring of empty cells. The
# biggest fan game types have more ground pieces than the fold allows in one
# line; Board refuses a move that would stretch a hive that far (MAX_HIVE_SPAN).
OFFICIAL_PIECES = 2 * sum(bug.copies for bug in BUGS if bug.expansion in ("", *EXPANSION_LETTERS))
MAX_HIVE_SPAN = GRID_SIZE - 3  # hex distance between two cells of one hive
assert OFFICIAL_PIECES - 1 <= MAX_HIVE_SPAN, "the grid fold is too small for the official game"
assert NUM_PIECES < (1 << PIECE_BITS)

# --- Game results -----------------------------------------------------------
IN_PROGRESS, WHITE_WINS, BLACK_WINS, DRAW = 0, 1, 2, 3

# --- Scalar state, stored in State.info (int64) ------------------------------
INFO_PLY = 0  # plies played; side to move is ply & 1
# The statuses of fan-rules.md §3.2 that the previous ply left: `Last` is the
# piece it placed, moved or threw (also `Prime`) and the piece carried with it;
# `Frozen` is a thrown piece of the side to move (a throw of one's own piece is
# its own move, ST-1); `Placed` is `Last` after a placement (the undo record says).
# Room for the later fan pieces' statuses (Oblig, prisons) come with them.
INFO_LAST_MOVED = 1  # piece moved or placed on the previous ply, -1 if none
INFO_KEY = 2  # Zobrist key of the position, maintained incrementally
INFO_RESULT = 3  # one of the game results above
INFO_EXPANSIONS = 4  # bit set of expansions (bugs.EXPANSION_BIT) of the game type
INFO_FLAGS = 5  # bit set of FLAG_*
INFO_STAMP = 6  # generation counter for the scratch "seen" arrays
INFO_REVERSIBLE_FROM = 7  # ply after the last placement: no earlier position can recur
INFO_PINNED_PASS = 8  # stamp of the generation whose articulation pass `pinned` holds
INFO_PLACEABLE = 9  # and 10: cells White, Black may place on (past each side's first piece), kept by make/unmake
INFO_LAST_CARRIED = 11  # piece a Dragonfly carried on the previous ply, -1 if none (with it, `Last`)
INFO_FROZEN = 12  # piece that may not move, be moved or act on this ply (`Frozen`), -1 if none
INFO_SIZE = 13

FLAG_QUEEN_FIRST_ALLOWED = 1  # a Queen may be placed on a side's first turn
FLAG_REPETITION_DRAW = 2  # third occurrence of a position is a draw

# Layout of the scratch array State.work.
WORK_QUEUE = 0  # ant search queue, NUM_CELLS entries
WORK_PATH = NUM_CELLS  # depth-first path of the articulation pass, MAX_NODES entries
WORK_TODO = WORK_PATH + MAX_NODES  # neighbour bits still to walk, per cell of the path
WORK_LOWS = WORK_TODO + MAX_NODES  # low links, per cell of the path
WORK_PLACEMENTS = WORK_LOWS + MAX_NODES  # placement cells, up to NUM_CELLS entries
WORK_OWN_RULE = WORK_PLACEMENTS + NUM_CELLS  # cells of a bug with a placement rule of its own, NUM_CELLS entries
WORK_PIECES = WORK_OWN_RULE + NUM_CELLS  # placeable pieces, one per bug
WORK_SIZE = WORK_PIECES + NUM_BUGS

# Undo record columns, stored in State.undo (int64[max_plies, UNDO_SIZE]).
# UNDO_POSITION_KEY is the key of the position before the move without its
# last-moved part: the pieces and the side to move, which repetition compares.
UNDO_MOVE, UNDO_FROM, UNDO_LAST_MOVED, UNDO_KEY, UNDO_RESULT, UNDO_POSITION_KEY, UNDO_REVERSIBLE_FROM = range(7)
UNDO_LAST_CARRIED, UNDO_FROZEN = 7, 8
UNDO_SIZE = 9

# Zobrist "kind" of a piece: colour and bug, so that swapping two ants gives the same key.
NUM_KINDS = 2 * NUM_BUGS
PIECE_KIND = PIECE_COLOR * NUM_BUGS + PIECE_BUG


# --- Zobrist keys ---------------------------------------------------------
# A piece's part is its kind's number for its cell, times an odd number for its
# level (1 on the ground): a table per level would be MAX_HEIGHT times the size,
# and every state carries its tables. The statuses have parts of their own.
def _zobrist_tables(seed=0x48697665):
    rng = np.random.Generator(np.random.PCG64(seed))

    def draw(size=None):
        return rng.integers(-(2**63), 2**63 - 1, size=size, dtype=np.int64)

    piece = draw((NUM_KINDS, NUM_CELLS))
    level = draw(MAX_HEIGHT) | 1
    level[0] = 1
    last = draw(NUM_CELLS + 1)
    last[NUM_CELLS] = 0  # no last-moved piece
    return piece, level, last, int(draw()), int(draw()), int(draw()), int(draw())


# Kept as arrays that the State carries, not as globals, because numba would bake
# a big global into every compiled function that reads it.
(ZOBRIST_PIECE, ZOBRIST_LEVEL, ZOBRIST_LAST_MOVED, ZOBRIST_SIDE, ZOBRIST_PLACED, ZOBRIST_CARRIED,
 ZOBRIST_FROZEN) = _zobrist_tables()
