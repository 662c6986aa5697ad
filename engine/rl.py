"""For reinforcement learning and search experiments: integer actions, legal
masks, observation tensors, and a State whose clone and apply cost microseconds.

Board checks every move and names it; State, in OpenSpiel's shape, does neither
unless asked, and keeps no strings. Its kernels are compiled with `nogil`, so
threads run them in parallel (see `playouts` and the README).

Actions and observations see a WINDOW x WINDOW (32 x 32) window of the grid,
centred on the hive: axial (dq, dr) from the middle of the hive's bounding box
is window cell (dq + 16) + 32 * (dr + 16). A hive of the official game (28
pieces) always fits; a fan hive stretched wider than 31 cells has moves and
pieces outside the window, which the actions and planes do not hold.

Actions. One integer per distinct move: its identity slot (moves.move_slot)
counted in window cells: `(group * NUM_PIECES + piece) * WINDOW_CELLS + cell`
for `piece` (an id of engine.rules.bugs.PIECE_NAMES) and the kind's slot group
(kinds.py): 0 placing, moving or throwing it to `cell` (or an S004 Firefly's
command of it there) or flipping it there, 1 placing it showing its back
(Venom) or, for a Dragonfly, its carry there under an enemy Firefly's command,
2 it stung on `cell` (whoever stings it), 3 its swap with the piece on `cell`, 4
its removal of the piece on `cell` (Predators), its sending that piece back to
hand (a Queen, WX-5), its sting of it (an S004 Wasp, WX-3) or its taking it off
the board with itself (an S004 Mantis, NX-2), 5 its move to
`cell` under a Tick's control (Venom, §6.7); 6 Swarm's entries (§11), which go
to no cell: its draw or steal at window part 0, a choice of it with two more
pieces of its colour at part `second * PIECES_PER_SIDE + third` (counted from
their colour's first id); and PASS_ACTION. Since the cell is counted from the centre of the hive, the same
move in a shifted hive is the same action. Slots are
identities (ID-1): two actions never give the same position, and a throw of
one's own piece is that piece's move. A Sperling's Dragonfly's carry
(KIND_TRANSPORT, fan-rules.md DX-3) is the Dragonfly's action to its destination:
carrying is compulsory when legal, so a hop from on top to empty ground either
carries or not, never both, and the action is that one move (which one the move
generator says, when the action is decoded).

Observation. float32 planes of OBSERVATION_SHAPE over the window, centred as
the actions are (plane[y, x] is the window cell x + 32 * y): for each level of a
stack from the ground up and each kind of piece (colour, then bug), 1 where
that kind stands at that level, so the order of a stack is kept; then for each
kind a constant plane of its pieces in hand over its copies; for each bug, 1 if
the game type has it; 1 everywhere when Black is to move; 1 on the cell of the
piece moved last (which the Pillbug may not throw); 1 on the cell of the piece
Frozen for this turn (thrown or stung on the last one, fan-rules.md §3.2); 1 on
the cell of the piece an S004 Wasp obliged to move away, and on that Wasp's
(§9.6 `Oblig`); for each colour, 1 everywhere once its Queen has stung (WX-5);
for each kind a constant plane of its pieces in an S004 Mantis's prison over its
copies (§9.5); for each colour, 1 everywhere while its turn (now or next) is a
HoneyCombo double turn, and 1 everywhere while its second action is due (§10);
for each kind a constant plane of its pieces in the other colour's hand over its
copies, one of its pieces in the bag over its copies, and 1 everywhere while a
draw is due (Swarm, §11). A
Venom tile is the kind of the face it shows, the neutral Honeycomb White's kind
of its bug (no White piece is one); a piece removed from the game or
sent back to hand is in no plane (but the hand's).
Chance nodes. In Swarm a draw after a placement is the bag's: while one is
due, current_player() is CHANCE_PLAYER (-1, as OpenSpiel's), is_chance_node()
is true, legal_actions() are the draws and chance_outcomes() their odds (a
colour and bug by its copies in the bag); playouts draw by those odds.

Not in it: the turn number beyond what the hands tell, the history (repetitions),
and a Dragonfly's cargo of the last turn.

>>> state = State("Base+MLP")
>>> state.legal_actions().tolist() == sorted(state.move_to_action(m) for m in Board("Base+MLP").legal_moves)
True
>>> child = state.clone()
>>> child.apply_action(int(child.legal_actions()[0]))
>>> child.ply, state.ply, str(child)
(1, 0, 'Base+MLP;InProgress;Black[1];wS1')
>>> child.observation_tensor().shape == OBSERVATION_SHAPE
True
"""

import threading

import numpy as np
from numba import njit, typeof

from .rules.board import (
    AWAY_BAG,
    AWAY_HAND,
    AWAY_OTHER_HAND,
    AWAY_PRISON,
    copy_position,
    in_hand_of,
    make_move,
    new_state,
    side_to_move,
    unmake_move,
)
from .rules.bugs import CLIMBERS, NUM_BUGS, NUM_PIECES, PIECES_PER_SIDE, PLACE_ON_TOP
from .rules.constants import (
    BLACK_WINS,
    BUG_COPIES,
    BUG_EXPANSION,
    BUG_FIRST_IDS,
    BUG_PLACEMENT,
    INFO_EXPANSIONS,
    INFO_FLAGS,
    INFO_KEY,
    INFO_FROZEN,
    INFO_LAST_MOVED,
    INFO_OBLIGED,
    INFO_OBLIGER,
    INFO_PLY,
    INFO_TURNS,
    INFO_EARLIER_FROZEN,
    INFO_EARLIER_MOVED,
    INFO_HONEYCOMB,
    INFO_PHASE,
    PHASE_SECOND,
    INFO_STINGS_USED,
    INFO_DRAW_DUE,
    INFO_RESULT,
    IN_PROGRESS,
    MAX_GAME_PLIES,
    MAX_HEIGHT,
    MAX_MOVES,
    NUM_KINDS,
    PIECE_BUG,
    PIECE_COLOR,
    PIECE_KIND,
    WHITE_WINS,
    WORK_HIVE,
)
from .game import Board, Move
from .rules.hexgrid import CELL_MASK, DIRECTION_DELTA, DIRECTION_DQ_DR, GRID_SIZE, NUM_CELLS, ORIGIN, unfold
from .rules.kinds import SLOTS_SWARM
from .rules.moves import (
    KIND_CHOOSE,
    KIND_MOVE,
    KIND_PASS,
    KIND_PLACE,
    KIND_THROW,
    NO_MOVE,
    NUM_SLOTS,
    PASS_MOVE,
    encode,
    encode_full,
    move_dest,
    move_kind,
    move_other,
    move_piece,
    move_slot,
)
from .rules.movegen import bag_copies, bug_enabled, generate_moves, new_stamp

__all__ = [
    "State",
    "NUM_ACTIONS",
    "PASS_ACTION",
    "OBSERVATION_SHAPE",
    "WINDOW",
    "LEVELS",
    "NUM_KINDS",
    "CHANCE_PLAYER",
    "playouts",
]

WINDOW = 32
WINDOW_CELLS = WINDOW * WINDOW
PASS_ACTION = NUM_SLOTS // NUM_CELLS * WINDOW_CELLS
NUM_ACTIONS = PASS_ACTION + 1
LEVELS = 1 + CLIMBERS  # the ground and a level for each piece that may climb
PLANE_HAND = LEVELS * NUM_KINDS
PLANE_ENABLED = PLANE_HAND + NUM_KINDS
PLANE_BLACK = PLANE_ENABLED + NUM_BUGS
PLANE_LAST = PLANE_BLACK + 1
PLANE_FROZEN = PLANE_LAST + 1
PLANE_OBLIGED = PLANE_FROZEN + 1  # the piece an S004 Wasp stung, then that Wasp (§9.6)
PLANE_STINGS_USED = PLANE_OBLIGED + 2  # White's Queen has stung, Black's (WX-5)
PLANE_PRISON = PLANE_STINGS_USED + 2  # per kind, its pieces in an S004 Mantis's prison over its copies (§9.5)
PLANE_DOUBLE_TURN = PLANE_PRISON + NUM_KINDS  # White's turn is double, Black's (the Honeycomb light side up, §10)
PLANE_SECOND_ACTION = PLANE_DOUBLE_TURN + 2  # the second action of a double turn is due (HC-4)
PLANE_OTHER_HAND = PLANE_SECOND_ACTION + 1  # per kind, its pieces in the other colour's hand over its copies (§11)
PLANE_BAG = PLANE_OTHER_HAND + NUM_KINDS  # per kind, its pieces in Swarm's bag over its copies
PLANE_DRAW_DUE = PLANE_BAG + NUM_KINDS  # a draw is due: a chance node
NUM_PLANES = PLANE_DRAW_DUE + 1
OBSERVATION_SHAPE = (NUM_PLANES, WINDOW, WINDOW)

# Swarm's entries (slot group SLOTS_SWARM) go to no cell: the window part of their
# action is 0 for a draw or a steal, and for a choice its second and third pieces
# counted from their colour's first.
SWARM_ACTIONS = SLOTS_SWARM * NUM_PIECES * WINDOW_CELLS  # the first
assert PIECES_PER_SIDE * PIECES_PER_SIDE <= WINDOW_CELLS, "a choice's two further pieces fit its window part"
CHANCE_PLAYER = -1  # current_player() while a draw is due, as OpenSpiel's chance player

# Status codes of the kernels that play an action.
_OK, _ILLEGAL, _OVER, _TOO_LONG, _OUT_OF_RANGE = range(5)
# Axial steps of the directions, for walking the hive out of the folded grid.
DQ = np.array([dq for dq, _ in DIRECTION_DQ_DR], dtype=np.int64)
DR = np.array([dr for _, dr in DIRECTION_DQ_DR], dtype=np.int64)


# --- Kernels --------------------------------------------------------------------
@njit(cache=True, nogil=True)
def hive_centre(s):
    """The cell at the middle of the hive's bounding box, in axial coordinates
    walked out from one piece (the fold of the grid never brings two cells of
    one hive together, constants.py); the origin for an empty board."""
    start = -1
    for piece in range(NUM_PIECES):
        if s.piece_cell[piece] >= 0:
            start = s.piece_cell[piece]
            break
    if start < 0:
        return ORIGIN
    queue = s.work[WORK_HIVE : WORK_HIVE + NUM_PIECES]  # the occupied cells, found breadth first
    qs = s.work[WORK_HIVE + NUM_PIECES : WORK_HIVE + 2 * NUM_PIECES]
    rs = s.work[WORK_HIVE + 2 * NUM_PIECES : WORK_HIVE + 3 * NUM_PIECES]
    visit = new_stamp(s)
    s.mark[start] = visit
    queue[0], qs[0], rs[0] = start, 0, 0
    found = 1
    head = 0
    low_q, high_q, low_r, high_r = 0, 0, 0, 0
    while head < found:
        cell = queue[head]
        for d in range(6):
            n = (cell + DIRECTION_DELTA[d]) & CELL_MASK
            if s.height[n] == 0 or s.mark[n] == visit:
                continue
            s.mark[n] = visit
            q = qs[head] + DQ[d]
            r = rs[head] + DR[d]
            queue[found], qs[found], rs[found] = n, q, r
            found += 1
            low_q, high_q = min(low_q, q), max(high_q, q)
            low_r, high_r = min(low_r, r), max(high_r, r)
        head += 1
    return (start + (low_q + high_q) // 2 + GRID_SIZE * ((low_r + high_r) // 2)) & CELL_MASK



@njit(cache=True, nogil=True)
def window_cell(cell, centre):
    """The window cell of a grid cell when the hive's centre is `centre`, or -1
    outside the window."""
    dq, dr = unfold((cell - centre) & CELL_MASK)
    half = WINDOW // 2
    if dq < -half or dq >= half or dr < -half or dr >= half:
        return -1
    return (dq + half) + WINDOW * (dr + half)


@njit(cache=True, nogil=True)
def grid_cell(window, centre):
    """The grid cell of a window cell (window_cell's inverse)."""
    half = WINDOW // 2
    return (centre + window % WINDOW - half + GRID_SIZE * (window // WINDOW - half)) & CELL_MASK


@njit(cache=True, nogil=True)
def _action(move, centre):
    """The action of a move with the hive's centre at `centre`: its identity
    slot with the destination counted in the window; -1 for a kind the action
    space does not hold or a destination outside the window."""
    if move_kind(move) == KIND_PASS:
        return PASS_ACTION
    slot = move_slot(move)
    if slot < 0:
        return -1
    if slot // NUM_CELLS >= SLOTS_SWARM * NUM_PIECES:
        return _swarm_action(move)
    window = window_cell(move_dest(move), centre)
    if window < 0:
        return -1
    return slot // NUM_CELLS * WINDOW_CELLS + window


@njit(cache=True, nogil=True)
def _swarm_action(move):
    """The action of a Swarm entry: its piece's index in the group, and for a
    choice its other two pieces in the window part."""
    piece = move_piece(move)
    part = 0
    if move_kind(move) == KIND_CHOOSE:  # its pieces are of one colour
        base = PIECE_COLOR[piece] * PIECES_PER_SIDE
        part = (move_dest(move) - base) * PIECES_PER_SIDE + move_other(move) - base
    return SWARM_ACTIONS + piece * WINDOW_CELLS + part


@njit(cache=True, nogil=True)
def move_of(a, action, moves):
    s = a[0]
    return _move(s, action, hive_centre(s), moves)


@njit(cache=True, nogil=True)
def action_of(a, move):
    return _action(move, hive_centre(a[0]))


@njit(cache=True, nogil=True)
def push_kernel(a, move):
    make_move(a[0], move)


@njit(cache=True, nogil=True)
def pop_kernel(a):
    unmake_move(a[0])


@njit(cache=True, nogil=True)
def _move(s, action, centre, moves):
    """The move of an action. `moves` is scratch for the move generator."""
    if action == PASS_ACTION:
        return PASS_MOVE
    if action >= SWARM_ACTIONS:  # a Swarm entry: the legal one of that action, if any
        n = generate_moves(s, moves)
        for i in range(n):
            if _action(moves[i], centre) == action:
                return moves[i]
        return NO_MOVE
    # Every other slot is of a group, a piece and a cell
    # (moves.move_slot): the legal move of that slot, found by the move generator
    # (a hop from on top is a carry or not, the tile's own cell a flip).
    index = action // WINDOW_CELLS
    group, piece = index // NUM_PIECES, index % NUM_PIECES
    cell = grid_cell(action % WINDOW_CELLS, centre)
    slot = index * NUM_CELLS + cell
    n = generate_moves(s, moves)
    for i in range(n):
        if move_slot(moves[i]) == slot:
            return moves[i]
    # Not legal: the plain move of the slot, which the caller refuses; the other
    # groups' moves name a second piece, which no legal move gives here.
    if group > 1:
        return NO_MOVE
    if s.piece_cell[piece] < 0:
        return encode_full(KIND_PLACE, piece, cell, -1, group)
    if PIECE_COLOR[piece] != side_to_move(s):
        return encode(KIND_THROW, piece, cell)
    return encode(KIND_MOVE, piece, cell)


# The kernels called from Python take the state as a one-element array, `a`, not
# as the record: numba reads a record argument through the buffer protocol, which
# for this dtype costs some 5 us a call, an array's a tenth of a microsecond.
@njit(cache=True, nogil=True)
def centre_of(a):
    return hive_centre(a[0])


@njit(cache=True, nogil=True)
def clone_into(dst, src):
    copy_position(dst[0], src[0])


@njit(cache=True, nogil=True)
def _legal_actions(s, moves):
    """The legal actions written over the legal moves in `moves`; returns their
    count, or -1 if a move has a kind the action space does not hold."""
    n = generate_moves(s, moves)
    centre = hive_centre(s)
    for i in range(n):
        action = _action(moves[i], centre)
        if action < 0:
            return -1
        moves[i] = action
    return n


@njit(cache=True, nogil=True)
def legal_actions_into(a, moves, out):
    """The legal actions, sorted, written into `out`; returns their count (-1 as
    _legal_actions). `moves` is scratch."""
    n = _legal_actions(a[0], moves)
    out[: max(n, 0)] = moves[: max(n, 0)]
    out[: max(n, 0)].sort()
    return n


@njit(cache=True, nogil=True)
def legal_mask_into(a, moves, mask):
    """mask[action] = whether the action is legal; returns the number of legal
    actions (-1 as _legal_actions). `moves` is scratch."""
    mask[:] = False
    n = _legal_actions(a[0], moves)
    for i in range(n):
        mask[moves[i]] = True
    return n


@njit(cache=True, nogil=True)
def apply_action_kernel(a, action, moves, checked):
    """Play an action; with `checked`, only if it is legal. Returns a status."""
    s = a[0]
    if action < 0 or action >= NUM_ACTIONS:
        return _OUT_OF_RANGE
    if s.info[INFO_RESULT] != IN_PROGRESS:
        return _OVER
    if s.info[INFO_PLY] >= MAX_GAME_PLIES:
        return _TOO_LONG
    move = _move(s, action, hive_centre(s), moves)
    if checked:
        n = generate_moves(s, moves)
        legal = False
        for i in range(n):
            if moves[i] == move:
                legal = True
                break
        if not legal:
            return _ILLEGAL
    elif move == NO_MOVE:
        return _ILLEGAL
    elif move_kind(move) == KIND_PLACE:
        # What keeps an unchecked action from breaking the state: a piece of the game
        # type in hand (not removed) is placed by its own side onto an empty cell (a Guardian onto a stack
        # with room, GU-2), and a move (a throw moves the enemy's piece) ends on a
        # stack with room.
        piece, height = move_piece(move), s.height[move_dest(move)]
        on_top = BUG_PLACEMENT[PIECE_BUG[piece]] == PLACE_ON_TOP
        if (not in_hand_of(s, piece, side_to_move(s)) or not bug_enabled(s, PIECE_BUG[piece])
                or (height > 0) != on_top or height >= MAX_HEIGHT - 1):
            return _ILLEGAL
    elif (move_kind(move) == KIND_MOVE or move_kind(move) == KIND_THROW) and s.height[move_dest(move)] >= MAX_HEIGHT - 1:
        return _ILLEGAL
    make_move(s, move)
    return _OK


@njit(cache=True, nogil=True)
def child_kernel(dst, src, action, moves):
    """Copy the position of `src` into `dst` and play a legal action there: a
    clone and an apply in one call. Returns a status."""
    copy_position(dst[0], src[0])
    return apply_action_kernel(dst, action, moves, True)


@njit(cache=True, nogil=True)
def observation_into(a, out):
    """Write the observation planes (see the module's docstring) into `out`."""
    s = a[0]
    out[:] = 0.0
    centre = hive_centre(s)
    for piece in range(NUM_PIECES):
        cell = s.piece_cell[piece]
        if cell < 0:
            continue
        at = window_cell(cell, centre)
        if at >= 0:
            out[s.piece_level[piece] * NUM_KINDS + PIECE_KIND[piece, s.face[piece]], at // WINDOW, at % WINDOW] = 1.0
    for color in range(2):
        for bug in range(NUM_BUGS):
            enabled = BUG_EXPANSION[bug] == 0 or (s.info[INFO_EXPANSIONS] & BUG_EXPANSION[bug]) != 0
            if not enabled:
                continue
            out[PLANE_ENABLED + bug] = 1.0
            if BUG_COPIES[bug] == 0:  # a Venom face: its pieces are in hand as the tiles' fronts
                continue
            first = color * PIECES_PER_SIDE + BUG_FIRST_IDS[bug]
            in_hand = jailed = held = bagged = 0  # by its owner, in a prison, by the other colour, in the bag
            for piece in range(first, first + BUG_COPIES[bug]):
                away = s.away[piece]
                if s.piece_cell[piece] < 0 and away == AWAY_HAND:
                    in_hand += 1
                elif away >= AWAY_PRISON:
                    jailed += 1
                elif away == AWAY_OTHER_HAND:
                    held += 1
                elif away == AWAY_BAG:
                    bagged += 1
            kind = color * NUM_BUGS + bug
            out[PLANE_HAND + kind] = in_hand / BUG_COPIES[bug]
            for plane, count in ((PLANE_PRISON, jailed), (PLANE_OTHER_HAND, held), (PLANE_BAG, bagged)):
                if count:
                    out[plane + kind] = count / BUG_COPIES[bug]
    if side_to_move(s):
        out[PLANE_BLACK] = 1.0
    for plane, info in ((PLANE_LAST, INFO_LAST_MOVED), (PLANE_LAST, INFO_EARLIER_MOVED), (PLANE_FROZEN, INFO_FROZEN),
                        (PLANE_FROZEN, INFO_EARLIER_FROZEN), (PLANE_OBLIGED, INFO_OBLIGED),
                        (PLANE_OBLIGED + 1, INFO_OBLIGER)):
        piece = s.info[info]
        if piece >= 0 and s.piece_cell[piece] >= 0:
            at = window_cell(s.piece_cell[piece], centre)
            if at >= 0:
                out[plane, at // WINDOW, at % WINDOW] = 1.0
    for color in range(2):
        if (s.info[INFO_STINGS_USED] >> color) & 1:
            out[PLANE_STINGS_USED + color] = 1.0
    if s.info[INFO_HONEYCOMB] >= 0:
        out[PLANE_DOUBLE_TURN + s.info[INFO_HONEYCOMB]] = 1.0
    if s.info[INFO_PHASE] == PHASE_SECOND:
        out[PLANE_SECOND_ACTION] = 1.0
    if s.info[INFO_DRAW_DUE]:
        out[PLANE_DRAW_DUE] = 1.0


@njit(cache=True, nogil=True)
def chance_outcomes_into(a, moves, actions, weights):
    """While a draw is due, each draw's action and the copies the bag holds of
    its colour and bug (its weight, SW-3); returns their count, 0 elsewhere."""
    s = a[0]
    if not s.info[INFO_DRAW_DUE]:
        return 0
    n = generate_moves(s, moves)
    for i in range(n):
        actions[i] = _swarm_action(moves[i])
        weights[i] = bag_copies(s, move_piece(moves[i]))
    return n


@njit(cache=True, nogil=True)
def _random_entry(s, moves, n, r):
    """A uniformly random legal move by `r`, but for a draw: a piece of the bag
    at random, so that a bug is drawn by its copies (SW-3)."""
    if not s.info[INFO_DRAW_DUE]:
        return moves[r % np.uint64(n)]
    total = 0
    for i in range(n):
        total += bag_copies(s, move_piece(moves[i]))
    pick = np.int64(r % np.uint64(total))
    for i in range(n):
        pick -= bag_copies(s, move_piece(moves[i]))
        if pick < 0:
            return moves[i]
    return moves[n - 1]


@njit(cache=True, nogil=True)
def _next_random(x):
    """splitmix64: the next state and a 64-bit output."""
    x = (x + np.uint64(0x9E3779B97F4A7C15)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    z = x
    z = ((z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    z = ((z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    return x, z ^ (z >> np.uint64(31))


@njit(cache=True, nogil=True)
def playouts_kernel(a, moves, count, seed, max_plies, results):
    """`count` games of uniformly random moves from the position, each to its end
    or to `max_plies` plies in all; results[i] is the i-th game's result code
    (IN_PROGRESS when cut off). The position is restored after each game.
    Returns the plies played in all."""
    s = a[0]
    x = np.uint64(seed)
    total = 0
    start = s.info[INFO_PLY]
    limit = min(max_plies, MAX_GAME_PLIES)
    for game in range(count):
        while s.info[INFO_RESULT] == IN_PROGRESS and s.info[INFO_PLY] < limit:
            n = generate_moves(s, moves)
            x, r = _next_random(x)
            make_move(s, _random_entry(s, moves, n, r))
        results[game] = s.info[INFO_RESULT]
        total += s.info[INFO_PLY] - start
        while s.info[INFO_PLY] > start:
            unmake_move(s)
    return total


# --- Calling the kernels --------------------------------------------------------
class _Direct:
    """The compiled functions of the kernels a State calls, called without numba's
    dispatch: finding the types of a structured array's arguments costs numba some
    2 us a call, more than a clone. Each is taken from its dispatcher after a
    first call with the argument types a State always passes (the state's array,
    this thread's int32 move buffer, Python ints), so it must only be given those;
    arrays from a caller go through the dispatcher, which checks them."""

    def __init__(self):
        a, moves = _record()[0], _moves()
        self.clone_into = _entry_point(clone_into, a, a)
        self.child = _entry_point(child_kernel, a, a, 0, moves)
        self.apply = _entry_point(apply_action_kernel, a, 0, moves, True)
        self.actions = _entry_point(legal_actions_into, a, moves, np.empty(MAX_MOVES, dtype=np.int64))


def _entry_point(kernel, *args):
    kernel(*args)
    return kernel.overloads[tuple(typeof(arg) for arg in args)].entry_point


_direct = None


def _kernels():
    global _direct
    if _direct is None:
        _direct = _Direct()
    return _direct


# --- Records: drawn from a free list, so that a clone allocates nothing --------
_FREE = []  # records of States that are gone (list.append and pop are atomic)
_FREE_LIMIT = 32  # records of 6.5 MB each (half of it the move-slot scratch, `seen`)
_local = threading.local()


def _moves():
    """This thread's move buffer, scratch space of the kernels."""
    buffer = getattr(_local, "moves", None)
    if buffer is None:
        buffer = _local.moves = np.empty(MAX_MOVES, dtype=np.int32)
    return buffer


def _record():
    """(a state as a one-element array, a view of its info field): one a State
    left behind, or a new one."""
    try:
        return _FREE.pop()
    except IndexError:
        array = _array(new_state())
        return array, array["info"][0]


def _array(state):
    """The one-element array that holds a state record (a Board's, new_state's)."""
    return state.base.view(np.ndarray)


_ERRORS = {
    _ILLEGAL: "action {} is not legal here",
    _OVER: "the game is over",
    _TOO_LONG: f"a game may last at most {MAX_GAME_PLIES} plies",
    _OUT_OF_RANGE: f"an action is an int from 0 to {NUM_ACTIONS - 1}, not {{}}",
}


class State:
    """A position for search and learning, in OpenSpiel's shape: `clone`,
    `apply_action`, `child`, `legal_actions`, `legal_actions_mask`, `observation_tensor`,
    `is_terminal`, `returns`, `current_player`.

    apply_action checks legality in compiled code; apply_unchecked and push
    skip that (an illegal action there leaves a state the rules never reach).
    clone copies the position into a record freed by an earlier State, so that
    clone + apply allocates nothing once a few States have come and gone. A
    State is not shared between threads while one of them changes it; each
    thread may use its own."""

    __slots__ = ("_a", "_info", "__weakref__")

    def __init__(self, game_type="Base+MLP", *, queen_first=False, repetition_draw=False):
        board = Board(game_type, queen_first=queen_first, repetition_draw=repetition_draw)
        self._take(_record())
        clone_into(self._a, _array(board.state))

    def _take(self, record):
        self._a, self._info = record  # the view, for reading the scalars from Python

    @classmethod
    def from_board(cls, board):
        """The position (and history) of a Board."""
        if not isinstance(board, Board):
            raise TypeError(f"from_board() takes a Board, not {type(board).__name__}")
        state = cls.__new__(cls)
        state._take(_record())
        clone_into(state._a, _array(board.state))
        return state

    def to_board(self):
        """A Board that has played this State's moves, each checked and named."""
        s = self._a[0]
        board = Board(int(s.info[INFO_EXPANSIONS]))
        board._info[INFO_FLAGS] = s.info[INFO_FLAGS]  # the rules options
        for ply in range(int(s.info[INFO_PLY])):
            board.push(Move(int(s.undo[ply, 0])))
        return board

    def clone(self):
        state = State.__new__(State)
        state._a, state._info = record = _record()
        (_direct or _kernels()).clone_into(record[0], self._a)
        return state

    def child(self, action):
        """A new State: this one with a legal action played (clone and
        apply_action in one compiled call); ValueError for an illegal action."""
        if not isinstance(action, (int, np.integer)) or isinstance(action, bool):
            raise TypeError(f"an action is an int, not {type(action).__name__}")
        state = State.__new__(State)
        state._a, state._info = record = _record()
        status = (_direct or _kernels()).child(record[0], self._a, int(action), _moves())
        if status != _OK:
            raise ValueError(_ERRORS[status].format(action))
        return state

    copy = clone

    def __del__(self):
        try:
            if len(_FREE) < _FREE_LIMIT:
                _FREE.append((self._a, self._info))
        except (AttributeError, TypeError):  # interpreter shutdown, or a failed __init__
            pass

    # --- The position -------------------------------------------------------------
    @property
    def ply(self):
        return int(self._info[INFO_PLY])

    @property
    def key(self):
        """The Zobrist key, as Board.key."""
        return int(self._info[INFO_KEY])

    def current_player(self):
        """The side to move, 0 (White) or 1 (Black); CHANCE_PLAYER (-1) while a
        Swarm draw is due, the environment's move (is_chance_node)."""
        if self._info[INFO_DRAW_DUE]:
            return CHANCE_PLAYER
        return int(self._info[INFO_TURNS]) & 1

    def is_chance_node(self):
        """Whether the next entry is a Swarm draw (§11 SW-3): the bag's, not a
        player's; chance_outcomes gives its odds, and legal_actions the draws."""
        return bool(self._info[INFO_DRAW_DUE])

    def chance_outcomes(self):
        """[(action, probability), ...] of a chance node's draws, sorted by action:
        a colour and bug by the copies the bag holds of it; [] elsewhere."""
        actions = np.empty(MAX_MOVES, dtype=np.int64)
        weights = np.empty(MAX_MOVES, dtype=np.int64)
        n = chance_outcomes_into(self._a, _moves(), actions, weights)
        total = int(weights[:n].sum())
        return sorted((int(actions[i]), int(weights[i]) / total) for i in range(n))

    def is_terminal(self):
        return int(self._info[INFO_RESULT]) != IN_PROGRESS

    def returns(self):
        """[White's, Black's]: 1 for a win, -1 for a loss, 0 for a draw or a game
        not over."""
        result = int(self._info[INFO_RESULT])
        return {WHITE_WINS: [1.0, -1.0], BLACK_WINS: [-1.0, 1.0]}.get(result, [0.0, 0.0])

    def __str__(self):
        """The GameString (its moves named by replaying them)."""
        return self.to_board().game_string()

    def __repr__(self):
        player = self.current_player()
        where = "terminal" if self.is_terminal() else "chance" if player == CHANCE_PLAYER else f"player {player}"
        return f"<State ply {self.ply}, {where}>"

    # --- Actions --------------------------------------------------------------------
    def legal_actions(self):
        """The legal actions, sorted, as an int64 array (empty once the game is
        over; [PASS_ACTION] when passing is forced)."""
        out = np.empty(MAX_MOVES, dtype=np.int64)
        n = (_direct or _kernels()).actions(self._a, _moves(), out)
        _check_kinds(n)
        return out[:n]

    def legal_actions_mask(self, out=None):
        """A bool array of NUM_ACTIONS, True at the legal actions; written into
        `out` when given."""
        mask = np.empty(NUM_ACTIONS, dtype=np.bool_) if out is None else _checked_out(out, np.bool_, (NUM_ACTIONS,))
        _check_kinds(legal_mask_into(self._a, _moves(), mask))
        return mask

    def apply_action(self, action):
        """Play a legal action; ValueError for an illegal one."""
        self._apply(action, True)

    def apply_unchecked(self, action):
        """Play an action without generating the legal moves (only its range,
        the side to move and the game's end and length are checked)."""
        self._apply(action, False)

    def _apply(self, action, checked):
        if not isinstance(action, (int, np.integer)) or isinstance(action, bool):
            raise TypeError(f"an action is an int, not {type(action).__name__}")
        status = (_direct or _kernels()).apply(self._a, int(action), _moves(), checked)
        if status != _OK:
            raise ValueError(_ERRORS[status].format(action))

    def push(self, move):
        """Play a Move (Board's) unchecked."""
        if self.ply >= MAX_GAME_PLIES:
            raise ValueError(_ERRORS[_TOO_LONG])
        push_kernel(self._a, int(move))

    def pop(self):
        """Take back the last move and return it."""
        if self.ply == 0:
            raise IndexError("pop from a state with no moves")
        move = Move(int(self._a[0]["undo"][self.ply - 1, 0]))
        pop_kernel(self._a)
        return move

    def action_to_move(self, action):
        """The Move an action stands for in this position."""
        move = int(move_of(self._a, int(action), _moves()))
        if move == NO_MOVE:
            raise ValueError(_ERRORS[_ILLEGAL].format(action))
        return Move(move)

    def move_to_action(self, move):
        """The action of a Move in this position."""
        action = int(action_of(self._a, int(move)))
        _check_kinds(action)
        return action

    def action_to_string(self, action):
        """The MoveString of a legal action."""
        return self.to_board().uhp(self.action_to_move(action))

    def observation_tensor(self, out=None):
        """The observation planes (module docstring), float32 of OBSERVATION_SHAPE;
        written into `out` when given."""
        planes = (np.empty(OBSERVATION_SHAPE, dtype=np.float32) if out is None
                  else _checked_out(out, np.float32, OBSERVATION_SHAPE))
        observation_into(self._a, planes)
        return planes

    def playouts(self, count, seed=0, max_plies=MAX_GAME_PLIES):
        """Results of `count` random games from here (see `playouts`)."""
        return playouts(self, count, seed, max_plies)


def _checked_out(out, dtype, shape):
    """A caller's output array, if it is what the kernel writes (which checks no
    bounds): a C-contiguous, writable numpy array of that dtype and shape."""
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out is a numpy array, not {type(out).__name__}")
    if out.dtype != dtype or out.shape != shape or not out.flags.c_contiguous or not out.flags.writeable:
        raise ValueError(f"out must be a writable C-contiguous {np.dtype(dtype).name} array of shape {shape}, "
                         f"not {out.dtype.name} {out.shape}")
    return out


def _check_kinds(n):
    if n < 0:
        raise NotImplementedError("a legal move has no action: a kind the action space does not hold (it holds "
                                  "every kind of move but none) or a destination outside the window")


def playouts(state, count, seed=0, max_plies=MAX_GAME_PLIES):
    """Play `count` games of uniformly random moves from `state`, each to its end
    or to `max_plies` plies from the start of the game, in compiled code without
    the GIL; `state` is unchanged. Returns (results, plies): an int8 array of
    result codes (constants.IN_PROGRESS for a game cut off, WHITE_WINS,
    BLACK_WINS, DRAW) and the plies played in all. The same seed gives the same
    games; threads may run it at once on states of their own."""
    if not isinstance(state, State):
        raise TypeError(f"playouts() takes a State, not {type(state).__name__}")
    results = np.empty(count, dtype=np.int8)
    plies = playouts_kernel(state._a, _moves(), count, seed, max_plies, results)
    return results, int(plies)

