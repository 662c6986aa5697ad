"""The move codec: every move is one non-negative int32 with a kind field.

Low bits first: destination cell (12), piece (7), kind (4: a row of the table
of kinds, kinds.py), a second piece plus one (7; 0 for none), a face (1). Every
module that makes, stores, orders or prints moves goes through the functions
here, never through the raw bits: make/unmake (board.py) dispatch on the kind,
the transposition table and killers store the whole code, tables per move index
by `move_slot`, and Board (game.py) wraps the code in `Move`.

Two moves are the same move exactly when they produce the same state (ID-1), so
the generator never emits two codes for one result: a Pillbug's throw of its own
side's piece is a MOVE of that piece, the state its own move there leaves; a
throw of the opponent's piece freezes it, a THROW.
"""

import numpy as np
from numba import njit

from .bugs import NUM_PIECES
from .hexgrid import CELL_MASK, NUM_CELLS
from .kinds import KIND_FIELDS, KIND_OF_NAME, KINDS, NUM_MOVE_KINDS, NUM_SLOT_GROUPS, PLAYED_KINDS, SLOTS_SWARM

# The kinds' codes, named from the table of kinds (kinds.py). NONE (code 0) is
# "no move" in tables and killer slots.
KIND_NONE = KIND_OF_NAME["none"]
KIND_PASS = KIND_OF_NAME["pass"]
KIND_PLACE = KIND_OF_NAME["place"]
KIND_MOVE = KIND_OF_NAME["move"]
KIND_THROW = KIND_OF_NAME["throw"]
KIND_TRANSPORT = KIND_OF_NAME["transport"]
KIND_FLIP = KIND_OF_NAME["flip"]
KIND_STING = KIND_OF_NAME["sting"]
KIND_SWAP = KIND_OF_NAME["swap"]
KIND_REMOVE = KIND_OF_NAME["remove"]
KIND_CONTROL = KIND_OF_NAME["control"]
KIND_WASP_STING = KIND_OF_NAME["wasp sting"]
KIND_TO_HAND = KIND_OF_NAME["to hand"]
KIND_CHOOSE = KIND_OF_NAME["choose"]
KIND_DRAW = KIND_OF_NAME["draw"]
KIND_STEAL = KIND_OF_NAME["steal"]
# Per kind code: whether make_move plays it (not none), and its identity slot
# group (-1 for none and pass).
KIND_PLAYED = np.array([kind in PLAYED_KINDS for kind in range(NUM_MOVE_KINDS)], dtype=np.bool_)
KIND_SLOTS = np.array([kind.slots for kind in KINDS], dtype=np.int64)
# Which field a kind's slot takes besides the piece: its destination if it has one,
# else its second piece (a swap's or a sting's target), else none; a Swarm choice
# its second and third pieces (in its dest and other fields), as one number.
MOVE_SLOT_GROUP = int(KIND_SLOTS[KIND_MOVE])  # a constant for the kernels: the kind most moves have
KIND_SLOT_BY_PAIR = np.array([kind.slots == SLOTS_SWARM and "other" in kind.fields.split() for kind in KINDS],
                             dtype=np.bool_)
KIND_SLOT_BY_DEST = np.array(["dest" in fields for fields in KIND_FIELDS], dtype=np.bool_) & ~KIND_SLOT_BY_PAIR
KIND_HAS_FACE = np.array(["face" in fields for fields in KIND_FIELDS], dtype=np.bool_)
KIND_SLOT_BY_OTHER = np.array(["dest" not in fields and "other" in fields for fields in KIND_FIELDS], dtype=np.bool_)

DEST_BITS = 12
PIECE_BITS = 7
KIND_BITS = 4
OTHER_BITS = 7
FACE_BITS = 1  # a Venom tile has two faces
PIECE_SHIFT = DEST_BITS
KIND_SHIFT = PIECE_SHIFT + PIECE_BITS
OTHER_SHIFT = KIND_SHIFT + KIND_BITS
FACE_SHIFT = OTHER_SHIFT + OTHER_BITS
MOVE_BITS = FACE_SHIFT + FACE_BITS  # 31: the transposition table stores this many

assert (1 << DEST_BITS) == NUM_CELLS and CELL_MASK == NUM_CELLS - 1, "a destination field holds every cell"
assert NUM_PIECES < (1 << PIECE_BITS) and NUM_PIECES + 1 < (1 << OTHER_BITS), "piece fields hold every piece id"
assert NUM_MOVE_KINDS <= (1 << KIND_BITS), "the kind field holds every kind"
assert MOVE_BITS <= 31, "a move fits a non-negative int32"
assert NUM_PIECES * NUM_PIECES <= NUM_CELLS, "a slot's second field holds a second piece plus one, or two pieces"

NO_MOVE = 0
PASS_MOVE = KIND_PASS << KIND_SHIFT
# Identity slots (move_slot): a group of (piece, destination) per slot group of
# the played kinds.
SLOTS_PER_GROUP = NUM_PIECES * NUM_CELLS
NUM_SLOTS = NUM_SLOT_GROUPS * SLOTS_PER_GROUP


@njit(cache=True, nogil=True)
def encode(kind, piece, dest):
    return (kind << KIND_SHIFT) | (piece << PIECE_SHIFT) | dest


@njit(cache=True, nogil=True)
def encode_full(kind, piece, dest, other, face):
    """A move that also names a second piece (`other`, -1 for none) and a face,
    as the fan pieces' kinds will (fan-rules.md)."""
    return encode(kind, piece, dest) | ((other + 1) << OTHER_SHIFT) | (face << FACE_SHIFT)


@njit(cache=True, nogil=True)
def move_kind(move):
    return (move >> KIND_SHIFT) & ((1 << KIND_BITS) - 1)


@njit(cache=True, nogil=True)
def move_piece(move):
    return (move >> PIECE_SHIFT) & ((1 << PIECE_BITS) - 1)


@njit(cache=True, nogil=True)
def move_dest(move):
    return move & CELL_MASK


@njit(cache=True, nogil=True)
def move_other(move):
    """The second piece a move names (a thrower, a swapped piece), or -1."""
    return ((move >> OTHER_SHIFT) & ((1 << OTHER_BITS) - 1)) - 1


@njit(cache=True, nogil=True)
def move_face(move):
    return (move >> FACE_SHIFT) & ((1 << FACE_BITS) - 1)


# Inlined by numba: LLVM leaves it a call, and add_code (movegen) pays one per
# generated move, about a tenth of official perft's time; inlined, a known kind
# folds the table lookups away.
@njit(cache=True, nogil=True, inline="always")
def move_slot(move):
    """The identity of a move (fan-rules.md ID-1) as a dense index below
    NUM_SLOTS, or -1 for no move and a pass (one per position, needing none):
    its kind's slot group (the next one for a placement showing its back),
    its piece, and its destination (or, for a kind without one, its second
    piece).

    The generator emits one code per resulting state (a throw of one's own piece
    is its move, a carry excludes the plain hop), so two legal moves of one
    position are one move exactly when their slots are equal. De-duplication,
    the history and counter-move tables and the RL actions index by it; the
    transposition table and killers keep whole codes, equal for equal moves."""
    kind = move_kind(move)
    group = KIND_SLOTS[kind]
    if group < 0:
        return -1
    if KIND_HAS_FACE[kind]:
        group += move_face(move)
    if KIND_SLOT_BY_PAIR[kind]:
        second = move_dest(move) * NUM_PIECES + move_other(move)
    else:
        second = move_dest(move) if KIND_SLOT_BY_DEST[kind] else move_other(move) + 1 if KIND_SLOT_BY_OTHER[kind] else 0
    return slot_of(group, move_piece(move), second)


@njit(cache=True, nogil=True, inline="always")
def slot_of(group, piece, second):
    """The slot of a move of `piece` in the slot group `group` whose slot's
    second field is `second` (move_slot)."""
    return group * SLOTS_PER_GROUP + piece * NUM_CELLS + second


@njit(cache=True, nogil=True, inline="always")
def dest_slot(mover, dest):
    """move_slot(mover | dest) for `mover`, a code without its destination of a
    kind whose slot takes its destination and that has no face (a move, a throw,
    a controlled move): the generator's hot path, spared move_slot's questions
    about the kind (a tenth of official perft's time when they were asked)."""
    kind = move_kind(mover)
    group = MOVE_SLOT_GROUP if kind == KIND_MOVE else KIND_SLOTS[kind]
    return slot_of(group, move_piece(mover), dest)


@njit(cache=True, nogil=True)
def find_slot(moves, n, slot):
    """The index of the move of identity `slot` among moves[:n], or -1: one
    call for Python, which would otherwise pay a compiled call per move."""
    for i in range(n):
        if move_slot(moves[i]) == slot:
            return i
    return -1
