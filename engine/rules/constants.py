"""Shapes of the state, game results, and the Zobrist tables, derived from the
table of bugs (bugs.py), the grid (hexgrid.py) and the move codec (moves.py).

Every capacity the kernels rely on is derived here and checked by an assert at
import, because numba does not check bounds: a table of bugs that does not fit
fails loudly here instead of writing past a buffer. The Zobrist table is built
from a fixed seed so that two runs give the same keys and node counts.
"""

import numpy as np

from .bugs import (
    BUG_BACK,
    BUG_FIRST_ID,
    BUG_OF_LETTER,
    BUGS,
    CLIMBERS,
    COLOURED_PIECES,
    COMMANDERS,
    EXPANSION_BIT,
    FIXED_FACE_BIT,
    NEUTRAL_COLOR,
    NUM_BUGS,
    NUM_PIECES,
    PIECES,
    PLACE_AWAY_FROM_QUEENS,
    PLACE_BESIDE_BOTH,
    PLACE_ON_TOP,
    PLACE_QUEEN_AWAY,
    PIECES_PER_SIDE,
    THROWERS,
)
from .hexgrid import GRID_SIZE, NUM_CELLS, NUM_DIRECTIONS, cell_of
from .moves import PIECE_BITS

# --- The table of bugs as arrays, for the kernels ------------------------------
BUG_COPIES = np.array([bug.copies for bug in BUGS], dtype=np.int64)
BUG_FIRST_IDS = np.array(BUG_FIRST_ID, dtype=np.int64)
BUG_EXPANSION = np.array([EXPANSION_BIT.get(bug.expansion, 0) for bug in BUGS], dtype=np.int64)
BUG_MOVEMENT = np.array([bug.movement for bug in BUGS], dtype=np.int64)
BUG_ABILITIES = np.array([bug.abilities for bug in BUGS], dtype=np.int64)
BUG_FLAGS = np.array([bug.flags for bug in BUGS], dtype=np.int64)
BUG_LENDS = np.array([bug.movement if bug.lends is None else bug.lends for bug in BUGS], dtype=np.int64)
BUG_MOVEMENT_ON_TOP = np.array([bug.movement if bug.on_top is None else bug.on_top for bug in BUGS], dtype=np.int64)
BUG_BACKS = np.array(BUG_BACK, dtype=np.int64)
# The Venom(Fixed:...) bit that fixes each bug's tiles on their back, 0 for none.
BUG_FIXED_BIT = np.array([FIXED_FACE_BIT.get(bug.back, 0) for bug in BUGS], dtype=np.int64)
BUG_PLACEMENT = np.array([bug.placement for bug in BUGS], dtype=np.int64)
PIECE_COLOR = np.array([color for color, _, _ in PIECES], dtype=np.int64)
PIECE_BUG = np.array([bug for _, bug, _ in PIECES], dtype=np.int64)
PIECE_FIRST_COPY = PIECE_COLOR * PIECES_PER_SIDE + BUG_FIRST_IDS[PIECE_BUG]
# The colour whose `tops` a piece on top of a cell sets: its own, none for a
# neutral piece (the Honeycomb is neither colour's neighbour, HC-3).
TOP_COLOR = np.where(PIECE_COLOR == NEUTRAL_COLOR, -1, PIECE_COLOR)

# --- Capacities ------------------------------------------------------------------
# A stack is the ground piece and every piece that may rest on top; rows of the
# stack array are a power of two long so that a cell's row is a shift away.
MAX_HEIGHT = 1 << (CLIMBERS).bit_length()
assert MAX_HEIGHT >= 1 + CLIMBERS
# Empty cells next to a hive of n cells: at most 2n + 4 (a straight line). Each
# movable piece, each piece a thrower can lift, and each bug placed can reach at
# most that many; the move buffer is rounded up to a power of two.
MAX_REACH = 2 * NUM_PIECES + 4
# With Venom a placement chooses one of two faces, and each tile may flip.
MAX_MOVES = 1 << ((PIECES_PER_SIDE + NUM_DIRECTIONS * (THROWERS + COMMANDERS) + 2 * NUM_BUGS) * MAX_REACH
                   - 1).bit_length()
# Plies the undo stack of a state holds (it is part of the state), and the plies
# a game may last: the rest is room for a search or a perft beyond the last move.
MAX_PLIES = 4096
MAX_GAME_PLIES = MAX_PLIES - 256
# The articulation pass has a node per occupied cell.
MAX_NODES = NUM_PIECES
# The fold of the grid must not bring two cells of one hive together: a hive
# spans at most all its pieces in a line, plus a ring of empty cells.
MAX_HIVE_SPAN = GRID_SIZE - 3  # hex distance between two cells of one hive
assert NUM_PIECES - 1 <= MAX_HIVE_SPAN, "the grid fold is too small for a hive of every piece"
assert NUM_PIECES < (1 << PIECE_BITS)
assert PIECES_PER_SIDE < 63, "UNDO_FREED holds a bit per piece of a side"

# --- Game results -----------------------------------------------------------
IN_PROGRESS, WHITE_WINS, BLACK_WINS, DRAW = 0, 1, 2, 3

# --- The state's int64 areas, each declared once ------------------------------
class Layout:
    """Named areas laid one after another in an int64 array: `area` returns an
    area's offset and records its initial value, so that the array's size and
    its start are derived from the declarations, never counted by hand."""

    def __init__(self):
        self.initial = []

    @property
    def size(self):
        return len(self.initial)

    def area(self, length=1, initial=0):
        offset = self.size
        self.initial.extend([initial] * length)
        return offset

    def array(self):
        return np.array(self.initial, dtype=np.int64)


# State.info, the scalars. First the statuses of fan-rules.md §3.2 that the
# previous ply left, which every make_move resets to -1 before its kind's kernel
# sets its own: `Last` is the piece the ply placed, moved or threw (also `Prime`)
# and the piece carried with it; `Frozen` is a thrown piece of the side to move;
# `Placed` is `Last` after a placement; `Oblig`
# comes with the S004 Wasp (Fan pieces III).
_info = Layout()
INFO_LAST_MOVED = _info.area(initial=-1)  # piece moved or placed on the previous ply, -1 if none
INFO_LAST_CARRIED = _info.area(initial=-1)  # piece a Dragonfly carried on the previous ply (with it, `Last`)
INFO_FROZEN = _info.area(initial=-1)  # piece that may not move, be moved or act on this ply (`Frozen`)
INFO_PLACED = _info.area(initial=-1)  # piece placed on the previous ply (`Placed`, the Mantis's prey, N-2)
INFO_OBLIGED = _info.area(initial=-1)  # `Oblig` (WX-3): the piece whose only moves are away from its Wasp
INFO_OBLIGER = _info.area(initial=-1)  # and that Wasp
INFO_STATUSES = _info.size  # info[:INFO_STATUSES]
# Then the rest a move may change: make_move saves info[:INFO_SAVED] in the undo
# record and unmake_move restores it, in one loop each.
INFO_KEY = _info.area()  # Zobrist key of the position, maintained incrementally
INFO_RESULT = _info.area()  # one of the game results above
INFO_REVERSIBLE_FROM = _info.area()  # ply after the last placement: no earlier position can recur
INFO_STINGS_USED = _info.area()  # bit per colour: its Queen has used her sting (WX-5, Fan pieces III)
# Turns completed by both sides: the side to move is turns & 1, and its turn
# number turns // 2 + 1 (TU-2). One per ply but for entries within a turn (§3.4).
INFO_TURNS = _info.area()
INFO_SAVED = _info.size
# The turn phases of HoneyCombo and Swarm (§10, §11), saved and restored too, but
# only in their game types (the official ones never touch them). HoneyCombo's
# double turns: the Last and Frozen of a double turn's first action when its
# second had a Prime of its own (else the first's are the status slots; ST-2),
# reset with the statuses; the statuses the first action made while the second is
# due, in the order of the status slots (the opponent's still apply, HC-5); the
# Honeycomb: -1 while it is dark side up, else the colour whose next turn is
# double (HC-4); and the turn phase (PHASE_*). Swarm's: whether a draw is due
# (SW-3: 1 after a placement while the bag holds pieces, else 0), and the key's
# part for where the pieces off the board are (swarm_hands_key).
INFO_PHASED = _info.size
INFO_EARLIER_MOVED = _info.area(initial=-1)
INFO_EARLIER_CARRIED = _info.area(initial=-1)
INFO_EARLIER_FROZEN = _info.area(initial=-1)
INFO_EARLIER_END = _info.size
assert INFO_EARLIER_END - INFO_EARLIER_MOVED == INFO_FROZEN + 1 - INFO_LAST_MOVED, "laid out as the Last and Frozen slots"
INFO_PENDING = _info.area(INFO_STATUSES, initial=-1)
INFO_HONEYCOMB = _info.area(initial=-1)
INFO_PHASE = _info.area()
INFO_DRAW_DUE = _info.area()
INFO_HANDS_KEY = _info.area()
INFO_PHASED_SIZE = _info.size - INFO_PHASED
# Not saved: the ply (unmake counts it back), what the game type and options
# set, the scratch stamps, and counts make and unmake keep both ways.
INFO_PLY = _info.area()  # entries played (plies), which index the undo records
INFO_EXPANSIONS = _info.area()  # bit set of expansions (bugs.EXPANSION_BIT) of the game type
INFO_FLAGS = _info.area()  # bit set of FLAG_*
INFO_STAMP = _info.area()  # generation counter for the scratch "seen" arrays
INFO_PINNED_PASS = _info.area()  # stamp of the generation whose articulation pass `pinned` holds
INFO_PLACEABLE = _info.area(2)  # cells White, Black may place on (past each side's first piece), kept by make/unmake
INFO_SIZE = _info.size
INFO_INITIAL = _info.array()

PHASE_TURN = 0  # a turn begins
PHASE_SECOND = 1  # the second action of a double turn is due (HC-4)
# Swarm's setup: White's and Black's `choose`, which INFO_TURNS counts as turns
# but TU-2 does not (board.turns_past_setup).
SWARM_SETUP = 2

FLAG_QUEEN_FIRST_ALLOWED = 1  # a Queen may be placed on a side's first turn
FLAG_REPETITION_DRAW = 2  # third occurrence of a position is a draw

# State.undo, one record per ply played (int64[MAX_PLIES, UNDO_SIZE]).
# UNDO_POSITION_KEY is the key of the position before the move without its
# statuses: the pieces and the side to move, which repetition compares.
_undo = Layout()
UNDO_MOVE = _undo.area()  # the move
UNDO_FROM = _undo.area()  # the cell its piece left, -1 from hand
UNDO_FREED = _undo.area()  # an S004 Mantis placed: its prisoners freed, a bit per piece id past the side's first
UNDO_FACES = _undo.area()  # a removal to hand: the faces its actor (bit 0) and target (bit 1) showed
UNDO_AWAY = _undo.area()  # a Swarm placement: whose hand the piece came from (board.AWAY_*)
UNDO_POSITION_KEY = _undo.area()
UNDO_INFO = _undo.area(INFO_SAVED)  # info[:INFO_SAVED] before the move
UNDO_PHASED = _undo.area(INFO_PHASED_SIZE)  # and with HoneyCombo or Swarm their area
UNDO_SIZE = _undo.size

# State.work, scratch queues and stacks of the kernels.
_work = Layout()
WORK_QUEUE = _work.area(NUM_CELLS)  # ant search queue
WORK_PATH = _work.area(MAX_NODES)  # depth-first path of the articulation pass
WORK_TODO = _work.area(MAX_NODES)  # neighbour bits still to walk, per cell of the path
WORK_LOWS = _work.area(MAX_NODES)  # low links, per cell of the path
WORK_PLACEMENTS = _work.area(NUM_CELLS)  # placement cells
WORK_OWN_RULE = _work.area(NUM_CELLS)  # cells of a bug with a placement rule of its own
WORK_PIECES = _work.area(2 * NUM_BUGS)  # placeable pieces, one per bug of each colour held (Swarm: both)
WORK_HIVE = _work.area(3 * NUM_PIECES)  # rl.hive_centre's walk: the occupied cells, their q, their r
# perft's count after a placement: the opponent's cells of each fan placement rule
# (bugs.py PLACE_* but the usual one), kept for the placements of one position, and
# which position (key, ply) and how many they are (the zeros of a new state name the
# empty board, whose placements are never counted so).
FAN_PLACEMENT_RULES = 4
assert (PLACE_BESIDE_BOTH, PLACE_ON_TOP, PLACE_AWAY_FROM_QUEENS, PLACE_QUEEN_AWAY) == (1, 2, 3, 4), \
    "a slot per fan placement rule, numbered from 1"
RULE_CELLS_MAX = NUM_DIRECTIONS * NUM_PIECES  # cells next to a side's pieces, or its piles
WORK_RULE_AFTER = _work.area(FAN_PLACEMENT_RULES * RULE_CELLS_MAX)
WORK_RULE_AFTER_TAG = _work.area(FAN_PLACEMENT_RULES * 3)
WORK_SIZE = _work.size

# Zobrist "kind" of a piece: colour and the bug of its face, so that swapping two
# ants gives the same key; PIECE_KIND[piece, face].
# A neutral piece has one face and is keyed as White's copy of its bug, which
# no other piece is.
NUM_KINDS = 2 * NUM_BUGS
_KIND_COLOR = np.where(PIECE_COLOR == NEUTRAL_COLOR, 0, PIECE_COLOR)
PIECE_KIND = np.stack([_KIND_COLOR * NUM_BUGS + PIECE_BUG,
                       _KIND_COLOR * NUM_BUGS + np.where(BUG_BACKS[PIECE_BUG] >= 0, BUG_BACKS[PIECE_BUG], PIECE_BUG)],
                      axis=1)


# --- Zobrist keys ---------------------------------------------------------
# A piece's part is its kind's number for its cell, times an odd number for its
# level (1 on the ground): a table per level would be MAX_HEIGHT times the size,
# and every state carries its tables. The statuses have parts of their own.
# The cells within 16 of the origin keep the numbers they had on the 32 x 32 grid
# of the first versions (drawn first, from the same seed), so that the keys of a
# hive there, and with them the searches, are those of before the wider grid.
# Likewise the bugs of the table of 2026-12-03 keep theirs, and the rows added
# by 2026-12-07 (Venom's faces, the Predators) draw theirs after every earlier
# number. Each row added later draws from a generator of its own letter, so that
# no row added anywhere in the table moves another's numbers.
OLD_GRID_SIZE = 32
OLD_BUGS = ("Q", "S", "B", "G", "A", "M", "L", "P", "V", "Z", "Dx", "E", "J")
SECOND_BUGS = ("W", "F", "D", "R", "Y", "U", "T", "C", "K", "N")
OLD_MAX_HEIGHT = 16


def _zobrist_tables(seed=0x48697665):
    rng = np.random.Generator(np.random.PCG64(seed))

    def draw(size=None):
        return rng.integers(-(2**63), 2**63 - 1, size=size, dtype=np.int64)

    old_cells = OLD_GRID_SIZE * OLD_GRID_SIZE
    old_kinds = 2 * len(OLD_BUGS)
    old_piece = draw((old_kinds, old_cells))
    level = np.ones(MAX_HEIGHT, dtype=np.int64)
    level[:OLD_MAX_HEIGHT] = draw(OLD_MAX_HEIGHT) | 1
    level[0] = 1
    old_last = draw(old_cells + 1)
    # The side, `Placed`, a number once the carried piece's (drawn still, so
    # that the numbers after it stay), `Frozen`.
    side, placed, _, frozen = (int(draw()) for _ in range(4))
    old_wide = draw((old_kinds, NUM_CELLS))
    last = draw(NUM_CELLS + 1)
    new_bugs = [letter for letter in SECOND_BUGS if letter in BUG_OF_LETTER]
    new_wide = draw((2 * len(new_bugs), NUM_CELLS))
    level[OLD_MAX_HEIGHT:] = draw(MAX_HEIGHT - OLD_MAX_HEIGHT) | 1
    # The second piece of `Last` by its cell: under the Dragonfly that carried
    # it, or where a Centipede swapped it to.
    carried = draw(NUM_CELLS)
    # A neutral piece is never removed, obliged or imprisoned: its numbers are 0.
    def per_piece():
        return np.concatenate([draw(COLOURED_PIECES), np.zeros(NUM_PIECES - COLOURED_PIECES, dtype=np.int64)])

    removed = per_piece()  # a piece out of the game (Predators, §7)
    obliged = per_piece()  # `Oblig`'s piece (WX-3); its Wasp follows from it (one a side)
    stings_used = draw(2)  # `QueenStingUsed` per colour (WX-5)
    imprisoned = per_piece()  # a piece in an S004 Mantis's prison (one a side: its jailer is the enemy's)
    # Rows colour-major as PIECE_KIND numbers them, the old ones from their draws.
    row_of = {(color, letter): color * len(OLD_BUGS) + index for color in (0, 1) for index, letter in enumerate(OLD_BUGS)}
    row_of.update({(color, letter): color * len(new_bugs) + index for color in (0, 1) for index, letter in enumerate(new_bugs)})
    kinds = [(color, letter) for color in (0, 1) for letter in BUG_OF_LETTER]

    def numbers(color, letter):
        if letter in OLD_BUGS:
            return old_wide[row_of[color, letter]]
        if letter in SECOND_BUGS:
            return new_wide[row_of[color, letter]]
        own = np.random.Generator(np.random.PCG64([seed, *letter.encode()]))
        return own.integers(-(2**63), 2**63 - 1, size=(2, NUM_CELLS), dtype=np.int64)[color]

    piece = np.stack([numbers(color, letter) for color, letter in kinds])
    old_rows = [row_of[color, letter] if letter in OLD_BUGS else -1 for color, letter in kinds]
    half = OLD_GRID_SIZE // 2
    for q in range(-half, half):
        for r in range(-half, half):
            old = (half + q + OLD_GRID_SIZE * (half + r)) % old_cells
            for kind, row in enumerate(old_rows):
                if row >= 0:
                    piece[kind, cell_of(q, r)] = old_piece[row, old]
            last[cell_of(q, r)] = old_last[old]
    last[NUM_CELLS] = 0  # no last-moved piece
    # HoneyCombo's (§3.9), from a generator of their own: the Honeycomb light side
    # up by the colour whose turn is double, the second action due, and odd
    # factors for the statuses of a double turn's first action (the earlier
    # ones after it, the pending ones during its second).
    own = np.random.Generator(np.random.PCG64([seed, *b"HoneyCombo"]))
    honeycomb = own.integers(-(2**63), 2**63 - 1, size=2, dtype=np.int64)
    second, earlier, pending = (int(n) | 1 for n in own.integers(-(2**63), 2**63 - 1, size=3, dtype=np.int64))
    # Swarm's (§3.9), likewise: a draw due, and a number per kind of piece (as
    # PIECE_KIND numbers them) for a copy in the other colour's hand and one in
    # the bag, which the hands' key adds up (copies of a bug are alike).
    own = np.random.Generator(np.random.PCG64([seed, *b"Swarm"]))
    draw_due = int(own.integers(-(2**63), 2**63 - 1, dtype=np.int64))
    away = own.integers(-(2**63), 2**63 - 1, size=(2, NUM_KINDS), dtype=np.int64)
    return (piece, level, last, carried, removed, obliged, stings_used, imprisoned, honeycomb, side, placed, frozen,
            second, earlier, pending, draw_due, away)


# Kept as arrays that the State carries, not as globals, because numba would bake
# a big global into every compiled function that reads it.
(ZOBRIST_PIECE, ZOBRIST_LEVEL, ZOBRIST_LAST_MOVED, ZOBRIST_CARRIED, ZOBRIST_REMOVED, ZOBRIST_OBLIGED,
 ZOBRIST_STINGS_USED, ZOBRIST_IMPRISONED, ZOBRIST_HONEYCOMB, ZOBRIST_SIDE, ZOBRIST_PLACED, ZOBRIST_FROZEN,
 ZOBRIST_SECOND, ZOBRIST_EARLIER, ZOBRIST_PENDING, ZOBRIST_DRAW_DUE, ZOBRIST_AWAY) = _zobrist_tables()
