"""Constants shared by every module: grid geometry, bugs, pieces, move encoding.

Nothing here is computed at run time except small lookup tables, and the Zobrist
table is built from a fixed seed so that two runs give the same keys and node counts.
"""

import numpy as np

# --- Grid -------------------------------------------------------------------
# A 32 x 32 axial grid folded into one index, cell = (q + 32 * r) mod 1024.
# Neighbour lookup is an add and a mask. The smallest non-zero hex distance that
# folds onto itself is 32, and no two cells a Hive of 28 pieces (plus a ring of
# empty cells) can use are that far apart, so the fold never makes distant cells
# adjacent or equal.
GRID_SIZE = 32
NUM_CELLS = GRID_SIZE * GRID_SIZE
CELL_MASK = NUM_CELLS - 1
MAX_HEIGHT = 8  # 4 beetles + 2 mosquitoes on one ground piece is 7 levels
ORIGIN = GRID_SIZE // 2 + GRID_SIZE * (GRID_SIZE // 2)

# Directions in clockwise order, starting north-west (uhp.md, "Directions").
# Consecutive directions are neighbours of each other, so the two cells shared by
# a cell and its neighbour in direction d lie in directions d-1 and d+1.
NUM_DIRECTIONS = 6
DIR_NW, DIR_NE, DIR_E, DIR_SE, DIR_SW, DIR_W = range(6)
DIRECTION_DQ_DR = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
DIRECTION_DELTA = np.array([dq + GRID_SIZE * dr for dq, dr in DIRECTION_DQ_DR], dtype=np.int64)


def cell_of(q, r):
    """Grid cell of axial coordinates (q, r), relative to the origin."""
    return (ORIGIN + q + GRID_SIZE * r) & CELL_MASK


# --- Bugs and pieces --------------------------------------------------------
QUEEN, SPIDER, BEETLE, GRASSHOPPER, ANT, MOSQUITO, LADYBUG, PILLBUG = range(8)
NUM_BUGS = 8
BUG_LETTERS = "QSBGAMLP"
# Copies of each bug per side (rules.md, "Pieces"); this table is the only place.
BUG_COPIES = (1, 2, 2, 3, 3, 1, 1, 1)
# Expansion bit that enables a bug (0 = always enabled).
EXPANSION_MOSQUITO, EXPANSION_LADYBUG, EXPANSION_PILLBUG = 1, 2, 4
BUG_EXPANSION = np.array([0, 0, 0, 0, 0, EXPANSION_MOSQUITO, EXPANSION_LADYBUG, EXPANSION_PILLBUG], dtype=np.int64)

WHITE, BLACK = 0, 1
COLOR_LETTERS = "wb"
PIECES_PER_SIDE = sum(BUG_COPIES)  # 14
NUM_PIECES = 2 * PIECES_PER_SIDE  # ids 0..27, colour-major: wQ wS1 wS2 wB1 ... wP bQ ... bP

# Per piece id: colour, bug, copy number (1-based, 0 for single bugs), and the
# id of the first copy of the same bug and colour.
_color, _bug, _copy, _first = [], [], [], []
for _c in (WHITE, BLACK):
    for _b in range(NUM_BUGS):
        _start = len(_bug)
        for _k in range(BUG_COPIES[_b]):
            _color.append(_c)
            _bug.append(_b)
            _copy.append(_k + 1 if BUG_COPIES[_b] > 1 else 0)
            _first.append(_start)
PIECE_COLOR = np.array(_color, dtype=np.int64)
PIECE_BUG = np.array(_bug, dtype=np.int64)
PIECE_COPY = np.array(_copy, dtype=np.int64)
PIECE_FIRST_COPY = np.array(_first, dtype=np.int64)
# Zobrist "kind": colour and bug, so that swapping two ants gives the same key.
PIECE_KIND = PIECE_COLOR * NUM_BUGS + PIECE_BUG
PIECE_NAMES = tuple(
    COLOR_LETTERS[c] + BUG_LETTERS[b] + (str(k) if k else "") for c, b, k in zip(_color, _bug, _copy)
)
QUEEN_ID = (0, PIECES_PER_SIDE)  # wQ, bQ
del _color, _bug, _copy, _first, _c, _b, _k, _start

# --- Moves ------------------------------------------------------------------
# A move is piece * 1024 + destination cell; it always lands on top of that cell.
MOVE_PIECE_SHIFT = 10
PASS_MOVE = NUM_PIECES << MOVE_PIECE_SHIFT
# Upper bound on distinct legal moves in one position: 14 own pieces and up to 12
# thrown ones, each reaching at most ~64 cells, plus 8 bugs x ~64 placement cells.
MAX_MOVES = 2048

# --- Game results -----------------------------------------------------------
IN_PROGRESS, WHITE_WINS, BLACK_WINS, DRAW = 0, 1, 2, 3

# --- Scalar state, stored in State.info (int64) ------------------------------
INFO_PLY = 0  # plies played; side to move is ply & 1
INFO_LAST_MOVED = 1  # piece moved or placed on the previous ply, -1 if none
INFO_KEY = 2  # Zobrist key of the position, maintained incrementally
INFO_RESULT = 3  # one of the game results above
INFO_EXPANSIONS = 4  # bit set of EXPANSION_* for the game type
INFO_FLAGS = 5  # bit set of FLAG_*
INFO_STAMP = 6  # generation counter for the scratch "seen" arrays
INFO_REVERSIBLE_FROM = 7  # ply after the last placement: no earlier position can recur
INFO_SIZE = 8

FLAG_QUEEN_FIRST_ALLOWED = 1  # a Queen may be placed on a side's first turn
FLAG_REPETITION_DRAW = 2  # third occurrence of a position is a draw

# Layout of the scratch array State.work.
WORK_QUEUE = 0  # ant search queue, NUM_CELLS entries
WORK_NODE_OF = NUM_CELLS  # cell -> node index of the articulation pass (sparse set)
WORK_NODES = 2 * NUM_CELLS  # node arrays of the articulation pass, 6 x MAX_NODES entries
WORK_PLACEMENTS = 3 * NUM_CELLS  # placement cells, up to NUM_CELLS entries
WORK_PIECES = 4 * NUM_CELLS  # placeable pieces, up to NUM_BUGS entries
WORK_SIZE = 4 * NUM_CELLS + 16
MAX_NODES = 64

# Undo record columns, stored in State.undo (int64[max_plies, UNDO_SIZE]).
# UNDO_POSITION_KEY is the key of the position before the move without its
# last-moved part: the pieces and the side to move, which repetition compares.
UNDO_MOVE, UNDO_FROM, UNDO_LAST_MOVED, UNDO_KEY, UNDO_RESULT, UNDO_POSITION_KEY, UNDO_REVERSIBLE_FROM = range(7)
UNDO_SIZE = 7


# --- Zobrist keys ---------------------------------------------------------
def _zobrist_tables(seed=0x48697665):
    rng = np.random.Generator(np.random.PCG64(seed))
    piece = rng.integers(-(2**63), 2**63 - 1, size=(2 * NUM_BUGS, NUM_CELLS, MAX_HEIGHT), dtype=np.int64)
    last = rng.integers(-(2**63), 2**63 - 1, size=NUM_CELLS + 1, dtype=np.int64)
    last[NUM_CELLS] = 0  # no last-moved piece
    side = int(rng.integers(-(2**63), 2**63 - 1, dtype=np.int64))
    return piece, last, side


# Kept as arrays that the State carries, not as globals, because numba would bake
# a 1 MiB global into every compiled function that reads it.
ZOBRIST_PIECE, ZOBRIST_LAST_MOVED, ZOBRIST_SIDE = _zobrist_tables()
