"""The move codec: every move is one non-negative int32 with a kind field.

Low bits first: destination cell (10), piece (7), kind (4), a second piece plus
one (7; 0 for none), a face (2). Every module that makes, stores, orders or prints
moves goes through the functions here, never through the raw bits: make/unmake
(board.py) dispatch on the kind, the transposition table stores the whole code,
history tables use `history_index`, and Board (game.py) wraps the code in `Move`.

Two moves are the same move exactly when they produce the same state, so the
generator never emits two codes for one result. A Pillbug's throw of a piece is a
MOVE of that piece: it leaves the same state as the piece moving there itself.
"""

from numba import njit

from .bugs import NUM_PIECES
from .hexgrid import CELL_MASK, NUM_CELLS

# Kinds. NONE (code 0) is "no move" in tables and killer slots.
KIND_NONE = 0
KIND_PASS = 1
KIND_PLACE = 2  # a piece from hand onto the destination
KIND_MOVE = 3  # a piece in play onto the top of the destination (itself or thrown)
# Reserved for the fan pieces (fan-rules.md): moves with side effects or a second piece.
KIND_THROW = 4
KIND_FLIP = 5
KIND_SWAP = 6
KIND_REMOVE = 7
KIND_CONTROL = 8
KIND_TRANSPORT = 9
KIND_COMPOUND = 10
KIND_NAMES = ("none", "pass", "place", "move", "throw", "flip", "swap", "remove", "control", "transport", "compound")

DEST_BITS = 10
PIECE_BITS = 7
KIND_BITS = 4
OTHER_BITS = 7
FACE_BITS = 2
PIECE_SHIFT = DEST_BITS
KIND_SHIFT = PIECE_SHIFT + PIECE_BITS
OTHER_SHIFT = KIND_SHIFT + KIND_BITS
FACE_SHIFT = OTHER_SHIFT + OTHER_BITS
MOVE_BITS = FACE_SHIFT + FACE_BITS  # 30: the transposition table stores this many

assert (1 << DEST_BITS) == NUM_CELLS and CELL_MASK == NUM_CELLS - 1, "a destination field holds every cell"
assert NUM_PIECES < (1 << PIECE_BITS) and NUM_PIECES + 1 < (1 << OTHER_BITS), "piece fields hold every piece id"
assert len(KIND_NAMES) <= (1 << KIND_BITS), "the kind field holds every kind"
assert MOVE_BITS <= 31, "a move fits a non-negative int32"

NO_MOVE = 0
PASS_MOVE = KIND_PASS << KIND_SHIFT
HISTORY_SIZE = NUM_PIECES * NUM_CELLS  # entries of a (piece, destination) table


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


@njit(cache=True, nogil=True)
def history_index(move):
    """Slot of a piece-and-destination move in a table of HISTORY_SIZE entries;
    -1 for a pass or no move."""
    kind = move_kind(move)
    if kind == KIND_NONE or kind == KIND_PASS:
        return -1
    return move_piece(move) * NUM_CELLS + move_dest(move)
