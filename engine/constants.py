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
# The fold of the grid must not bring two cells of one hive together: a hive
# spans at most NUM_PIECES cells, plus a ring of empty cells around it.
assert NUM_PIECES + 2 < GRID_SIZE, "the grid fold is too small for this many pieces"
assert NUM_PIECES < (1 << PIECE_BITS)

# --- Game results -----------------------------------------------------------
IN_PROGRESS, WHITE_WINS, BLACK_WINS, DRAW = 0, 1, 2, 3

# --- Scalar state, stored in State.info (int64) ------------------------------
INFO_PLY = 0  # plies played; side to move is ply & 1
INFO_LAST_MOVED = 1  # piece moved or placed on the previous ply, -1 if none
INFO_KEY = 2  # Zobrist key of the position, maintained incrementally
INFO_RESULT = 3  # one of the game results above
INFO_EXPANSIONS = 4  # bit set of expansions (bugs.EXPANSION_BIT) of the game type
INFO_FLAGS = 5  # bit set of FLAG_*
INFO_STAMP = 6  # generation counter for the scratch "seen" arrays
INFO_REVERSIBLE_FROM = 7  # ply after the last placement: no earlier position can recur
INFO_PINNED_PASS = 8  # stamp of the generation whose articulation pass `pinned` holds
INFO_PLACEABLE = 9  # and 10: cells White, Black may place on (past each side's first piece), kept by make/unmake
INFO_SIZE = 11

FLAG_QUEEN_FIRST_ALLOWED = 1  # a Queen may be placed on a side's first turn
FLAG_REPETITION_DRAW = 2  # third occurrence of a position is a draw

# Layout of the scratch array State.work.
WORK_QUEUE = 0  # ant search queue, NUM_CELLS entries
WORK_PATH = NUM_CELLS  # depth-first path of the articulation pass, MAX_NODES entries
WORK_TODO = WORK_PATH + MAX_NODES  # neighbour bits still to walk, per cell of the path
WORK_LOWS = WORK_TODO + MAX_NODES  # low links, per cell of the path
WORK_PLACEMENTS = WORK_LOWS + MAX_NODES  # placement cells, up to NUM_CELLS entries
WORK_PIECES = WORK_PLACEMENTS + NUM_CELLS  # placeable pieces, one per bug
WORK_SIZE = WORK_PIECES + NUM_BUGS

# Undo record columns, stored in State.undo (int64[max_plies, UNDO_SIZE]).
# UNDO_POSITION_KEY is the key of the position before the move without its
# last-moved part: the pieces and the side to move, which repetition compares.
UNDO_MOVE, UNDO_FROM, UNDO_LAST_MOVED, UNDO_KEY, UNDO_RESULT, UNDO_POSITION_KEY, UNDO_REVERSIBLE_FROM = range(7)
UNDO_SIZE = 7

# Zobrist "kind" of a piece: colour and bug, so that swapping two ants gives the same key.
NUM_KINDS = 2 * NUM_BUGS
PIECE_KIND = PIECE_COLOR * NUM_BUGS + PIECE_BUG


# --- Zobrist keys ---------------------------------------------------------
def _zobrist_tables(seed=0x48697665):
    rng = np.random.Generator(np.random.PCG64(seed))
    piece = rng.integers(-(2**63), 2**63 - 1, size=(NUM_KINDS, NUM_CELLS, MAX_HEIGHT), dtype=np.int64)
    last = rng.integers(-(2**63), 2**63 - 1, size=NUM_CELLS + 1, dtype=np.int64)
    last[NUM_CELLS] = 0  # no last-moved piece
    side = int(rng.integers(-(2**63), 2**63 - 1, dtype=np.int64))
    return piece, last, side


# Kept as arrays that the State carries, not as globals, because numba would bake
# a 1 MiB global into every compiled function that reads it.
ZOBRIST_PIECE, ZOBRIST_LAST_MOVED, ZOBRIST_SIDE = _zobrist_tables()
