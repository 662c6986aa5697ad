"""Game state as plain numpy arrays, with in-place make/unmake and Zobrist keys.

The state is a namedtuple of arrays (never a jitclass, which numba cannot cache),
built by `new_state` and read and written by the `@njit(cache=True)` kernels here
and in movegen.py. See constants.py for the grid and the move encoding.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from .constants import (
    BLACK_WINS,
    CELL_MASK,
    DIRECTION_DELTA,
    DRAW,
    FLAG_REPETITION_DRAW,
    IN_PROGRESS,
    INFO_EXPANSIONS,
    INFO_FLAGS,
    INFO_KEY,
    INFO_LAST_MOVED,
    INFO_PLY,
    INFO_RESULT,
    INFO_REVERSIBLE_FROM,
    INFO_SIZE,
    MAX_HEIGHT,
    MOVE_PIECE_SHIFT,
    NUM_CELLS,
    NUM_PIECES,
    PASS_MOVE,
    PIECE_KIND,
    PIECES_PER_SIDE,
    UNDO_FROM,
    UNDO_KEY,
    UNDO_LAST_MOVED,
    UNDO_MOVE,
    UNDO_POSITION_KEY,
    UNDO_RESULT,
    UNDO_REVERSIBLE_FROM,
    UNDO_SIZE,
    WHITE_WINS,
    WORK_SIZE,
    ZOBRIST_LAST_MOVED,
    ZOBRIST_PIECE,
    ZOBRIST_SIDE,
)

State = namedtuple(
    "State",
    [
        "height",  # int8[NUM_CELLS]: pieces stacked on each cell
        "stack",  # int8[NUM_CELLS, MAX_HEIGHT]: piece ids, bottom first
        "piece_cell",  # int64[NUM_PIECES]: cell of each piece, -1 in hand
        "piece_level",  # int64[NUM_PIECES]: level in its stack (0 = ground)
        "info",  # int64[INFO_SIZE]: scalars, see INFO_* in constants.py
        "undo",  # int64[capacity, UNDO_SIZE]: one record per ply played
        "zobrist_piece",  # int64[16, NUM_CELLS, MAX_HEIGHT], shared, read-only
        "zobrist_last",  # int64[NUM_CELLS + 1], shared, read-only
        "mark",  # int64[NUM_CELLS]: scratch stamps for cell searches
        "pinned",  # int64[NUM_CELLS]: scratch stamps marking pinned ground cells
        "seen",  # int64[NUM_PIECES * NUM_CELLS]: scratch stamps for move de-duplication
        "work",  # int64[4 * NUM_CELLS]: scratch queues and stacks (layout in movegen.py)
    ],
)

DEFAULT_UNDO_CAPACITY = 1024


def new_state(expansions=0, flags=0, undo_capacity=DEFAULT_UNDO_CAPACITY):
    """An empty board of the game type with the given expansion bits and rule flags."""
    info = np.zeros(INFO_SIZE, dtype=np.int64)
    info[INFO_LAST_MOVED] = -1
    info[INFO_EXPANSIONS] = expansions
    info[INFO_FLAGS] = flags
    return State(
        height=np.zeros(NUM_CELLS, dtype=np.int8),
        stack=np.full((NUM_CELLS, MAX_HEIGHT), -1, dtype=np.int8),
        piece_cell=np.full(NUM_PIECES, -1, dtype=np.int64),
        piece_level=np.zeros(NUM_PIECES, dtype=np.int64),
        info=info,
        undo=np.zeros((undo_capacity, UNDO_SIZE), dtype=np.int64),
        zobrist_piece=ZOBRIST_PIECE,
        zobrist_last=ZOBRIST_LAST_MOVED,
        mark=np.zeros(NUM_CELLS, dtype=np.int64),
        pinned=np.zeros(NUM_CELLS, dtype=np.int64),
        seen=np.zeros(NUM_PIECES * NUM_CELLS, dtype=np.int64),
        work=np.zeros(WORK_SIZE, dtype=np.int64),
    )


def copy_state(state, undo_capacity=None):
    """An independent copy (scratch arrays fresh, Zobrist tables shared)."""
    plies = int(state.info[INFO_PLY])
    capacity = max(undo_capacity or state.undo.shape[0], plies + 1)
    undo = np.zeros((capacity, UNDO_SIZE), dtype=np.int64)
    undo[:plies] = state.undo[:plies]
    return state._replace(
        height=state.height.copy(),
        stack=state.stack.copy(),
        piece_cell=state.piece_cell.copy(),
        piece_level=state.piece_level.copy(),
        info=state.info.copy(),
        undo=undo,
        mark=np.zeros_like(state.mark),
        pinned=np.zeros_like(state.pinned),
        seen=np.zeros_like(state.seen),
        work=np.zeros_like(state.work),
    )


@njit(cache=True, nogil=True)
def move_piece(move):
    return move >> MOVE_PIECE_SHIFT


@njit(cache=True, nogil=True)
def move_dest(move):
    return move & CELL_MASK


@njit(cache=True, nogil=True)
def encode_move(piece, dest):
    return (piece << MOVE_PIECE_SHIFT) | dest


@njit(cache=True, nogil=True)
def side_to_move(s):
    return s.info[INFO_PLY] & 1


@njit(cache=True, nogil=True)
def top_piece(s, cell):
    """Id of the piece on top of `cell`, or -1 if it is empty."""
    h = s.height[cell]
    if h == 0:
        return -1
    return s.stack[cell, h - 1]


@njit(cache=True, nogil=True)
def is_surrounded(s, cell):
    for d in range(6):
        if s.height[(cell + DIRECTION_DELTA[d]) & CELL_MASK] == 0:
            return False
    return True


@njit(cache=True, nogil=True)
def queens_result(s):
    """Result from the queens alone (rules.md, "End of the game")."""
    white_cell = s.piece_cell[0]
    black_cell = s.piece_cell[PIECES_PER_SIDE]
    white_lost = white_cell >= 0 and is_surrounded(s, white_cell)
    black_lost = black_cell >= 0 and is_surrounded(s, black_cell)
    if white_lost and black_lost:
        return DRAW
    if white_lost:
        return BLACK_WINS
    if black_lost:
        return WHITE_WINS
    return IN_PROGRESS


@njit(cache=True, nogil=True)
def _last_moved_cell_index(s, piece):
    if piece < 0:
        return NUM_CELLS
    return s.piece_cell[piece]


@njit(cache=True, nogil=True)
def position_key(s):
    """Key of the current position without its last-moved part: for repetition,
    a position is its pieces and its side to move (rules.md, "Repetition")."""
    return s.info[INFO_KEY] ^ s.zobrist_last[_last_moved_cell_index(s, s.info[INFO_LAST_MOVED])]


@njit(cache=True, nogil=True)
def repetitions(s, most):
    """How many earlier positions, same side to move, have the current pieces,
    counting up to `most`. Only positions since the last placement can: a
    placement adds a piece for good."""
    key = position_key(s)
    count = 0
    for p in range(s.info[INFO_PLY] - 2, s.info[INFO_REVERSIBLE_FROM] - 1, -2):
        if s.undo[p, UNDO_POSITION_KEY] == key:
            count += 1
            if count >= most:
                break
    return count


@njit(cache=True, nogil=True)
def make_move(s, move):
    """Play `move` (assumed legal) in place and push its undo record.

    Writes height, stack, piece_cell, piece_level, info and undo[ply]. The result
    of the game after the move is stored in info[INFO_RESULT].
    """
    info = s.info
    ply = info[INFO_PLY]
    record = s.undo[ply]
    record[UNDO_MOVE] = move
    record[UNDO_LAST_MOVED] = info[INFO_LAST_MOVED]
    record[UNDO_KEY] = info[INFO_KEY]
    record[UNDO_RESULT] = info[INFO_RESULT]
    record[UNDO_REVERSIBLE_FROM] = info[INFO_REVERSIBLE_FROM]
    position = position_key(s)
    record[UNDO_POSITION_KEY] = position
    key = position ^ ZOBRIST_SIDE
    if move == PASS_MOVE:
        record[UNDO_FROM] = -1
        info[INFO_LAST_MOVED] = -1
        key ^= s.zobrist_last[NUM_CELLS]
    else:
        piece = move >> MOVE_PIECE_SHIFT
        dest = move & CELL_MASK
        kind = PIECE_KIND[piece]
        src = s.piece_cell[piece]
        record[UNDO_FROM] = src
        if src < 0:
            info[INFO_REVERSIBLE_FROM] = ply + 1
        else:
            h = s.height[src] - 1
            s.height[src] = h
            s.stack[src, h] = -1
            key ^= s.zobrist_piece[kind, src, h]
        h = s.height[dest]
        s.stack[dest, h] = piece
        s.height[dest] = h + 1
        s.piece_cell[piece] = dest
        s.piece_level[piece] = h
        key ^= s.zobrist_piece[kind, dest, h]
        info[INFO_LAST_MOVED] = piece
        key ^= s.zobrist_last[dest]
    info[INFO_KEY] = key
    info[INFO_PLY] = ply + 1
    result = queens_result(s)
    if result == IN_PROGRESS and (info[INFO_FLAGS] & FLAG_REPETITION_DRAW) != 0:
        if repetitions(s, 2) >= 2:
            result = DRAW
    info[INFO_RESULT] = result


@njit(cache=True, nogil=True)
def unmake_move(s):
    """Take back the last move played with make_move, restoring every array."""
    info = s.info
    ply = info[INFO_PLY] - 1
    record = s.undo[ply]
    move = record[UNDO_MOVE]
    if move != PASS_MOVE:
        piece = move >> MOVE_PIECE_SHIFT
        dest = move & CELL_MASK
        h = s.height[dest] - 1
        s.height[dest] = h
        s.stack[dest, h] = -1
        src = record[UNDO_FROM]
        if src >= 0:
            h = s.height[src]
            s.stack[src, h] = piece
            s.height[src] = h + 1
            s.piece_cell[piece] = src
            s.piece_level[piece] = h
        else:
            s.piece_cell[piece] = -1
            s.piece_level[piece] = 0
    info[INFO_PLY] = ply
    info[INFO_LAST_MOVED] = record[UNDO_LAST_MOVED]
    info[INFO_KEY] = record[UNDO_KEY]
    info[INFO_RESULT] = record[UNDO_RESULT]
    info[INFO_REVERSIBLE_FROM] = record[UNDO_REVERSIBLE_FROM]


@njit(cache=True, nogil=True)
def compute_key(s):
    """The Zobrist key computed from scratch (make_move keeps it incrementally)."""
    key = 0
    if s.info[INFO_PLY] & 1:
        key ^= ZOBRIST_SIDE
    for piece in range(NUM_PIECES):
        cell = s.piece_cell[piece]
        if cell >= 0:
            key ^= s.zobrist_piece[PIECE_KIND[piece], cell, s.piece_level[piece]]
    key ^= s.zobrist_last[_last_moved_cell_index(s, s.info[INFO_LAST_MOVED])]
    return key
