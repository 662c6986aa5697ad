"""Game state as one numpy record, with in-place make/unmake and Zobrist keys.

The state is one record (never a jitclass, which numba cannot cache, nor a
namedtuple of arrays: see STATE_FIELDS), built by `new_state` and read and
written by the `@njit(cache=True)` kernels here and in movegen.py. Besides the
stacks it keeps, per cell, the set of occupied neighbours and the sets of
neighbours topped by each colour, so that gates, placements and surrounded
Queens are lookups (hexgrid.py). Moves are decoded
through moves.py, and make/unmake dispatch on their kind.
"""

import numpy as np
from numba import njit

from .bugs import (
    BUG_OF_LETTER,
    COLOURED_PIECES,
    EXPANSION_BIT,
    FAN_BITS,
    HONEYCOMB_ID,
    NUM_PIECES,
    PIECES_PER_SIDE,
    QUEEN_ID,
    ROYAL,
)
from .constants import (
    BLACK_WINS,
    DRAW,
    FLAG_REPETITION_DRAW,
    IN_PROGRESS,
    INFO_EXPANSIONS,
    INFO_FLAGS,
    INFO_KEY,
    INFO_EARLIER_CARRIED,
    INFO_EARLIER_FROZEN,
    INFO_EARLIER_MOVED,
    INFO_FROZEN,
    INFO_HONEYCOMB,
    INFO_INITIAL,
    INFO_LAST_CARRIED,
    INFO_LAST_MOVED,
    INFO_OBLIGED,
    INFO_OBLIGER,
    INFO_PENDING,
    INFO_PHASE,
    INFO_PLACEABLE,
    INFO_PLACED,
    INFO_PLY,
    INFO_RESULT,
    INFO_REVERSIBLE_FROM,
    INFO_SAVED,
    INFO_SIZE,
    INFO_STAMP,
    INFO_STATUSES,
    INFO_STINGS_USED,
    INFO_TURNS,
    INFO_DRAW_DUE,
    INFO_HANDS_KEY,
    INFO_PHASED,
    INFO_PHASED_SIZE,
    INFO_EARLIER_END,
    MAX_HEIGHT,
    MAX_PLIES,
    BUG_BACKS,
    BUG_EXPANSION,
    BUG_FLAGS,
    PIECE_BUG,
    PIECE_COLOR,
    PIECE_KIND,
    PHASE_SECOND,
    PHASE_TURN,
    SWARM_SETUP,
    TOP_COLOR,
    UNDO_AWAY,
    UNDO_PHASED,
    UNDO_FACES,
    UNDO_FREED,
    UNDO_FROM,
    UNDO_INFO,
    UNDO_MOVE,
    UNDO_POSITION_KEY,
    UNDO_SIZE,
    WHITE_WINS,
    WORK_SIZE,
    ZOBRIST_AWAY,
    ZOBRIST_CARRIED,
    ZOBRIST_DRAW_DUE,
    ZOBRIST_EARLIER,
    ZOBRIST_FROZEN,
    ZOBRIST_HONEYCOMB,
    ZOBRIST_IMPRISONED,
    ZOBRIST_LAST_MOVED,
    ZOBRIST_LEVEL,
    ZOBRIST_PIECE,
    ZOBRIST_PLACED,
    ZOBRIST_OBLIGED,
    ZOBRIST_PENDING,
    ZOBRIST_REMOVED,
    ZOBRIST_SECOND,
    ZOBRIST_SIDE,
    ZOBRIST_STINGS_USED,
)
from .hexgrid import NUM_CELLS, NUM_DIRECTIONS, OPPOSITE, ORIGIN, is_surrounded, neighbor, set_occupied
from .moves import (
    KIND_CHOOSE,
    KIND_CONTROL,
    KIND_DRAW,
    KIND_FLIP,
    KIND_MOVE,
    KIND_PASS,
    KIND_PLACE,
    KIND_PLAYED,
    KIND_REMOVE,
    KIND_STEAL,
    KIND_STING,
    KIND_SWAP,
    KIND_THROW,
    KIND_TO_HAND,
    KIND_TRANSPORT,
    KIND_WASP_STING,
    NUM_SLOTS,
    move_dest,
    move_face,
    move_kind,
    move_other,
    move_piece,
)

GUARDIANS = EXPANSION_BIT["Guardians"]
HONEYCOMBO = EXPANSION_BIT["HoneyCombo"]
SWARM = EXPANSION_BIT["Swarm"]
PHASED = HONEYCOMBO | SWARM  # the game types with turn phases, whose area make/unmake save
S004_MANTIS = EXPANSION_BIT["Nx"]
MANTIS = BUG_OF_LETTER["Nx"]

# The whole state of one board, scratch space included, is one numpy record: the
# kernels take it as one argument and read its fields as arrays (`s.height[cell]`).
# A namedtuple of arrays would cost an atomic reference count per field on every
# kernel call, which measured 10-40x slower than the work itself.
STATE_FIELDS = (
    ("height", np.int8, (NUM_CELLS,)),  # pieces stacked on each cell
    ("stack", np.int8, (NUM_CELLS, MAX_HEIGHT)),  # piece ids, bottom first
    ("piece_cell", np.int64, (NUM_PIECES,)),  # cell of each piece, -1 off the board (`away` says where)
    ("piece_level", np.int64, (NUM_PIECES,)),  # level in its stack (0 = ground)
    # Room for Fan pieces II and III, all 0 until their kinds are played: the face
    # a Venom tile shows (0 front), and where a piece off the board is (AWAY_*).
    ("face", np.int8, (NUM_PIECES,)),
    ("away", np.int8, (NUM_PIECES,)),
    ("around", np.uint8, (NUM_CELLS,)),  # bit d set when the neighbour in direction d is occupied
    ("tops", np.uint8, (2, NUM_CELLS)),  # bit d set when that neighbour's top piece is of the colour
    ("info", np.int64, (INFO_SIZE,)),  # scalars, laid out by INFO_* in constants.py
    ("undo", np.int64, (MAX_PLIES, UNDO_SIZE)),  # one record per ply played, UNDO_* in constants.py
    ("zobrist_piece", np.int64, ZOBRIST_PIECE.shape),  # read-only
    ("zobrist_last", np.int64, ZOBRIST_LAST_MOVED.shape),  # read-only
    ("zobrist_carried", np.int64, ZOBRIST_CARRIED.shape),  # read-only
    ("mark", np.int64, (NUM_CELLS,)),  # scratch stamps for cell searches
    ("pinned", np.int64, (NUM_CELLS,)),  # scratch stamps marking pinned ground cells
    ("cut_disc", np.int64, (NUM_CELLS,)),  # scratch: discovery times of the articulation pass
    ("seen", np.int32, (NUM_SLOTS,)),  # scratch stamps for move de-duplication, by moves.move_slot
    ("work", np.int64, (WORK_SIZE,)),  # scratch queues and stacks, WORK_* in constants.py
)
# Where a piece that is not on the board is (State.away; fan-rules.md §3.1, 1).
AWAY_HAND = 0  # in its owner's hand
AWAY_OTHER_HAND = 1  # in the other player's hand (Swarm, SW-2)
AWAY_BAG = 2  # in Swarm's bag (SW-1)
AWAY_REMOVED = 3  # removed from the game (Predators, §7)
AWAY_PRISON = 4  # in a Mantis's prison (§9.5): AWAY_PRISON + the Mantis's id
STATE_DTYPE = np.dtype([(name, dtype, shape) for name, dtype, shape in STATE_FIELDS], align=True)


def _record():
    return np.zeros(1, dtype=STATE_DTYPE).view(np.recarray)[0]


def new_state(expansions=0, flags=0):
    """An empty board of the game type with the given expansion bits and rule flags."""
    s = _record()
    s.info[:] = INFO_INITIAL
    s.info[INFO_EXPANSIONS] = expansions
    s.info[INFO_FLAGS] = flags
    s.stack[:] = -1
    s.piece_cell[:] = -1
    s.zobrist_piece[:] = ZOBRIST_PIECE
    s.zobrist_last[:] = ZOBRIST_LAST_MOVED
    s.zobrist_carried[:] = ZOBRIST_CARRIED
    if expansions & HONEYCOMBO:  # HC-1: the Honeycomb lies on the origin from the start
        put_piece(s, HONEYCOMB_ID, ORIGIN)
        s.info[INFO_KEY] = piece_key(s, HONEYCOMB_ID, ORIGIN, 0)
    if expansions & SWARM:  # SW-1: every piece but the Queens is in the bag until the choices
        for piece in range(COLOURED_PIECES):
            bug = PIECE_BUG[piece]
            in_game = BUG_EXPANSION[bug] == 0 or expansions & BUG_EXPANSION[bug]
            if in_game and not BUG_FLAGS[bug] & ROYAL:
                s.away[piece] = AWAY_BAG
        s.info[INFO_HANDS_KEY] = hands_key(s)
        s.info[INFO_KEY] ^= s.info[INFO_HANDS_KEY]
    return s


def copy_state(state):
    """An independent copy of a state."""
    array = np.empty(1, dtype=STATE_DTYPE).view(np.recarray)
    array[0] = state
    return array[0]


# What a copy of the position needs and what it does not: the Zobrist tables are
# the same in every state, and the scratch arrays are read only against stamps
# newer than anything in them (movegen.new_stamp), so a record's scratch serves
# any position. copy_position copies the other fields, POSITION_FIELDS; a field
# added to the state belongs to one of the three (tests/test_board.py checks).
TABLE_FIELDS = ("zobrist_piece", "zobrist_last", "zobrist_carried")
SCRATCH_FIELDS = ("mark", "pinned", "cut_disc", "seen", "work")
POSITION_FIELDS = tuple(name for name, _, _ in STATE_FIELDS if name not in TABLE_FIELDS + SCRATCH_FIELDS)


@njit(cache=True, nogil=True)
def copy_position(dst, src):
    """Make the state `dst` hold the position of `src`, its undo records up to
    the ply included, keeping dst's tables and scratch: a copy that moves some
    20 KB instead of the whole record. dst's stamp counter stays ahead of every
    stamp in its own scratch."""
    dst.height[:] = src.height
    dst.stack[:] = src.stack
    dst.piece_cell[:] = src.piece_cell
    dst.piece_level[:] = src.piece_level
    dst.face[:] = src.face
    dst.away[:] = src.away
    dst.around[:] = src.around
    dst.tops[:] = src.tops
    stamp = max(dst.info[INFO_STAMP], src.info[INFO_STAMP])
    dst.info[:] = src.info
    dst.info[INFO_STAMP] = stamp
    plies = src.info[INFO_PLY]
    dst.undo[:plies] = src.undo[:plies]


@njit(cache=True, nogil=True)
def side_to_move(s):
    """The side to act: 0 White, 1 Black (TU-2; in a double turn both of its
    entries are one side's)."""
    return s.info[INFO_TURNS] & 1


@njit(cache=True, nogil=True)
def turns_past_setup(s):
    """The turns both sides have completed that TU-2 counts: all of INFO_TURNS but
    Swarm's two `choose` entries (negative while they are due)."""
    if s.info[INFO_EXPANSIONS] & SWARM:
        return s.info[INFO_TURNS] - SWARM_SETUP
    return s.info[INFO_TURNS]


@njit(cache=True, nogil=True)
def turn_number(s, side):
    """`side`'s turn number now, or on its next turn if the other side is to
    act: 1 + the turns it has completed (TU-2; 1 during Swarm's setup)."""
    turns = turns_past_setup(s)
    return max(1, (turns + ((side - turns) & 1)) // 2 + 1)


@njit(cache=True, nogil=True)
def top_piece(s, cell):
    """Id of the piece on top of `cell`, or -1 if it is empty."""
    h = s.height[cell]
    if h == 0:
        return -1
    return s.stack[cell, h - 1]


@njit(cache=True, nogil=True)
def face_bug(s, piece):
    """The bug of the face `piece` shows (fan-rules.md VN-1: a tile in play is,
    for every rule, the bug of its face); its table row's bug off Venom."""
    bug = PIECE_BUG[piece]
    return BUG_BACKS[bug] if s.face[piece] else bug


@njit(cache=True, nogil=True)
def queen_captured(s, color):
    """Whether `color`'s Queen is in play and surrounded (rules.md, "End of the
    game"), and with the Guardians also covered (fan-rules.md GU-1)."""
    queen = QUEEN_ID[color]
    cell = s.piece_cell[queen]
    if cell < 0 or not is_surrounded(s.around, cell):
        return False
    return (s.info[INFO_EXPANSIONS] & GUARDIANS) == 0 or s.piece_level[queen] != s.height[cell] - 1


@njit(cache=True, nogil=True)
def queens_result(s):
    """Result from the queens alone (rules.md, "End of the game"): a Queen tile
    removed from the game loses at once (fan-rules.md §3.8), else a captured one."""
    for color in range(2):
        if s.away[QUEEN_ID[color]] == AWAY_REMOVED:
            return WHITE_WINS if color == 1 else BLACK_WINS
    white_lost = queen_captured(s, 0)
    black_lost = queen_captured(s, 1)
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
def _acted_key(s, at):
    """The key of one action's `Last` and `Frozen`, laid out in info[at:] as from
    INFO_LAST_MOVED (the mover, the piece carried, the piece frozen): the cells
    of the pieces in `Last`, each the top of its cell or the one under it (a
    Dragonfly's cargo); `Frozen` is one of them, the only one an action that
    freezes has."""
    info = s.info
    part = s.zobrist_last[_last_moved_cell_index(s, info[at])]
    carried = info[at + INFO_LAST_CARRIED - INFO_LAST_MOVED]
    if carried >= 0:
        part ^= s.zobrist_carried[s.piece_cell[carried]]
    if info[at + INFO_FROZEN - INFO_LAST_MOVED] >= 0:
        part ^= ZOBRIST_FROZEN
    return part


@njit(cache=True, nogil=True)
def _statuses_key(s, at):
    """The key of one action's statuses, laid out in info[at:] as from
    INFO_LAST_MOVED: `Last` and `Frozen` (_acted_key), `Placed`, `Oblig`."""
    info = s.info
    part = _acted_key(s, at)
    if info[at + INFO_PLACED - INFO_LAST_MOVED] >= 0:
        part ^= ZOBRIST_PLACED
    obliged = info[at + INFO_OBLIGED - INFO_LAST_MOVED]
    if obliged >= 0:
        part ^= ZOBRIST_OBLIGED[obliged]
    return part


@njit(cache=True, nogil=True)
def status_key(s):
    """The part of the key that the statuses make (§3.2): the previous turn's,
    and in a HoneyCombo double turn those of its first action (ST-2), the
    second action being due and the statuses its first action made so far."""
    part = _statuses_key(s, INFO_LAST_MOVED)
    if s.info[INFO_EXPANSIONS] & HONEYCOMBO == 0:
        return part
    part ^= _acted_key(s, INFO_EARLIER_MOVED) * ZOBRIST_EARLIER
    if s.info[INFO_PHASE] == PHASE_SECOND:
        part ^= ZOBRIST_SECOND ^ _statuses_key(s, INFO_PENDING) * ZOBRIST_PENDING
    return part


@njit(cache=True, nogil=True)
def position_key(s):
    """Key of the current position as repetition compares it: in the official
    game its pieces and side to move (rules.md, "Repetition"), with fan pieces the
    whole state, statuses included (fan-rules.md §3.9)."""
    if s.info[INFO_EXPANSIONS] & FAN_BITS:
        return s.info[INFO_KEY]
    return s.info[INFO_KEY] ^ status_key(s)


@njit(cache=True, nogil=True)
def piece_key(s, piece, cell, level):
    """Zobrist part of `piece` standing on `cell` at `level`, by the face it shows."""
    return s.zobrist_piece[PIECE_KIND[piece, s.face[piece]], cell] * ZOBRIST_LEVEL[level]


@njit(cache=True, nogil=True)
def repetitions(s, most):
    """How many earlier positions, same side to move, have the current pieces,
    counting up to `most`. Only positions since the last placement can: a
    placement adds a piece for good."""
    key = position_key(s)
    count = 0
    # The same side moves two plies back, but for HoneyCombo's double turns and
    # Swarm's draws, whose keys hold the side and the phase.
    step = 1 if s.info[INFO_EXPANSIONS] & PHASED else 2
    for p in range(s.info[INFO_PLY] - step, s.info[INFO_REVERSIBLE_FROM] - 1, -step):
        if s.undo[p, UNDO_POSITION_KEY] == key:
            count += 1
            if count >= most:
                break
    return count


# --- Pieces on and off a cell ----------------------------------------------------
@njit(cache=True, nogil=True)
def _count_placeable(s, cell, sign):
    """Add `sign` to the count of the colour that may place on `cell`, if one may:
    an empty cell touching that colour's top pieces and none of the other's."""
    if s.height[cell] == 0:
        white = s.tops[0, cell] != 0
        black = s.tops[1, cell] != 0
        if white != black:
            s.info[INFO_PLACEABLE + (1 if black else 0)] += sign


@njit(cache=True, nogil=True)
def _set_top_color(s, cell, old, new):
    """Keep `tops`, and the counts of cells each colour may place on, true when
    the colour on top of `cell` changes from `old` to `new` (-1: empty). A
    neighbour's placeability changes only when one of its sets empties or fills."""
    if old == new:
        return
    for d in range(NUM_DIRECTIONS):
        n = neighbor(cell, d)
        bit = 1 << OPPOSITE[d]
        flips = (old >= 0 and s.tops[old, n] == bit) or (new >= 0 and s.tops[new, n] == 0)
        if flips:
            _count_placeable(s, n, -1)
        if old >= 0:
            s.tops[old, n] &= ~bit
        if new >= 0:
            s.tops[new, n] |= bit
        if flips:
            _count_placeable(s, n, 1)


@njit(cache=True, nogil=True)
def _push_piece(s, piece, cell):
    """Put `piece` on top of `cell`; returns its Zobrist part."""
    h = s.height[cell]
    if h == 0:
        _count_placeable(s, cell, -1)  # occupied from now on
        set_occupied(s.around, cell, True)
        _set_top_color(s, cell, -1, TOP_COLOR[piece])
    else:
        _set_top_color(s, cell, TOP_COLOR[s.stack[cell, h - 1]], TOP_COLOR[piece])
    s.stack[cell, h] = piece
    s.height[cell] = h + 1
    s.piece_cell[piece] = cell
    s.piece_level[piece] = h
    return piece_key(s, piece, cell, h)


@njit(cache=True, nogil=True)
def _pop_piece(s, cell):
    """Take the top piece off `cell`, leaving it unplaced in the piece arrays to
    the caller; returns its Zobrist part."""
    h = s.height[cell] - 1
    piece = s.stack[cell, h]
    s.stack[cell, h] = -1
    s.height[cell] = h
    if h == 0:
        set_occupied(s.around, cell, False)
        _set_top_color(s, cell, TOP_COLOR[piece], -1)
        _count_placeable(s, cell, 1)  # empty again
    else:
        _set_top_color(s, cell, TOP_COLOR[piece], TOP_COLOR[s.stack[cell, h - 1]])
    return piece_key(s, piece, cell, h)


@njit(cache=True, nogil=True)
def put_piece(s, piece, cell):
    """Put a piece from hand on top of `cell`, outside any move (building a
    position directly: Board.from_stacks); the caller sets the key."""
    s.away[piece] = AWAY_HAND  # a piece on the board goes back to its owner's hand (SW-5)
    _push_piece(s, piece, cell)


# --- Swarm's hands and bag (§11) ------------------------------------------------------
@njit(cache=True, nogil=True)
def _away_part(piece, away):
    """The hands' key's number for `piece` kept `away` (AWAY_*): none in its
    owner's hand, the number of its kind in the other hand or the bag."""
    if away == AWAY_OTHER_HAND:
        return ZOBRIST_AWAY[0, PIECE_KIND[piece, 0]]
    if away == AWAY_BAG:
        return ZOBRIST_AWAY[1, PIECE_KIND[piece, 0]]
    return 0


@njit(cache=True, nogil=True)
def hands_key(s):
    """Swarm's part of the key (§3.9): the sum of the numbers of the pieces off
    the board (a sum, not an exclusive or, so that two copies in one place count
    and copies of one bug are alike whichever is where); 0 in other game types."""
    total = 0
    for piece in range(COLOURED_PIECES):
        if s.piece_cell[piece] < 0:
            total += _away_part(piece, s.away[piece])
    return total


@njit(cache=True, nogil=True)
def _relocate(s, piece, away):
    """Keep `piece`, off the board or coming onto it, `away` (a hand or the bag);
    returns the key's change (the hands' part is a sum, kept in info)."""
    old = s.info[INFO_HANDS_KEY]
    new = old - _away_part(piece, s.away[piece]) + _away_part(piece, away)
    s.away[piece] = away
    s.info[INFO_HANDS_KEY] = new
    return old ^ new


@njit(cache=True, nogil=True)
def bag_holds_any(s):
    """Whether Swarm's bag still holds a piece (SW-3: then a draw follows a placement)."""
    for piece in range(COLOURED_PIECES):
        if s.away[piece] == AWAY_BAG:
            return True
    return False


@njit(cache=True, nogil=True)
def in_hand_of(s, piece, side):
    """Whether `piece` is in `side`'s hand: off the board, and its owner's, or in
    Swarm the other colour's piece it holds (SW-2)."""
    if s.piece_cell[piece] >= 0:
        return False
    return s.away[piece] == (AWAY_HAND if PIECE_COLOR[piece] == side else AWAY_OTHER_HAND)


@njit(cache=True, nogil=True)
def _apply_choose(s, move, record):
    """SW-1: the three pieces named leave the bag for their owner's hand, which
    already holds the Queen. Irreversible, as every entry that empties the bag."""
    record[UNDO_FROM] = -1
    s.info[INFO_REVERSIBLE_FROM] = s.info[INFO_PLY] + 1
    key = 0
    for piece in (move_piece(move), move_dest(move), move_other(move)):
        key ^= _relocate(s, piece, AWAY_HAND)
    return key


@njit(cache=True, nogil=True)
def _apply_steal(s, move, record):
    """SW-4: the piece leaves the opponent's hand for the side to move's; a whole
    turn with no statuses. Reversible: it may be stolen back."""
    piece = move_piece(move)
    record[UNDO_FROM] = -1
    return _relocate(s, piece, AWAY_OTHER_HAND if s.away[piece] == AWAY_HAND else AWAY_HAND)


@njit(cache=True, nogil=True)
def _apply_draw(s, move, ply):
    """SW-3: after a placement the piece drawn goes to the placer's hand, which
    ends the action; the statuses the placement made stay. In a double turn the
    second action is due then (its first action's record says what the
    opponent's turn left)."""
    info = s.info
    side = side_to_move(s)
    piece = move_piece(move)
    s.undo[ply, UNDO_FROM] = -1
    key = info[INFO_KEY] ^ ZOBRIST_DRAW_DUE
    key ^= _relocate(s, piece, AWAY_HAND if PIECE_COLOR[piece] == side else AWAY_OTHER_HAND)
    info[INFO_DRAW_DUE] = 0
    info[INFO_REVERSIBLE_FROM] = ply + 1
    info[INFO_PLY] = ply + 1
    if info[INFO_EXPANSIONS] & HONEYCOMBO and info[INFO_HONEYCOMB] == side:
        # _double_turn's key holds the action's statuses only.
        info[INFO_KEY] = key ^ status_key(s) ^ _statuses_key(s, INFO_LAST_MOVED)
        _double_turn(s, s.undo[ply - 1], False)
    else:
        info[INFO_KEY] = key ^ ZOBRIST_SIDE
        info[INFO_TURNS] += 1


# --- Make and unmake ---------------------------------------------------------------
# One kernel per played kind of move (kinds.py) applies it and returns the key's
# change; its partner takes it back from the undo record. make_move and
# unmake_move dispatch on the kind and refuse any other loudly: a kind the table
# does not play yet never falls into another kind's kernel.
@njit(cache=True, nogil=True)
def _arrive(s, piece, dest):
    """The end of every move that brings `piece` onto `dest`: it is `Last`."""
    s.info[INFO_LAST_MOVED] = piece
    return _push_piece(s, piece, dest) ^ s.zobrist_last[dest]


@njit(cache=True, nogil=True)
def _apply_place(s, move, record):
    piece = move_piece(move)
    record[UNDO_FROM] = -1
    key = 0
    if s.info[INFO_EXPANSIONS] & S004_MANTIS == 0:
        s.info[INFO_REVERSIBLE_FROM] = s.info[INFO_PLY] + 1
    elif PIECE_BUG[piece] == MANTIS:  # NX-3: its prison empties into the owners' hands
        key = _free_prisoners(s, piece, record)
    if s.info[INFO_EXPANSIONS] & SWARM:  # from either hand; on the board it is its owner's (SW-5)
        record[UNDO_AWAY] = s.away[piece]
        key ^= _relocate(s, piece, AWAY_HAND)
    s.face[piece] = move_face(move)
    s.info[INFO_PLACED] = piece
    return key ^ ZOBRIST_PLACED ^ _arrive(s, piece, move_dest(move))


@njit(cache=True, nogil=True)
def _free_prisoners(s, mantis, record):
    """The S004 Mantis `mantis` comes back into play: the enemy pieces in its
    prison go to their owner's hand (NX-3), kept in the undo record; returns the
    key's change. (With it a placed piece can come back to hand, and a position
    before a placement recur: repetition looks back to the start.)"""
    base = (1 - PIECE_COLOR[mantis]) * PIECES_PER_SIDE
    freed = 0
    key = 0
    for i in range(PIECES_PER_SIDE):
        if s.away[base + i] == AWAY_PRISON + mantis:
            s.away[base + i] = AWAY_HAND
            key ^= ZOBRIST_IMPRISONED[base + i]
            freed |= 1 << i
    record[UNDO_FREED] = freed
    return key


@njit(cache=True, nogil=True)
def _apply_move(s, move, record):
    piece = move_piece(move)
    src = s.piece_cell[piece]
    record[UNDO_FROM] = src
    return _pop_piece(s, src) ^ _arrive(s, piece, move_dest(move))


@njit(cache=True, nogil=True)
def _apply_throw(s, move, record):
    """A move of the opponent's piece, which stays Frozen for its owner's turn."""
    s.info[INFO_FROZEN] = move_piece(move)
    return ZOBRIST_FROZEN ^ _apply_move(s, move, record)


@njit(cache=True, nogil=True)
def _apply_transport(s, move, record):
    """The Dragonfly and the piece under it, the cargo landing first (fan-rules.md
    DX-3); Frozen after when an enemy S004 Firefly commanded it (the face bit)."""
    piece = move_piece(move)
    cargo = move_other(move)
    src = s.piece_cell[piece]
    record[UNDO_FROM] = src
    key = _pop_piece(s, src) ^ _pop_piece(s, src) ^ _push_piece(s, cargo, move_dest(move))
    s.info[INFO_LAST_CARRIED] = cargo
    if move_face(move):  # commanded by an enemy S004 Firefly (FX-2)
        s.info[INFO_FROZEN] = piece
        key ^= ZOBRIST_FROZEN
    return key ^ s.zobrist_carried[move_dest(move)] ^ _arrive(s, piece, move_dest(move))


@njit(cache=True, nogil=True)
def _turn_over(s, piece):
    """Turn the tile `piece` over where it stands; returns the key's change."""
    cell = s.piece_cell[piece]
    level = s.piece_level[piece]
    key = piece_key(s, piece, cell, level)
    s.face[piece] ^= 1
    return key ^ piece_key(s, piece, cell, level)


@njit(cache=True, nogil=True)
def _apply_flip(s, move, record):
    """The owner turns its tile over: it is `Last` (fan-rules.md VN-3, §3.2).
    The Honeycomb turns light side up for the side to move, whose next turn is
    double (HC-4); it is `Last` and Prime."""
    piece = move_piece(move)
    record[UNDO_FROM] = move_dest(move)
    s.info[INFO_LAST_MOVED] = piece
    if piece == HONEYCOMB_ID:
        side = side_to_move(s)
        s.info[INFO_HONEYCOMB] = side
        return ZOBRIST_HONEYCOMB[side] ^ s.zobrist_last[move_dest(move)]
    return _turn_over(s, piece) ^ s.zobrist_last[move_dest(move)]


@njit(cache=True, nogil=True)
def _apply_sting(s, move, record):
    """The stung tile `piece` turns over, `Last` and Frozen for its owner's
    turn (W-2)."""
    victim = move_piece(move)
    record[UNDO_FROM] = -1
    s.info[INFO_LAST_MOVED] = victim
    s.info[INFO_FROZEN] = victim
    return _turn_over(s, victim) ^ s.zobrist_last[move_dest(move)] ^ ZOBRIST_FROZEN


@njit(cache=True, nogil=True)
def _apply_swap(s, move, record):
    """A Centipede and the piece `other` on `dest` change places, both `Last`,
    neither Frozen (C-3)."""
    piece = move_piece(move)
    target = move_other(move)
    src = s.piece_cell[piece]
    dest = move_dest(move)
    record[UNDO_FROM] = src
    key = _pop_piece(s, src) ^ _pop_piece(s, dest) ^ _push_piece(s, target, src)
    s.info[INFO_LAST_CARRIED] = target
    return key ^ s.zobrist_carried[src] ^ _arrive(s, piece, dest)


@njit(cache=True, nogil=True)
def _apply_remove(s, move, record):
    """A Predator (or a Mosquito copying one) and its prey `other` on `dest`
    leave the game for good; no statuses follow (§7, §3.2). Irreversible, as a
    placement is."""
    piece = move_piece(move)
    prey = move_other(move)
    src = s.piece_cell[piece]
    record[UNDO_FROM] = src
    s.info[INFO_REVERSIBLE_FROM] = s.info[INFO_PLY] + 1
    key = _pop_piece(s, move_dest(move)) ^ _pop_piece(s, src)
    for gone in (piece, prey):
        s.piece_cell[gone] = -1
        s.piece_level[gone] = 0
        s.away[gone] = AWAY_REMOVED
        key ^= ZOBRIST_REMOVED[gone]
    return key


@njit(cache=True, nogil=True)
def _apply_wasp_sting(s, move, record):
    """The S004 Wasp `piece` obliges `other` to move away on its owner's turn
    (WX-3): `Oblig`, and no other status; nothing moves."""
    record[UNDO_FROM] = -1
    s.info[INFO_OBLIGED] = move_other(move)
    s.info[INFO_OBLIGER] = move_piece(move)
    return ZOBRIST_OBLIGED[move_other(move)]


@njit(cache=True, nogil=True)
def _apply_to_hand(s, move, record):
    """`other`, the top of `dest`, leaves the board; no statuses. A Queen sends
    it back to its owner's hand and has used her sting (WX-5; irreversible: the
    sting is spent). An S004 Mantis (or a Mosquito copying one) goes to its
    owner's hand with it, and it to its owner's hand, or into that Mantis's
    prison if it is an enemy piece but the Queen (NX-2, NX-5)."""
    actor = move_piece(move)
    target = move_other(move)
    color = PIECE_COLOR[actor]
    key = _pop_piece(s, move_dest(move))
    s.piece_cell[target] = -1
    s.piece_level[target] = 0
    record[UNDO_FACES] = s.face[actor] | (s.face[target] << 1)
    s.face[target] = 0  # in hand a tile shows no face (§4.1)
    if BUG_FLAGS[PIECE_BUG[actor]] & ROYAL:
        record[UNDO_FROM] = -1
        s.info[INFO_REVERSIBLE_FROM] = s.info[INFO_PLY] + 1
        s.info[INFO_STINGS_USED] |= 1 << color
        return key ^ ZOBRIST_STINGS_USED[color]
    src = s.piece_cell[actor]
    record[UNDO_FROM] = src
    key ^= _pop_piece(s, src)
    s.piece_cell[actor] = -1
    s.piece_level[actor] = 0
    s.face[actor] = 0
    jailed = PIECE_BUG[actor] == MANTIS and PIECE_COLOR[target] != color and not BUG_FLAGS[PIECE_BUG[target]] & ROYAL
    if jailed:
        s.away[target] = AWAY_PRISON + actor
        key ^= ZOBRIST_IMPRISONED[target]
    return key


@njit(cache=True, nogil=True)
def _undo_to_hand(s, move, record):
    target = move_other(move)
    s.away[target] = AWAY_HAND
    s.face[move_piece(move)] = record[UNDO_FACES] & 1
    s.face[target] = record[UNDO_FACES] >> 1
    if record[UNDO_FROM] >= 0:
        _push_piece(s, move_piece(move), record[UNDO_FROM])
    _push_piece(s, target, move_dest(move))


@njit(cache=True, nogil=True)
def _undo_place(s, move, record):
    piece = move_piece(move)
    _pop_piece(s, move_dest(move))
    s.piece_cell[piece] = -1
    s.piece_level[piece] = 0
    s.face[piece] = 0
    if s.info[INFO_EXPANSIONS] & SWARM:
        s.away[piece] = record[UNDO_AWAY]
    if PIECE_BUG[piece] == MANTIS and s.info[INFO_EXPANSIONS] & S004_MANTIS:
        base = (1 - PIECE_COLOR[piece]) * PIECES_PER_SIDE
        for i in range(PIECES_PER_SIDE):
            if (record[UNDO_FREED] >> i) & 1:
                s.away[base + i] = AWAY_PRISON + piece


@njit(cache=True, nogil=True)
def _undo_move(s, move, record):
    _pop_piece(s, move_dest(move))
    _push_piece(s, move_piece(move), record[UNDO_FROM])


@njit(cache=True, nogil=True)
def _undo_transport(s, move, record):
    dest = move_dest(move)
    _pop_piece(s, dest)
    _pop_piece(s, dest)
    _push_piece(s, move_other(move), record[UNDO_FROM])
    _push_piece(s, move_piece(move), record[UNDO_FROM])


@njit(cache=True, nogil=True)
def _undo_swap(s, move, record):
    src = record[UNDO_FROM]
    dest = move_dest(move)
    _pop_piece(s, dest)
    _pop_piece(s, src)
    _push_piece(s, move_other(move), dest)
    _push_piece(s, move_piece(move), src)


@njit(cache=True, nogil=True)
def _undo_remove(s, move, record):
    for gone in (move_piece(move), move_other(move)):
        s.away[gone] = AWAY_HAND
    _push_piece(s, move_piece(move), record[UNDO_FROM])
    _push_piece(s, move_other(move), move_dest(move))


@njit(cache=True, nogil=True)
def _double_turn(s, record, spent):
    """After an entry of a HoneyCombo double turn (HC-4, HC-5, ST-2). After the
    first action (unless it passed, `spent`, or ended the game) the second is
    due: the first's statuses wait in INFO_PENDING and the opponent's previous
    turn's apply again (its obligation bound the first action only). After the
    second the turn's statuses are both actions' (pieces no longer in play
    dropped): `Prime` the second's if it has one, `Placed` the last placement,
    `Oblig` the last sting's [our reading]; the Honeycomb turns dark and the
    other side is to move."""
    info = s.info
    # The key holds this action's statuses only: make_move took out the rest.
    key = info[INFO_KEY] ^ _statuses_key(s, INFO_LAST_MOVED)
    pending = INFO_PENDING - INFO_LAST_MOVED
    if info[INFO_PHASE] != PHASE_SECOND and not spent:
        for i in range(INFO_STATUSES):
            info[pending + i] = info[i]
            info[i] = _in_play_or_none(s, record[UNDO_INFO + i])
        for i in range(INFO_EARLIER_MOVED, INFO_EARLIER_END):
            info[i] = _in_play_or_none(s, record[UNDO_PHASED + i - INFO_PHASED])
        info[INFO_OBLIGED] = info[INFO_OBLIGER] = -1
        info[INFO_PHASE] = PHASE_SECOND
        info[INFO_KEY] = key ^ status_key(s)
        return
    if info[INFO_PHASE] == PHASE_SECOND:
        moved = _in_play_or_none(s, info[pending + INFO_LAST_MOVED])
        carried = _in_play_or_none(s, info[pending + INFO_LAST_CARRIED])
        frozen = _in_play_or_none(s, info[pending + INFO_FROZEN])
        if info[INFO_LAST_MOVED] < 0:
            info[INFO_LAST_MOVED], info[INFO_LAST_CARRIED], info[INFO_FROZEN] = moved, carried, frozen
        else:
            info[INFO_EARLIER_MOVED], info[INFO_EARLIER_CARRIED], info[INFO_EARLIER_FROZEN] = moved, carried, frozen
        if info[INFO_PLACED] < 0:
            info[INFO_PLACED] = _in_play_or_none(s, info[pending + INFO_PLACED])
        if info[INFO_OBLIGED] < 0:
            info[INFO_OBLIGED] = info[pending + INFO_OBLIGED]
            info[INFO_OBLIGER] = info[pending + INFO_OBLIGER]
        for i in range(INFO_STATUSES):
            info[pending + i] = -1
        info[INFO_PHASE] = PHASE_TURN
    key ^= ZOBRIST_HONEYCOMB[info[INFO_HONEYCOMB]]
    info[INFO_HONEYCOMB] = -1
    info[INFO_TURNS] += 1
    info[INFO_KEY] = key ^ status_key(s) ^ ZOBRIST_SIDE


@njit(cache=True, nogil=True)
def _in_play_or_none(s, piece):
    return piece if piece >= 0 and s.piece_cell[piece] >= 0 else -1


@njit(cache=True, nogil=True)
def make_move(s, move):
    """Play `move` (assumed legal) in place and push its undo record.

    Dispatches on the move's kind; a kind without kernels raises ValueError
    with the state untouched. The result of the game after the move is stored
    in info[INFO_RESULT]."""
    kind = move_kind(move)
    if not KIND_PLAYED[kind]:
        raise ValueError("make_move: hexbee does not play this kind of move (engine/rules/kinds.py)")
    info = s.info
    ply = info[INFO_PLY]
    record = s.undo[ply]
    record[UNDO_MOVE] = move
    record[UNDO_POSITION_KEY] = position_key(s)
    for i in range(INFO_SAVED):
        record[UNDO_INFO + i] = info[i]
    if info[INFO_EXPANSIONS] & PHASED:
        for i in range(INFO_PHASED_SIZE):
            record[UNDO_PHASED + i] = info[INFO_PHASED + i]
        if kind == KIND_DRAW:  # Swarm: it ends the placement's action, whose statuses stay
            _apply_draw(s, move, ply)
            return
    key = info[INFO_KEY] ^ status_key(s)
    for i in range(INFO_STATUSES):
        info[i] = -1
    double = False  # an entry of a HoneyCombo double turn (HC-4)
    if info[INFO_EXPANSIONS] & HONEYCOMBO:
        for i in range(INFO_EARLIER_MOVED, INFO_EARLIER_END):
            info[i] = -1
        double = info[INFO_HONEYCOMB] == side_to_move(s)
    if kind == KIND_PASS:
        record[UNDO_FROM] = -1
    elif kind == KIND_PLACE:
        key ^= _apply_place(s, move, record)
    elif kind == KIND_MOVE or kind == KIND_CONTROL:  # a controlled move freezes nothing (T4)
        key ^= _apply_move(s, move, record)
    elif kind == KIND_THROW:
        key ^= _apply_throw(s, move, record)
    elif kind == KIND_TRANSPORT:
        key ^= _apply_transport(s, move, record)
    elif kind == KIND_FLIP:
        key ^= _apply_flip(s, move, record)
    elif kind == KIND_STING:
        key ^= _apply_sting(s, move, record)
    elif kind == KIND_SWAP:
        key ^= _apply_swap(s, move, record)
    elif kind == KIND_REMOVE:
        key ^= _apply_remove(s, move, record)
    elif kind == KIND_WASP_STING:
        key ^= _apply_wasp_sting(s, move, record)
    elif kind == KIND_TO_HAND:
        key ^= _apply_to_hand(s, move, record)
    elif kind == KIND_CHOOSE:
        key ^= _apply_choose(s, move, record)
    elif kind == KIND_STEAL:
        key ^= _apply_steal(s, move, record)
    else:
        raise ValueError("make_move: a kind the table plays has no kernel in board.py")
    info[INFO_PLY] = ply + 1
    result = queens_result(s)
    if kind == KIND_PLACE and info[INFO_EXPANSIONS] & SWARM and result == IN_PROGRESS and bag_holds_any(s):
        # SW-3: a draw is due, the side's action goes on (the phase's status parts stay in the key).
        info[INFO_DRAW_DUE] = 1
        info[INFO_KEY] = key ^ ZOBRIST_DRAW_DUE ^ status_key(s) ^ _statuses_key(s, INFO_LAST_MOVED)
        info[INFO_RESULT] = result
        return
    if not double:
        info[INFO_KEY] = key ^ ZOBRIST_SIDE
        info[INFO_TURNS] += 1
    else:
        info[INFO_KEY] = key
        _double_turn(s, record, kind == KIND_PASS or result != IN_PROGRESS)
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
    kind = move_kind(move)
    if kind == KIND_PLACE:
        _undo_place(s, move, record)
    elif kind == KIND_MOVE or kind == KIND_THROW or kind == KIND_CONTROL:
        _undo_move(s, move, record)
    elif kind == KIND_TRANSPORT:
        _undo_transport(s, move, record)
    elif kind == KIND_FLIP or kind == KIND_STING:
        if move_piece(move) != HONEYCOMB_ID:  # the Honeycomb's side is in info
            s.face[move_piece(move)] ^= 1
    elif kind == KIND_SWAP:
        _undo_swap(s, move, record)
    elif kind == KIND_REMOVE:
        _undo_remove(s, move, record)
    elif kind == KIND_TO_HAND:
        _undo_to_hand(s, move, record)
    elif kind == KIND_DRAW:
        s.away[move_piece(move)] = AWAY_BAG
    elif kind == KIND_CHOOSE:
        for piece in (move_piece(move), move_dest(move), move_other(move)):
            s.away[piece] = AWAY_BAG
    elif kind == KIND_STEAL:
        s.away[move_piece(move)] ^= AWAY_HAND ^ AWAY_OTHER_HAND
    elif kind != KIND_PASS and kind != KIND_WASP_STING:
        raise ValueError("unmake_move: the last record holds a kind without a kernel in board.py")
    info[INFO_PLY] = ply
    for i in range(INFO_SAVED):
        info[i] = record[UNDO_INFO + i]
    if info[INFO_EXPANSIONS] & PHASED:
        for i in range(INFO_PHASED_SIZE):
            info[INFO_PHASED + i] = record[UNDO_PHASED + i]


@njit(cache=True, nogil=True)
def compute_key(s):
    """The Zobrist key computed from scratch (make_move keeps it incrementally)."""
    key = 0
    if side_to_move(s):
        key ^= ZOBRIST_SIDE
    for piece in range(NUM_PIECES):
        cell = s.piece_cell[piece]
        if cell >= 0:
            key ^= piece_key(s, piece, cell, s.piece_level[piece])
        elif s.away[piece] == AWAY_REMOVED:
            key ^= ZOBRIST_REMOVED[piece]
        elif s.away[piece] >= AWAY_PRISON:
            key ^= ZOBRIST_IMPRISONED[piece]
    for color in range(2):
        if s.info[INFO_STINGS_USED] >> color & 1:
            key ^= ZOBRIST_STINGS_USED[color]
    if s.info[INFO_HONEYCOMB] >= 0:
        key ^= ZOBRIST_HONEYCOMB[s.info[INFO_HONEYCOMB]]
    if s.info[INFO_DRAW_DUE]:
        key ^= ZOBRIST_DRAW_DUE
    return key ^ status_key(s) ^ hands_key(s)
