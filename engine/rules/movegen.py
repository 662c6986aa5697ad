"""Legal move generation (rules.md), compiled with numba, dispatched on the table of bugs.

`generate_moves(s, moves)` writes every legal move of the side to move into the
caller-owned buffer `moves` and returns how many there are; `count_moves` only
counts them (perft's last ply), and `count_after_placement` counts the replies to a
placement without making it when the opponent may only place. Each piece moves by the
movement bits of its bug's row (bugs.py), one kernel per bit; a ground Mosquito by
the union of its neighbours' rows, and any piece whose (borrowed) row has the THROW
ability also throws. The moving piece is lifted off the board while its
destinations are searched, so that it never props up its own path. Each destination
is recorded once per piece: the `seen` stamps merge a piece's own move with a throw
to the same cell, the union of a Mosquito's borrowed moves, and spider paths that meet.
"""

from numba import njit

from .board import (
    AWAY_BAG,
    AWAY_HAND,
    AWAY_OTHER_HAND,
    face_bug,
    in_hand_of,
    side_to_move,
    top_piece,
    turn_number,
    turns_past_setup,
)
from .bugs import (
    BUG_FIRST_ID,
    BUG_OF_LETTER,
    CLIMB,
    CLIMB_ONTO,
    CONTROL,
    DESCEND,
    CAPTURE,
    COMMAND,
    EXPANSION_BIT,
    FLIGHT,
    OVER_OWN,
    PLACE_AWAY_FROM_QUEENS,
    PLACE_QUEEN_AWAY,
    FLY_TO_PRIME,
    IMMUNE,
    KILL,
    PREY_ON_PLACED,
    LENT_ABILITIES,
    LOCKS,
    RESTS_ON_TOP,
    SLIDE_TWO,
    STING,
    SWAP,
    VENOM_FIXED_BITS,
    VENOM_PLACED_BIT,
    COPIES_NEIGHBOURS,
    DIAGONAL,
    DIAGONAL_GROUND,
    DOWN_UP,
    FAN_BITS,
    HOP,
    JUMP,
    LADYBUG_PATH,
    NUM_BUGS,
    NUM_PIECES,
    OFFICIAL_BUGS,
    OFFICIAL_PIECES_PER_SIDE,
    PIECES_PER_SIDE,
    PLACE_BESIDE_BOTH,
    PLACE_BESIDE_OWN,
    PLACE_ON_TOP,
    QUEEN,
    QUEEN_ID,
    ROYAL,
    SLIDE_ANY,
    SLIDE_ONE,
    SLIDE_THREE,
    SLIDES_ON,
    SHIELDS,
    HONEYCOMB_ID,
    THROW,
    TWO_CLIMBS,
    UP_DOWN,
)
from .constants import (
    BUG_ABILITIES,
    BUG_BACKS,
    BUG_FIXED_BIT,
    BUG_MOVEMENT_ON_TOP,
    BUG_COPIES,
    BUG_EXPANSION,
    BUG_FIRST_IDS,
    BUG_FLAGS,
    BUG_LENDS,
    BUG_MOVEMENT,
    BUG_PLACEMENT,
    PIECE_BUG,
    PIECE_COLOR,
    PIECE_FIRST_COPY,
    FLAG_QUEEN_FIRST_ALLOWED,
    IN_PROGRESS,
    INFO_EXPANSIONS,
    INFO_KEY,
    INFO_FLAGS,
    INFO_EARLIER_CARRIED,
    INFO_EARLIER_FROZEN,
    INFO_EARLIER_MOVED,
    INFO_FROZEN,
    INFO_HONEYCOMB,
    INFO_LAST_CARRIED,
    INFO_LAST_MOVED,
    INFO_OBLIGED,
    INFO_OBLIGER,
    INFO_PINNED_PASS,
    INFO_STINGS_USED,
    INFO_PLACED,
    INFO_PLACEABLE,
    INFO_PLY,
    INFO_RESULT,
    INFO_STAMP,
    INFO_DRAW_DUE,
    INFO_TURNS,
    INFO_PHASE,
    SWARM_SETUP,
    PHASE_SECOND,
    MAX_NODES,
    WORK_PATH,
    WORK_PIECES,
    WORK_PLACEMENTS,
    WORK_QUEUE,
    WORK_TODO,
    WORK_LOWS,
    WORK_OWN_RULE,
    RULE_CELLS_MAX,
    WORK_RULE_AFTER,
    WORK_RULE_AFTER_TAG,
)
from .hexgrid import (
    ALL_AROUND,
    FILLED,
    LOWEST_BIT,
    RUNS,
    NUM_CELLS,
    OPPOSITE,
    ORIGIN,
    RIGHT,
    can_climb,
    filled_neighbours,
    may_hold_hive,
    neighbor,
    set_occupied,
    slide_out,
)
from .moves import (
    KIND_CHOOSE,
    KIND_CONTROL,
    KIND_DRAW,
    KIND_FLIP,
    KIND_MOVE,
    KIND_PLACE,
    KIND_REMOVE,
    KIND_STEAL,
    KIND_STING,
    KIND_SWAP,
    KIND_THROW,
    KIND_TO_HAND,
    KIND_TRANSPORT,
    KIND_WASP_STING,
    PASS_MOVE,
    dest_slot,
    encode,
    encode_full,
    move_dest,
    move_kind,
    move_other,
    move_piece,
    move_slot,
)

DRAGONFLY = BUG_OF_LETTER["Dx"]
MOSQUITO = BUG_OF_LETTER["M"]
MANTIS = BUG_OF_LETTER["Nx"]
VENOM = EXPANSION_BIT["Venom"]
PREDATORS = EXPANSION_BIT["Predators"]
HONEYCOMBO = EXPANSION_BIT["HoneyCombo"]
SWARM = EXPANSION_BIT["Swarm"]
S004_MOTH = EXPANSION_BIT["Vx"]
S004_WASP = EXPANSION_BIT["Wx"]
S004_FIREFLY = EXPANSION_BIT["Fx"]
# Each side's S004 Wasp, and the pieces no Queen is placed next to (WX-1).
WASP_ID = (BUG_FIRST_ID[BUG_OF_LETTER["Wx"]], PIECES_PER_SIDE + BUG_FIRST_ID[BUG_OF_LETTER["Wx"]])
QUEEN_SHY = (WASP_ID[0], WASP_ID[1], BUG_FIRST_ID[BUG_OF_LETTER["Fx"]],
             PIECES_PER_SIDE + BUG_FIRST_ID[BUG_OF_LETTER["Fx"]])


# `seen`, the biggest array of the state (a slot per piece, cell and slot group),
# keeps the low 31 bits of the stamps: it is cleared each time they come round to
# 0, which no stamp uses, so that a slot stamped 2**31 stamps ago never reads as
# stamped now.
SEEN_MASK = (1 << 31) - 1


@njit(cache=True, nogil=True)
def new_stamp(s):
    """A fresh value for the scratch stamp arrays (mark, pinned, seen)."""
    s.info[INFO_STAMP] += 1
    if s.info[INFO_STAMP] & SEEN_MASK == 0:
        s.seen[:] = 0
        s.info[INFO_STAMP] += 1
    return s.info[INFO_STAMP]


@njit(cache=True, nogil=True)
def add_code(s, moves, n, move, stamp):
    """Append `move` unless this generation has it (the same identity slot,
    moves.move_slot: the same resulting state)."""
    return add_slot(s, moves, n, move, move_slot(move), stamp)


@njit(cache=True, nogil=True)
def add_move(s, moves, n, mover, dest, stamp):
    """Append the move `mover` (a code without its destination) onto `dest`
    unless this generation has it."""
    return add_slot(s, moves, n, mover | dest, dest_slot(mover, dest), stamp)


@njit(cache=True, nogil=True)
def add_slot(s, moves, n, move, slot, stamp):
    """Append `move`, whose identity slot is `slot`, unless this generation has it."""
    if s.seen[slot] == stamp & SEEN_MASK:
        return n
    s.seen[slot] = stamp & SEEN_MASK
    moves[n] = move
    return n + 1


@njit(cache=True, nogil=True)
def lift(s, cell, movement):
    """Take the top piece of `cell` off the board for a search of its paths (its
    ids stay where they are); `drop` puts it back. Only the kernels that slide
    more than one step read `around` beyond the start, so only they need it to
    show the cell empty."""
    s.height[cell] -= 1
    if s.height[cell] == 0 and movement & SLIDES_ON:
        set_occupied(s.around, cell, False)


@njit(cache=True, nogil=True)
def drop(s, cell, movement):
    if s.height[cell] == 0 and movement & SLIDES_ON:
        set_occupied(s.around, cell, True)
    s.height[cell] += 1


@njit(cache=True, nogil=True)
def side_end(s, side):
    """One past the last piece id of `side` that the game type may have: the
    official pieces come first in each side's ids, the fan ones after them."""
    if s.info[INFO_EXPANSIONS] & FAN_BITS:
        return (side + 1) * PIECES_PER_SIDE
    return side * PIECES_PER_SIDE + OFFICIAL_PIECES_PER_SIDE


# --- The rules' queries: the generator asks them, and Board asks them to say why
# a move is illegal, so that each rule lives here only -------------------------------
@njit(cache=True, nogil=True)
def bug_enabled(s, bug):
    """Whether the game type has the bug (its row's expansion letter, bugs.py)."""
    return BUG_EXPANSION[bug] == 0 or (s.info[INFO_EXPANSIONS] & BUG_EXPANSION[bug]) != 0


@njit(cache=True, nogil=True)
def pieces_may_move(s, side):
    """Whether `side`'s pieces in play may move: not before its Queen is placed
    (rules.md, "Turns")."""
    return s.piece_cell[QUEEN_ID[side]] >= 0


@njit(cache=True, nogil=True)
def is_covered(s, piece):
    """Whether a piece in play has another piece on top of it: it neither moves
    nor uses a power (rules.md, "Beetle")."""
    return s.piece_level[piece] != s.height[s.piece_cell[piece]] - 1


@njit(cache=True, nogil=True)
def in_last(s, piece):
    """Whether the previous ply acted on `piece` (fan-rules.md §3.2 `Last`: placed,
    moved, thrown or carried it): it may neither be thrown nor throw now (rules.md,
    "Pillbug"; §3.3)."""
    info = s.info
    return (piece == info[INFO_LAST_MOVED] or piece == info[INFO_LAST_CARRIED]
            or piece == info[INFO_EARLIER_MOVED] or piece == info[INFO_EARLIER_CARRIED])


@njit(cache=True, nogil=True)
def is_frozen(s, piece):
    """Whether `piece` may neither move, be moved nor act now (§3.2 `Frozen`): the
    opponent threw it on the previous ply (rules.md, "Pillbug"), or in either
    action of its double turn (ST-2)."""
    return piece == s.info[INFO_FROZEN] or piece == s.info[INFO_EARLIER_FROZEN]


# --- Pinned pieces ----------------------------------------------------------
@njit(cache=True, nogil=True)
def mark_pinned(s, stamp):
    """Articulation points of the hive (One Hive rule), in one pass.

    Iterative Tarjan (Hopcroft-Tarjan 1973) over the occupied cells, which form the
    graph whatever the stack heights, walking each cell's neighbours from its
    `around` bits. Sets s.pinned[cell] = stamp for each cell whose removal would
    split the hive. Discovery times live in a per-cell array offset by the stamp,
    so that values left by earlier passes read as "not visited" without clearing;
    the current cell, its unwalked neighbours and its low link stay in locals, and
    the path above it on a stack. A leaf (a cell whose only neighbour is its
    parent) is not walked into: it makes its parent a cut at once."""
    root = -1
    for piece in range(2 * PIECES_PER_SIDE):
        if s.piece_cell[piece] >= 0:
            root = s.piece_cell[piece]
            break
    if root < 0:
        return
    disc = s.cut_disc
    path = s.work[WORK_PATH : WORK_PATH + MAX_NODES]  # the cells above the current one
    todo = s.work[WORK_TODO : WORK_TODO + MAX_NODES]  # their neighbour bits still to walk
    lows = s.work[WORK_LOWS : WORK_LOWS + MAX_NODES]  # their low links so far
    base = stamp << 8  # above every time a pass with an older stamp wrote
    clock = base
    disc[root] = clock
    v = root
    bits = s.around[root]
    low = clock
    depth = 0
    root_children = 0
    while True:
        if bits != 0:
            d = LOWEST_BIT[bits]
            bits &= bits - 1
            w = neighbor(v, d)
            seen = disc[w]
            if seen >= base:  # visited: a back edge
                if seen < low:
                    low = seen
                continue
            if depth == 0:
                root_children += 1
            rest = s.around[w] & ~(1 << OPPOSITE[d])  # the edge back to v teaches nothing
            clock += 1
            disc[w] = clock
            if rest == 0:  # a leaf of the hive: it hangs on v alone
                if depth > 0:
                    s.pinned[v] = stamp
                continue
            path[depth] = v
            todo[depth] = bits
            lows[depth] = low
            depth += 1
            v = w
            bits = rest
            low = clock
        else:  # v is done: hand its low link to its parent
            if depth == 0:
                break
            depth -= 1
            p = path[depth]
            if depth > 0 and low >= disc[p]:
                s.pinned[p] = stamp
            if lows[depth] < low:
                low = lows[depth]
            v = p
            bits = todo[depth]
    if root_children > 1:
        s.pinned[root] = stamp


@njit(cache=True, nogil=True)
def holds_hive(s, cell, pinned_stamp):
    """Whether the ground piece alone at `cell` may not leave it (One Hive). The
    articulation pass runs at most once per generation, and only when a piece
    whose neighbours form two runs or more asks; call it with the board whole
    (nothing lifted)."""
    if not may_hold_hive(s.around, cell):
        return False
    if s.info[INFO_PINNED_PASS] != pinned_stamp:
        mark_pinned(s, pinned_stamp)
        s.info[INFO_PINNED_PASS] = pinned_stamp
    return s.pinned[cell] == pinned_stamp


# --- Movement kernels, one per movement bit of bugs.py ------------------------------
# Each takes a piece already lifted from `cell`, appends its destinations and returns
# the new count. `mover` is the move code without its destination: the piece's own
# move (KIND_MOVE), or its move under a Tick's control (KIND_CONTROL, §6.7). The
# sliding kernels read `around` (only ground pieces slide); the climbing ones read
# `height`.


@njit(cache=True, nogil=True)
def slide_one(s, mover, cell, moves, n, stamp):
    """One sliding step (Queen, Pillbug)."""
    dirs = slide_out(s.around, cell)
    for d in range(6):
        if (dirs >> d) & 1:
            n = add_move(s, moves, n, mover, neighbor(cell, d), stamp)
    return n


@njit(cache=True, nogil=True)
def slide_three(s, mover, cell, moves, n, stamp):
    """Spider: exactly three sliding steps, never revisiting a cell."""
    dirs1 = slide_out(s.around, cell)
    for d1 in range(6):
        if (dirs1 >> d1) & 1 == 0:
            continue
        c1 = neighbor(cell, d1)
        dirs2 = slide_out(s.around, c1)
        for d2 in range(6):
            if (dirs2 >> d2) & 1 == 0:
                continue
            c2 = neighbor(c1, d2)
            if c2 == cell:
                continue
            dirs3 = slide_out(s.around, c2)
            for d3 in range(6):
                if (dirs3 >> d3) & 1 == 0:
                    continue
                c3 = neighbor(c2, d3)
                if c3 != cell and c3 != c1:
                    n = add_move(s, moves, n, mover, c3, stamp)
    return n


@njit(cache=True, nogil=True)
def slide_any(s, mover, cell, moves, n, stamp):
    """Soldier Ant: every cell reachable by sliding steps, except the start."""
    queue = s.work[WORK_QUEUE : WORK_QUEUE + NUM_CELLS]
    visit = new_stamp(s)
    s.mark[cell] = visit
    queue[0] = cell
    head = 0
    tail = 1
    while head < tail:
        c = queue[head]
        head += 1
        dirs = slide_out(s.around, c)
        for d in range(6):
            if (dirs >> d) & 1 == 0:
                continue
            dest = neighbor(c, d)
            if s.mark[dest] != visit:
                s.mark[dest] = visit
                queue[tail] = dest
                tail += 1
                n = add_move(s, moves, n, mover, dest, stamp)
    return n


@njit(cache=True, nogil=True)
def jump(s, mover, cell, moves, n, stamp):
    """Grasshopper: over one or more occupied cells to the first empty one."""
    around = s.around[cell]
    for d in range(6):
        if (around >> d) & 1 == 0:
            continue
        dest = neighbor(cell, d)
        while s.height[dest] != 0:
            dest = neighbor(dest, d)
        n = add_move(s, moves, n, mover, dest, stamp)
    return n


@njit(cache=True, nogil=True)
def climb(s, mover, cell, moves, n, stamp):
    """Beetle (and a Mosquito on top of the hive): one step at any height."""
    h_from = s.height[cell]
    for d in range(6):
        if can_climb(s.height, cell, d, h_from):
            n = add_move(s, moves, n, mover, neighbor(cell, d), stamp)
    return n


@njit(cache=True, nogil=True)
def ladybug_path(s, mover, cell, moves, n, stamp):
    """Ladybug: up onto the hive, one step on top, then down to empty ground."""
    height = s.height
    for d1 in range(6):
        c1 = neighbor(cell, d1)
        if height[c1] == 0 or not can_climb(height, cell, d1, 0):
            continue
        h1 = height[c1]
        for d2 in range(6):
            c2 = neighbor(c1, d2)
            if height[c2] == 0 or not can_climb(height, c1, d2, h1):
                continue
            h2 = height[c2]
            for d3 in range(6):
                c3 = neighbor(c2, d3)
                if c3 == cell or height[c3] != 0 or not can_climb(height, c2, d3, h2):
                    continue
                n = add_move(s, moves, n, mover, c3, stamp)
    return n


@njit(cache=True, nogil=True)
def two_steps(s, mover, cell, moves, n, stamp, first_onto, second_onto):
    """Two steps at any height, the first ending on a pile (`first_onto`) or on
    empty ground, the second likewise, never back to the start; the climbing rule
    on each (fan-rules.md §1.2 Step). The Woodlouse, Moth and Butterfly."""
    height = s.height
    for d1 in range(6):
        c1 = neighbor(cell, d1)
        if (height[c1] != 0) != first_onto or not can_climb(height, cell, d1, height[cell]):
            continue
        for d2 in range(6):
            c2 = neighbor(c1, d2)
            if c2 != cell and (height[c2] != 0) == second_onto and can_climb(height, c1, d2, height[c1]):
                n = add_move(s, moves, n, mover, c2, stamp)
    return n


@njit(cache=True, nogil=True)
def up_down(s, mover, cell, moves, n, stamp):
    """Woodlouse (fan-rules.md J-1, U-1): one climb onto a neighbour, then down
    to an empty ground neighbour of it other than the start."""
    return two_steps(s, mover, cell, moves, n, stamp, True, False)


@njit(cache=True, nogil=True)
def hop(s, mover, cell, moves, n, stamp):
    """Flea (E-2): over exactly one occupied cell, at any height, to the empty
    cell straight beyond it; gates do not matter."""
    around = s.around[cell]
    for d in range(6):
        if (around >> d) & 1:
            dest = neighbor(neighbor(cell, d), d)
            if s.height[dest] == 0:
                n = add_move(s, moves, n, mover, dest, stamp)
    return n


@njit(cache=True, nogil=True)
def diagonal_cell(cell, d):
    """The cell two steps away from `cell`: one step in direction d, then one
    turned clockwise (the six of them are fan-rules.md's Diag(c))."""
    return neighbor(neighbor(cell, d), RIGHT[d])


@njit(cache=True, nogil=True)
def diagonal(s, mover, cell, moves, n, stamp, pinned_stamp):
    """Sperling's Dragonfly (DX-1..3): to each diagonal cell, over gates. An
    occupied one it lands on top of. An empty one must touch the hive (it never
    touches the start); from on top the Dragonfly carries the piece under it
    there when it may, and must, else lands alone."""
    level = s.height[cell]  # the Dragonfly is lifted: the pieces under it
    cargo = -1
    if level > 0:
        cargo = s.stack[cell, level - 1]
        # Not another Dragonfly, a frozen piece, a Guardian (always on top, GU-3)
        # or the Honeycomb (IM-2), nor a ground piece that holds the hive together.
        bug = PIECE_BUG[cargo]
        if bug == DRAGONFLY or is_frozen(s, cargo) or BUG_PLACEMENT[bug] == PLACE_ON_TOP or BUG_FLAGS[bug] & IMMUNE:
            cargo = -1
        elif level == 1 and holds_hive(s, cell, pinned_stamp):  # lifting kept `around` whole
            cargo = -1
    for d in range(6):
        dest = diagonal_cell(cell, d)
        if s.height[dest] == 0 and s.around[dest] == 0:
            continue
        if cargo >= 0 and s.height[dest] == 0:
            commanded = move_kind(mover) == KIND_THROW  # by an enemy S004 Firefly, which freezes it
            n = add_code(s, moves, n, encode_full(KIND_TRANSPORT, move_piece(mover), dest, cargo, commanded), stamp)
        else:
            n = add_move(s, moves, n, mover, dest, stamp)
    return n


@njit(cache=True, nogil=True)
def diagonal_ground(s, mover, cell, moves, n, stamp):
    """A Mosquito's copy of Sperling's Dragonfly (DX-5): to the empty diagonal
    cells that touch the hive."""
    for d in range(6):
        dest = diagonal_cell(cell, d)
        if s.height[dest] == 0 and s.around[dest] != 0:
            n = add_move(s, moves, n, mover, dest, stamp)
    return n


@njit(cache=True, nogil=True)
def down_up(s, mover, cell, moves, n, stamp):
    """Moth (V-1): from on top down to an empty ground neighbour, then up onto an
    occupied neighbour of that cell other than the start."""
    return two_steps(s, mover, cell, moves, n, stamp, False, True)


@njit(cache=True, nogil=True)
def two_climbs(s, mover, cell, moves, n, stamp):
    """Butterfly (Z-1): two steps, each onto an occupied cell, the second not back
    to the start."""
    return two_steps(s, mover, cell, moves, n, stamp, True, True)


@njit(cache=True, nogil=True)
def slide_two(s, mover, cell, moves, n, stamp):
    """Scorpion (R-1): exactly two sliding steps, not back to the start."""
    dirs1 = slide_out(s.around, cell)
    for d1 in range(6):
        if (dirs1 >> d1) & 1 == 0:
            continue
        c1 = neighbor(cell, d1)
        dirs2 = slide_out(s.around, c1)
        for d2 in range(6):
            if (dirs2 >> d2) & 1 and neighbor(c1, d2) != cell:
                n = add_move(s, moves, n, mover, neighbor(c1, d2), stamp)
    return n


@njit(cache=True, nogil=True)
def climb_onto(s, mover, cell, moves, n, stamp):
    """Dragonfly from the ground (D-1): one climb onto an occupied neighbour."""
    h_from = s.height[cell]
    for d in range(6):
        if s.height[neighbor(cell, d)] != 0 and can_climb(s.height, cell, d, h_from):
            n = add_move(s, moves, n, mover, neighbor(cell, d), stamp)
    return n


@njit(cache=True, nogil=True)
def descend(s, mover, cell, moves, n, stamp):
    """Tick on top (T-2): one step down to an empty ground neighbour, by the
    climbing rule; never onto another pile or along the top."""
    h_from = s.height[cell]
    for d in range(6):
        if s.height[neighbor(cell, d)] == 0 and can_climb(s.height, cell, d, h_from):
            n = add_move(s, moves, n, mover, neighbor(cell, d), stamp)
    return n


@njit(cache=True, nogil=True)
def fly_to_prime(s, mover, cell, moves, n, stamp):
    """Fly (Y-1, Y-2): onto the top of the piece the opponent's turn acted on
    (`Prime`), from anywhere, then down to an empty ground cell beside it with
    the climbing rule, not back to its start. None without a `Prime` elsewhere."""
    prime = s.info[INFO_LAST_MOVED]
    if prime < 0:
        return n
    target = s.piece_cell[prime]
    if target < 0 or target == cell:
        return n
    h_from = s.height[target]
    for d in range(6):
        dest = neighbor(target, d)
        if dest != cell and s.height[dest] == 0 and can_climb(s.height, target, d, h_from):
            n = add_move(s, moves, n, mover, dest, stamp)
    return n


@njit(cache=True, nogil=True)
def over_own(s, mover, cell, moves, n, stamp):
    """S004 Moth (VX-2): a search over the occupied cells, a step at a time by the
    climbing rule. A cell its own colour (or the Honeycomb, HC-3) tops it
    crosses; one the other colour tops it lands on, and goes no further; it
    never steps onto empty ground. The colour is the Moth's, whoever moves it."""
    own = PIECE_COLOR[move_piece(mover)]
    queue = s.work[WORK_QUEUE : WORK_QUEUE + NUM_CELLS]
    visit = new_stamp(s)
    s.mark[cell] = visit  # the start is no destination, and crossing it again finds nothing new
    queue[0] = cell
    head = 0
    tail = 1
    while head < tail:
        c = queue[head]
        head += 1
        h_from = s.height[c]
        for d in range(6):
            dest = neighbor(c, d)
            if s.height[dest] == 0 or s.mark[dest] == visit or not can_climb(s.height, c, d, h_from):
                continue
            s.mark[dest] = visit
            if PIECE_COLOR[top_piece(s, dest)] != 1 - own:
                queue[tail] = dest
                tail += 1
            else:
                n = add_move(s, moves, n, mover, dest, stamp)
    return n


@njit(cache=True, nogil=True)
def flight(s, mover, cell, moves, n, stamp):
    """S004 Wasp and Firefly (WX-2, FX-1): to any empty ground cell touching the
    hive (the flier lifted), not next to a cell holding a Queen, at any distance
    and over gates."""
    visit = new_stamp(s)
    s.mark[cell] = visit  # never back to the start
    for piece in range(NUM_PIECES):
        source = s.piece_cell[piece]
        if source < 0 or s.piece_level[piece] != 0 or s.height[source] == 0:
            continue  # a cell once, by its ground piece; not the flier's own, emptied
        around = s.around[source]
        for d in range(6):
            dest = neighbor(source, d)
            if (around >> d) & 1 or s.mark[dest] == visit:
                continue
            s.mark[dest] = visit
            if not beside_one_of(s, QUEEN_ID, dest):
                n = add_move(s, moves, n, mover, dest, stamp)
    return n


@njit(cache=True, nogil=True)
def beside_one_of(s, pieces, cell):
    """Whether a cell next to `cell` holds one of `pieces`, at any level (the
    Queens for WX-1 and WX-2, the Wasps and Fireflies for the Queens)."""
    for piece in pieces:
        where = s.piece_cell[piece]
        if where >= 0 and is_neighbour(cell, where):
            return True
    return False


@njit(cache=True, nogil=True)
def movement_moves(s, movement, mover, cell, moves, n, stamp, pinned_stamp):
    """Destinations of the piece lifted from `cell` for each bit of `movement`,
    as moves of the kind `mover` (a move code without its destination) names."""
    if movement & SLIDE_ONE:
        n = slide_one(s, mover, cell, moves, n, stamp)
    if movement & SLIDE_THREE:
        n = slide_three(s, mover, cell, moves, n, stamp)
    if movement & CLIMB:
        n = climb(s, mover, cell, moves, n, stamp)
    if movement & JUMP:
        n = jump(s, mover, cell, moves, n, stamp)
    if movement & SLIDE_ANY:
        n = slide_any(s, mover, cell, moves, n, stamp)
    if movement & LADYBUG_PATH:
        n = ladybug_path(s, mover, cell, moves, n, stamp)
    if movement & UP_DOWN:
        n = up_down(s, mover, cell, moves, n, stamp)
    if movement & HOP:
        n = hop(s, mover, cell, moves, n, stamp)
    if movement & DIAGONAL:
        n = diagonal(s, mover, cell, moves, n, stamp, pinned_stamp)
    if movement & DIAGONAL_GROUND:
        n = diagonal_ground(s, mover, cell, moves, n, stamp)
    if movement & DOWN_UP:
        n = down_up(s, mover, cell, moves, n, stamp)
    if movement & TWO_CLIMBS:
        n = two_climbs(s, mover, cell, moves, n, stamp)
    if movement & SLIDE_TWO:
        n = slide_two(s, mover, cell, moves, n, stamp)
    if movement & CLIMB_ONTO:
        n = climb_onto(s, mover, cell, moves, n, stamp)
    if movement & FLY_TO_PRIME:
        n = fly_to_prime(s, mover, cell, moves, n, stamp)
    if movement & DESCEND:
        n = descend(s, mover, cell, moves, n, stamp)
    if movement & OVER_OWN:
        n = over_own(s, mover, cell, moves, n, stamp)
    if movement & FLIGHT:
        n = flight(s, mover, cell, moves, n, stamp)
    return n


# --- Abilities ------------------------------------------------------------------
@njit(cache=True, nogil=True)
def pillbug_throws(s, cell, moves, n, stamp, pinned_stamp, spared):
    """The THROW ability of the (ground, uncovered) piece at `cell`: lift an
    adjacent piece over it onto an empty neighbour (rules.md, "Pillbug").

    The taken piece must stand alone on the ground, not split the hive, and not
    be the piece moved last, nor an immune Stink bug (IM-1), nor `spared` (the
    Tick that controls the thrower, -1 for none); both halves of the lift obey
    the climbing rule."""
    height = s.height
    side = side_to_move(s)
    for d in range(6):
        src = neighbor(cell, d)
        if height[src] != 1 or holds_hive(s, src, pinned_stamp):
            continue
        taken = s.stack[src, 0]
        if taken == spared or in_last(s, taken) or BUG_FLAGS[face_bug(s, taken)] & IMMUNE:
            continue
        # A throw of the side's own piece is the state of its own move there (ST-1).
        kind = KIND_MOVE if PIECE_COLOR[taken] == side else KIND_THROW
        # Onto the thrower: from the ground (0) to a pile of one (the thrower).
        if not can_climb(height, src, OPPOSITE[d], 0):
            continue
        height[src] = 0
        for e in range(6):
            dest = neighbor(cell, e)
            if dest != src and height[dest] == 0 and can_climb(height, cell, e, 1):
                n = add_throw(s, moves, n, encode(kind, taken, dest), stamp)
        height[src] = 1
    return n


@njit(cache=True, nogil=True)
def add_throw(s, moves, n, throw, stamp):
    """add_code for a throw. A throw of an enemy piece leaves the state the S004
    Firefly's command of it there does (both freeze it, EX-ID1), and the throw
    names the move (NO-5: the string without `@`): it takes the command's place."""
    slot = move_slot(throw)
    if s.seen[slot] != stamp & SEEN_MASK or move_kind(throw) != KIND_THROW:
        return add_slot(s, moves, n, throw, slot, stamp)
    if s.info[INFO_EXPANSIONS] & S004_FIREFLY:
        for i in range(n - 1, -1, -1):
            if move_slot(moves[i]) == slot:
                moves[i] = throw
                break
    return n


@njit(cache=True, nogil=True)
def lone_enemy(s, cell, d):
    """The enemy piece alone on the ground next to `cell` in direction d (the
    target a sting or a kill needs), or -1."""
    target = neighbor(cell, d)
    if s.height[target] != 1:
        return -1
    piece = s.stack[target, 0]
    return piece if PIECE_COLOR[piece] == 1 - side_to_move(s) else -1  # the Honeycomb is no one's


@njit(cache=True, nogil=True)
def stinger_order(s, piece):
    """A sort key of stingers, the first of which names a sting (NO-5): the side
    to move's own before one its Tick controls, then piece order (§4.1: the bug
    of the face shown, in table order, then the copy)."""
    foreign = PIECE_COLOR[piece] != side_to_move(s)
    return (foreign * NUM_BUGS + face_bug(s, piece)) * NUM_PIECES + piece


@njit(cache=True, nogil=True)
def add_sting(s, moves, n, sting, stamp):
    """add_code for a sting: one move per victim, which names its first stinger."""
    slot = move_slot(sting)
    if s.seen[slot] != stamp & SEEN_MASK:
        return add_code(s, moves, n, sting, stamp)
    for i in range(n - 1, -1, -1):
        if move_slot(moves[i]) == slot:
            if stinger_order(s, move_other(sting)) < stinger_order(s, move_other(moves[i])):
                moves[i] = sting
            break
    return n


@njit(cache=True, nogil=True)
def stings(s, stinger, cell, moves, n, stamp):
    """The STING ability of the uncovered piece at `cell` (Wasp Queen, W-2): an
    adjacent enemy tile alone on the ground turns over, Frozen for its owner's
    turn; not one the previous turn acted on, a Frozen one, an immune Stink bug,
    or a single-sided piece (no back). The move is the victim's (its identity:
    every sting of one victim gives one state), naming its first stinger."""
    for d in range(6):
        victim = lone_enemy(s, cell, d)
        if victim < 0 or BUG_BACKS[PIECE_BUG[victim]] < 0:
            continue
        if in_last(s, victim) or is_frozen(s, victim) or BUG_FLAGS[face_bug(s, victim)] & IMMUNE:
            continue
        n = add_sting(s, moves, n, encode_full(KIND_STING, victim, neighbor(cell, d), stinger, 0), stamp)
    return n


@njit(cache=True, nogil=True)
def swaps(s, centipede, cell, moves, n, stamp, spared):
    """The SWAP ability of the lifted, unpinned piece from `cell` (Centipede,
    C-1..C-3): a climb onto a neighbour, a step onto the next pile and one onto a
    third, each by the climbing rule, reach the target: a piece of either colour
    alone on the ground, not the first pile, not Frozen, not an immune Stink bug,
    not `spared` (as for pillbug_throws). It may be pinned; the two change places."""
    height = s.height
    for d1 in range(6):
        a1 = neighbor(cell, d1)
        if height[a1] == 0 or not can_climb(height, cell, d1, height[cell]):
            continue
        for d2 in range(6):
            a2 = neighbor(a1, d2)
            if height[a2] == 0 or not can_climb(height, a1, d2, height[a1]):
                continue
            for d3 in range(6):
                t = neighbor(a2, d3)
                if t == a1 or t == cell or height[t] != 1 or not can_climb(height, a2, d3, height[a2]):
                    continue
                target = s.stack[t, 0]
                if target == spared or is_frozen(s, target) or BUG_FLAGS[face_bug(s, target)] & IMMUNE:
                    continue
                n = add_code(s, moves, n, encode_full(KIND_SWAP, centipede, t, target, 0), stamp)
    return n


@njit(cache=True, nogil=True)
def hive_whole_without(s, a, b):
    """Whether the hive stays one group with the cells `a` and `b` emptied (a
    piece alone on each leaves; fan-rules.md §3.6 Conn(-{a,b})), by a walk over
    the occupied cells, and is not gone (G-7: the board never becomes empty);
    `a` may be lifted already."""
    queue = s.work[WORK_QUEUE : WORK_QUEUE + NUM_CELLS]
    visit = new_stamp(s)
    s.mark[a] = visit
    s.mark[b] = visit
    cells = 0
    for piece in range(NUM_PIECES):
        cell = s.piece_cell[piece]
        if cell >= 0 and s.piece_level[piece] == 0 and s.mark[cell] != visit:
            cells += 1
            queue[0] = cell
    if cells == 0:
        return False
    s.mark[queue[0]] = visit
    head = 0
    tail = 1
    while head < tail:
        c = queue[head]
        head += 1
        for d in range(6):
            n = neighbor(c, d)
            if s.height[n] > 0 and s.mark[n] != visit:
                s.mark[n] = visit
                queue[tail] = n
                tail += 1
    return tail == cells


@njit(cache=True, nogil=True)
def protected_from_predators(s, cell):
    """PR-3: the top piece of `cell` is immune (an uncovered Stink bug, IM-1, or
    the Honeycomb, IM-2) or next to an uncovered Stink bug (of either colour)."""
    if BUG_FLAGS[face_bug(s, top_piece(s, cell))] & IMMUNE:
        return True
    for d in range(6):
        top = top_piece(s, neighbor(cell, d))
        if top >= 0 and BUG_FLAGS[face_bug(s, top)] & SHIELDS:
            return True
    return False


@njit(cache=True, nogil=True)
def kills(s, killer, cell, moves, n, stamp):
    """The KILL ability of the lifted, unpinned ground piece from `cell` (Killer
    beetle, K-2; a Mosquito copying it, PR-4): an adjacent enemy piece alone on
    the ground, not one the previous turn acted on, not protected (PR-3),
    reached by a climb the climbing rule allows, and the hive whole without
    both (§3.6). Both leave the game."""
    for d in range(6):
        prey = lone_enemy(s, cell, d)
        t = neighbor(cell, d)
        if prey < 0 or in_last(s, prey) or protected_from_predators(s, t):
            continue
        if can_climb(s.height, cell, d, 0) and hive_whole_without(s, cell, t):
            n = add_code(s, moves, n, encode_full(KIND_REMOVE, killer, t, prey, 0), stamp)
    return n


@njit(cache=True, nogil=True)
def preys(s, mantis, cell, moves, n, stamp):
    """The PREY_ON_PLACED ability of the lifted, unpinned piece from `cell`
    (Mantis, N-2; a Mosquito copying it, PR-4): the enemy piece the previous
    turn placed, anywhere, the top of its cell, not protected (PR-3), and for a
    ground one the hive whole without both (§3.6; a Guardian leaves its stack
    standing). No climbing rule: it jumps. Both leave the game."""
    prey = s.info[INFO_PLACED]
    if prey < 0 or PIECE_COLOR[prey] == side_to_move(s):
        return n
    t = s.piece_cell[prey]
    if t < 0 or top_piece(s, t) != prey or protected_from_predators(s, t):
        return n
    if s.height[t] == 1 and not hive_whole_without(s, cell, t):
        return n
    return add_code(s, moves, n, encode_full(KIND_REMOVE, mantis, t, prey, 0), stamp)


@njit(cache=True, nogil=True)
def queen_spent(s, piece):
    """Whether `piece` is a Queen who has used her sting (WX-5): she never moves
    by herself again, and lends a Mosquito nothing."""
    return (BUG_FLAGS[PIECE_BUG[piece]] & ROYAL) != 0 and (s.info[INFO_STINGS_USED] >> PIECE_COLOR[piece]) & 1 != 0


@njit(cache=True, nogil=True)
def commanded_moves(s, firefly, target, moves, n, stamp, pinned_stamp):
    """The moves the S004 Firefly makes `target`, the enemy piece on top of a cell
    beside it, play (FX-2): its movement by its own rules (not Frozen, not holding
    the hive together on the ground), played by the Firefly's side, after which
    it is Frozen: throws (KIND_THROW) naming the Firefly. The board is whole."""
    cell = s.piece_cell[target]
    level = s.piece_level[target]
    if is_frozen(s, target) or queen_spent(s, target) or (level == 0 and holds_hive(s, cell, pinned_stamp)):
        return n
    movement = piece_row(s, target, cell, level)[0]
    lift(s, cell, movement)
    n = movement_moves(s, movement, encode_full(KIND_THROW, target, 0, firefly, 0), cell, moves, n, stamp, pinned_stamp)
    drop(s, cell, movement)
    return n


@njit(cache=True, nogil=True)
def commands(s, firefly, cell, moves, n, stamp, pinned_stamp):
    """The COMMAND ability of the S004 Firefly at `cell` (FX-2; it may be pinned):
    the commanded moves of each enemy piece on top of a cell beside it."""
    for d in range(6):
        top = top_piece(s, neighbor(cell, d))
        if top >= 0 and PIECE_COLOR[top] == 1 - PIECE_COLOR[firefly]:
            n = commanded_moves(s, firefly, top, moves, n, stamp, pinned_stamp)
    return n


@njit(cache=True, nogil=True)
def queen_stings(s, side, moves, n):
    """The sting `side`'s Queen has once a game in a game type with the S004
    Wasp (WX-5; uncovered, not Frozen, pinned or not): the enemy piece on top of
    a cell beside her, not the enemy Queen, goes back to its owner's hand, if
    the hive stays whole without a lone ground one (§3.6). Appended to
    moves[:n] (each its own identity), the new count returned."""
    queen = QUEEN_ID[side]
    cell = s.piece_cell[queen]
    if cell < 0 or is_frozen(s, queen) or is_covered(s, queen) or queen_spent(s, queen):
        return n
    for d in range(6):
        t = neighbor(cell, d)
        target = top_piece(s, t)
        if target < 0 or PIECE_COLOR[target] != 1 - side or BUG_FLAGS[PIECE_BUG[target]] & ROYAL:
            continue
        if s.height[t] == 1 and not hive_whole_without(s, t, t):
            continue
        moves[n] = encode_full(KIND_TO_HAND, queen, t, target, 0)
        n += 1
    return n


@njit(cache=True, nogil=True)
def captures(s, mantis, cell, moves, n, stamp, spared):
    """The CAPTURE ability of the uncovered piece at `cell` (S004 Mantis, NX-2, or
    a Mosquito copying it, NX-5; it may be pinned): the top piece of a cell beside
    it, of either colour, not an immune Stink bug nor `spared` (as for
    pillbug_throws), leaves the board with it, if the hive stays whole and not
    empty without both (§3.6: without the target's cell when it is alone on the
    ground; G-7)."""
    for d in range(6):
        t = neighbor(cell, d)
        target = top_piece(s, t)
        if target < 0 or target == spared or BUG_FLAGS[face_bug(s, target)] & IMMUNE:
            continue
        emptied = t if s.height[t] == 1 else cell
        if not hive_whole_without(s, cell, emptied):
            continue
        if spared < 0 and copies_back(s, mantis, target):
            # The Mantis taking its own Mosquito is the state of the Mosquito's copy
            # taking the Mantis (both back in hand, ID-1): one move, by the Mosquito.
            n = add_code(s, moves, n, encode_full(KIND_TO_HAND, target, cell, mantis, 0), stamp)
        else:
            n = add_code(s, moves, n, encode_full(KIND_TO_HAND, mantis, t, target, 0), stamp)
    return n


@njit(cache=True, nogil=True)
def copies_back(s, mantis, target):
    """Whether `target`, beside the S004 Mantis `mantis` of the side to move, is
    that side's own Mosquito on the ground, free to copy the Mantis's removal."""
    return (PIECE_BUG[mantis] == MANTIS and PIECE_COLOR[target] == PIECE_COLOR[mantis]
            and BUG_FLAGS[face_bug(s, target)] & COPIES_NEIGHBOURS != 0 and s.piece_level[target] == 0
            and not is_frozen(s, target))


@njit(cache=True, nogil=True)
def gets_away(s, target, wasp_cell, moves, n, pinned_stamp):
    """Whether `target` has a move of its own ending neither on nor next to
    `wasp_cell` (WX-3, WX-4), by its owner's rules and with its movement only;
    moves[n:] is scratch space. Uses fresh stamps: call it before a generation's
    moves are de-duplicated."""
    cell = s.piece_cell[target]
    if not pieces_may_move(s, PIECE_COLOR[target]) or queen_spent(s, target) or holds_hive(s, cell, pinned_stamp):
        return False
    end = away_moves(s, target, wasp_cell, moves, n, new_stamp(s), pinned_stamp)
    return end > n


@njit(cache=True, nogil=True)
def away_moves(s, target, wasp_cell, moves, n, stamp, pinned_stamp):
    """The moves of `target`'s own movement from the ground (not pinned: the
    caller checks) that end neither on nor next to `wasp_cell`, appended to
    moves[:n]; returns the new count."""
    cell = s.piece_cell[target]
    movement = piece_row(s, target, cell, 0)[0]
    lift(s, cell, movement)
    end = movement_moves(s, movement, encode(KIND_MOVE, target, 0), cell, moves, n, stamp, pinned_stamp)
    drop(s, cell, movement)
    kept = n
    for i in range(n, end):
        dest = move_dest(moves[i])
        if dest != wasp_cell and not is_neighbour(dest, wasp_cell):
            moves[kept] = moves[i]
            kept += 1
    return kept


@njit(cache=True, nogil=True)
def wasp_stings(s, side, moves, pinned_stamp):
    """The OBLIGE ability of `side`'s S004 Wasp (WX-3; uncovered, not Frozen, may
    be pinned): an enemy piece alone on the ground beside it that could then move
    away from it. Written into moves[0:], its count returned; first in a
    generation, because its look-ahead stamps `seen`."""
    wasp = WASP_ID[side]
    cell = s.piece_cell[wasp]
    if cell < 0 or is_frozen(s, wasp) or is_covered(s, wasp):
        return 0
    n = 0
    for d in range(6):
        target = lone_enemy(s, cell, d)
        if target >= 0 and gets_away(s, target, cell, moves, n, pinned_stamp):
            moves[n] = encode_full(KIND_WASP_STING, wasp, neighbor(cell, d), target, 0)
            n += 1
    return n


@njit(cache=True, nogil=True)
def obliged_moves(s, moves, stamp, pinned_stamp):
    """WX-4: the moves of the side to move under an S004 Wasp's obligation, its
    piece's own moves away from that Wasp; 0 when none binds it (no obligation,
    the Wasp gone, or no such move: it lapses)."""
    target = s.info[INFO_OBLIGED]
    if target < 0:
        return 0
    wasp_cell = s.piece_cell[s.info[INFO_OBLIGER]]
    if wasp_cell < 0 or holds_hive(s, s.piece_cell[target], pinned_stamp):
        return 0
    return away_moves(s, target, wasp_cell, moves, 0, stamp, pinned_stamp)


@njit(cache=True, nogil=True)
def may_flip(s, piece, cell, level):
    """Whether the side to move may turn its uncovered tile `piece` over now
    (VN-3, given its Queen is in play): a tile with a back, that neither the
    previous turn acted on nor is Frozen, not locked by an enemy Scorpion next
    to it unless it shows the Stink bug, and on top of the hive only a tile
    whose both faces may rest there (a Beetle or a Mosquito tile; with the S004
    Moth not a Mosquito tile, whose Mosquito never ends on top, MQ-4)."""
    front = PIECE_BUG[piece]
    back = BUG_BACKS[front]
    if back < 0 or in_last(s, piece) or is_frozen(s, piece):
        return False
    if level > 0 and (BUG_FLAGS[front] & BUG_FLAGS[back] & RESTS_ON_TOP) == 0:
        return False
    if level > 0 and front == MOSQUITO and s.info[INFO_EXPANSIONS] & S004_MOTH:
        return False
    return locking_scorpion(s, piece, cell) < 0


@njit(cache=True, nogil=True)
def locking_scorpion(s, piece, cell):
    """The enemy Scorpion next to `piece`'s uncovered tile on `cell` that keeps it
    from flipping (R-2: the Scorpion uncovered, the tile not showing the Stink
    bug), -1 if none."""
    if BUG_FLAGS[face_bug(s, piece)] & IMMUNE:
        return -1
    enemy = 1 - PIECE_COLOR[piece]
    for d in range(6):
        top = top_piece(s, neighbor(cell, d))
        if top >= 0 and PIECE_COLOR[top] == enemy and BUG_FLAGS[face_bug(s, top)] & LOCKS:
            return top
    return -1


@njit(cache=True, nogil=True)
def tiles_locked_by(s, scorpion, cell, stamp):
    """How many enemy tiles beside the uncovered Scorpion `scorpion` at `cell`
    it keeps from flipping (R-2, as locking_scorpion) that `mark` does not yet
    hold `stamp` for; marks them. One stamp over every Scorpion counts each
    locked tile once: the evaluation's count, a few Scorpions' neighbours
    rather than every tile's."""
    count = 0
    for d in range(6):
        n = neighbor(cell, d)
        top = top_piece(s, n)
        if top < 0 or PIECE_COLOR[top] == PIECE_COLOR[scorpion] or BUG_BACKS[PIECE_BUG[top]] < 0:
            continue
        if BUG_FLAGS[face_bug(s, top)] & IMMUNE or s.mark[n] == stamp:
            continue
        s.mark[n] = stamp
        count += 1
    return count


@njit(cache=True, nogil=True)
def flips_allowed(s):
    """Whether the game type has flip turns: plain Venom, without its variants (§2.2)."""
    expansions = s.info[INFO_EXPANSIONS]
    return (expansions & VENOM) != 0 and (expansions & (VENOM_PLACED_BIT | VENOM_FIXED_BITS)) == 0


@njit(cache=True, nogil=True)
def placement_faces(s, piece):
    """The faces `piece` may be placed showing, bit f for face f (VN-2): its
    front off Venom, for a single-sided piece and for the Queen tile; the one
    Venom(Fixed:...) sets; else the placer's choice of either."""
    expansions = s.info[INFO_EXPANSIONS]
    bug = PIECE_BUG[piece]
    if (expansions & VENOM) == 0 or BUG_BACKS[bug] < 0 or BUG_FLAGS[bug] & ROYAL:
        return 1
    if expansions & VENOM_FIXED_BITS:
        return 2 if expansions & BUG_FIXED_BIT[bug] else 1
    return 3


@njit(cache=True, nogil=True)
def borrowed_row(s, cell):
    """(movement, abilities) a ground Mosquito at `cell` copies: the union of the
    rows of its neighbours' top bugs, other copiers excluded (rules.md, "Mosquito")."""
    movement = 0
    abilities = 0
    stings = s.info[INFO_EXPANSIONS] & S004_WASP  # a Queen who has stung lends nothing (§5.1)
    for d in range(6):
        top = top_piece(s, neighbor(cell, d))
        if top >= 0:
            bug = face_bug(s, top)
            if BUG_FLAGS[bug] & COPIES_NEIGHBOURS == 0 and not (stings and queen_spent(s, top)):
                movement |= BUG_LENDS[bug]
                abilities |= BUG_ABILITIES[bug] & LENT_ABILITIES
    if s.info[INFO_EXPANSIONS] & S004_MOTH:
        movement = ground_only(movement)
    return movement, abilities


@njit(cache=True, nogil=True)
def ground_only(movement):
    """A Mosquito's borrowed movement where it may never end on top of the hive
    (MQ-4, with the S004 Moth): the climbs onto a pile dropped, the Beetle's step
    left with its steps onto empty ground, which are slides."""
    if movement & CLIMB:
        movement = (movement & ~CLIMB) | SLIDE_ONE
    return movement & ~(TWO_CLIMBS | CLIMB_ONTO)


@njit(cache=True, nogil=True)
def piece_row(s, piece, cell, level):
    """(movement, abilities) of the uncovered `piece` at `cell` and `level`: its
    face's row's (from on top, the row's movement there), or on the ground a
    Mosquito's borrowed ones."""
    bug = face_bug(s, piece)
    if level == 0:
        if BUG_FLAGS[bug] & COPIES_NEIGHBOURS:
            return borrowed_row(s, cell)
        return BUG_MOVEMENT[bug], BUG_ABILITIES[bug]
    return BUG_MOVEMENT_ON_TOP[bug], BUG_ABILITIES[bug]


@njit(cache=True, nogil=True, inline="always")
def piece_actions(s, piece, cell, level, mover, spared, moves, n, stamp, pinned_stamp):
    """The movements and abilities of the uncovered, not Frozen `piece` at
    `cell` and `level`, as moves of the kind `mover` names for its movements (a
    code without destination); `spared` a piece its abilities may not take (the
    Tick that controls it, else -1). An ability works from the ground even when
    its user is pinned, but a throw not by a piece the previous ply acted on
    (fan-rules.md §3.3)."""
    movement, abilities = piece_row(s, piece, cell, level)
    if level == 0 and abilities & THROW and not in_last(s, piece):
        n = pillbug_throws(s, cell, moves, n, stamp, pinned_stamp, spared)
    if abilities & STING:
        n = stings(s, piece, cell, moves, n, stamp)
    if abilities & COMMAND:
        n = commands(s, piece, cell, moves, n, stamp, pinned_stamp)
    if level == 0 and abilities & CAPTURE:
        n = captures(s, piece, cell, moves, n, stamp, spared)
    if level == 0 and holds_hive(s, cell, pinned_stamp):
        return n
    lift(s, cell, movement)
    n = movement_moves(s, movement, mover, cell, moves, n, stamp, pinned_stamp)
    if abilities & SWAP:
        n = swaps(s, piece, cell, moves, n, stamp, spared)
    if level == 0 and abilities & KILL:
        n = kills(s, piece, cell, moves, n, stamp)
    if level == 0 and abilities & PREY_ON_PLACED:
        n = preys(s, piece, cell, moves, n, stamp)
    drop(s, cell, movement)
    return n


@njit(cache=True, nogil=True)
def controllable(s, tick, target):
    """Whether the side to move's Tick `tick` may take over `target` now (T-3):
    an enemy piece on top of a cell beside the Tick at its own level, not
    Frozen, not an immune Stink bug, and not a Tick itself (no mind control by
    the controlled piece, [T2]; its movements stay, see control_moves)."""
    cell = s.piece_cell[target]
    tick_cell = s.piece_cell[tick]
    if cell < 0 or PIECE_COLOR[target] == PIECE_COLOR[tick] or not is_neighbour(cell, tick_cell):
        return False
    level = s.piece_level[tick]
    if s.piece_level[target] != level or s.height[cell] != level + 1:
        return False
    return not is_frozen(s, target) and BUG_FLAGS[face_bug(s, target)] & IMMUNE == 0


@njit(cache=True, nogil=True)
def controlled_actions(s, tick, target, moves, n, stamp, pinned_stamp):
    """What the Tick makes `target` do (T-3): its movements, which freeze
    nothing (KIND_CONTROL), and its abilities but mind control, whose moves are
    the ones they make (a thrown enemy piece is Frozen); the abilities read the
    side to move as the acting side, so they aim at `target`'s own side, never
    at the Tick."""
    return piece_actions(s, target, s.piece_cell[target], s.piece_level[target],
                         encode_full(KIND_CONTROL, target, 0, tick, 0), tick, moves, n, stamp, pinned_stamp)


@njit(cache=True, nogil=True)
def control_moves(s, tick, cell, moves, n, stamp, pinned_stamp):
    """The CONTROL ability of the Tick at `cell` (T-3): the actions of each
    piece beside it that it may take over. It may be pinned."""
    level = s.piece_level[tick]
    for d in range(6):
        c = neighbor(cell, d)
        if s.height[c] == level + 1 and controllable(s, tick, s.stack[c, level]):
            n = controlled_actions(s, tick, s.stack[c, level], moves, n, stamp, pinned_stamp)
    return n


@njit(cache=True, nogil=True)
def actions_by(s, actor, controller, moves):
    """The moves `actor` makes now, written into `moves` (its count returned):
    its own movements and abilities, or with a `controller` (not -1) those the
    side to move's Tick or S004 Firefly makes it play; 0 when it may not act. For a MoveString
    that names who acts (`^thrower`, `@controller`, a sting's stinger, §4.2)."""
    side = side_to_move(s)
    cell = s.piece_cell[actor]
    if cell < 0 or not pieces_may_move(s, side) or is_frozen(s, actor) or is_covered(s, actor):
        return 0
    stamp = new_stamp(s)
    pinned_stamp = new_stamp(s)
    if controller < 0:
        if PIECE_COLOR[actor] != side or queen_spent(s, actor):
            return 0
        return piece_actions(s, actor, cell, s.piece_level[actor], encode(KIND_MOVE, actor, 0), -1,
                             moves, 0, stamp, pinned_stamp)
    tick_cell = s.piece_cell[controller]
    if tick_cell < 0 or PIECE_COLOR[controller] != side or is_frozen(s, controller) or is_covered(s, controller):
        return 0
    abilities = piece_row(s, controller, tick_cell, s.piece_level[controller])[1]
    if abilities & COMMAND and PIECE_COLOR[actor] != side and not is_covered(s, actor) \
            and is_neighbour(cell, tick_cell):
        return commanded_moves(s, controller, actor, moves, 0, stamp, pinned_stamp)
    if abilities & CONTROL == 0 or not controllable(s, controller, actor):
        return 0
    return controlled_actions(s, controller, actor, moves, 0, stamp, pinned_stamp)


# --- Placements ---------------------------------------------------------------
@njit(cache=True, nogil=True)
def placement_cells(s, side, out):
    """Cells where `side` may place a piece by the usual rule (rules.md, "Turns");
    returns the count."""
    return rule_cells(s, side, PLACE_BESIDE_OWN, out)


@njit(cache=True, nogil=True)
def is_neighbour(a, b):
    for d in range(6):
        if neighbor(a, d) == b:
            return True
    return False


@njit(cache=True, nogil=True)
def rule_cells(s, side, rule, out):
    """Cells where `side` may place a bug whose row has the placement rule `rule`
    (bugs.py PLACE_*, placement_rule); returns the count.

    The usual rule: empty cells touching a friendly top piece and no enemy top
    piece; the first piece goes to the origin and the second next to it. The
    S004 Wasp and Firefly the same, but not next to a Queen, and the Queen where
    they are in the game not next to them (WX-1). The Flea (fan-rules.md E-1):
    empty cells touching both colours' top pieces and not the cell of the enemy
    Queen. The Guardians (GU-2): on top of a pile topped by their colour with no
    enemy top piece around it. The uncovered Honeycomb counts as either colour's
    for all but the Flea, and the first pieces by it follow G-6 (HC-3)."""
    turns = turns_past_setup(s)
    shy = rule >= PLACE_AWAY_FROM_QUEENS  # WX-1's rules: the usual one, away from some pieces
    usual = rule == PLACE_BESIDE_OWN or shy
    honeycomb = s.info[INFO_EXPANSIONS] & HONEYCOMBO
    if usual and turns < 2 and not honeycomb:
        count = 0
        if turns == 0:
            out[0] = ORIGIN
            return 1
        for d in range(6):
            if not shy_of(s, rule, neighbor(ORIGIN, d)):
                out[count] = neighbor(ORIGIN, d)
                count += 1
        return count
    enemy_tops = s.tops[1 - side]
    enemy_queen = s.piece_cell[QUEEN_ID[1 - side]]
    visit = new_stamp(s)
    count = 0
    own_in_play = False
    for piece in range(side * PIECES_PER_SIDE, side_end(s, side)):
        cell = s.piece_cell[piece]
        own_in_play |= cell >= 0
        if cell < 0 or s.piece_level[piece] != s.height[cell] - 1:
            continue
        if rule == PLACE_ON_TOP:
            if enemy_tops[cell] == 0:
                out[count] = cell
                count += 1
            continue
        around = s.around[cell]
        for d in range(6):
            if (around >> d) & 1:
                continue
            candidate = neighbor(cell, d)
            if s.mark[candidate] == visit:
                continue
            s.mark[candidate] = visit
            if (enemy_tops[candidate] == 0) != usual:
                continue
            if not usual and enemy_queen >= 0 and is_neighbour(candidate, enemy_queen):
                continue
            if shy and shy_of(s, rule, candidate):
                continue
            out[count] = candidate
            count += 1
    if usual and not own_in_play:
        return cells_by_the_hive(s, rule, out)
    if honeycomb and s.height[ORIGIN] == 1 and rule != PLACE_BESIDE_BOTH:
        if rule == PLACE_ON_TOP:  # a Guardian onto it, never as a first piece (GU-2)
            if enemy_tops[ORIGIN] == 0 and own_in_play:
                out[count] = ORIGIN
                count += 1
            return count
        for d in range(6):
            candidate = neighbor(ORIGIN, d)
            if s.height[candidate] != 0 or s.mark[candidate] == visit:
                continue
            s.mark[candidate] = visit
            if enemy_tops[candidate] == 0 and not (shy and shy_of(s, rule, candidate)):
                out[count] = candidate
                count += 1
    return count


@njit(cache=True, nogil=True)
def cells_by_the_hive(s, rule, out):
    """G-6: with none of its colour on the board (all taken off it), a piece of
    the usual placement rules goes on any empty cell touching the hive (WX-1
    still applies); returns the count."""
    visit = new_stamp(s)
    count = 0
    for piece in range(NUM_PIECES):
        cell = s.piece_cell[piece]
        if cell < 0 or s.piece_level[piece] != 0:
            continue
        for d in range(6):
            candidate = neighbor(cell, d)
            if s.height[candidate] != 0 or s.mark[candidate] == visit:
                continue
            s.mark[candidate] = visit
            if not shy_of(s, rule, candidate):
                out[count] = candidate
                count += 1
    return count


@njit(cache=True, nogil=True)
def shy_of(s, rule, cell):
    """Whether WX-1 keeps a piece of placement rule `rule` off `cell`: a Wasp or
    Firefly next to a Queen, a Queen next to a Wasp or Firefly (any level)."""
    if rule == PLACE_AWAY_FROM_QUEENS:
        return beside_one_of(s, QUEEN_ID, cell)
    if rule == PLACE_QUEEN_AWAY:
        return beside_one_of(s, QUEEN_SHY, cell)
    return False


@njit(cache=True, nogil=True)
def placement_rule(s, piece):
    """The placement rule of `piece` now: its row's, but the Queen's own where
    the S004 Wasp or Firefly is (WX-1); WX-1's rules are the usual one while
    nothing they keep away from is in play (so that perft counts them as it
    does the usual rule)."""
    bug = PIECE_BUG[piece]
    rule = BUG_PLACEMENT[bug]
    if s.info[INFO_EXPANSIONS] & (S004_WASP | S004_FIREFLY) == 0:
        return rule
    if bug == QUEEN:
        for shy in QUEEN_SHY:
            if s.piece_cell[shy] >= 0:
                return PLACE_QUEEN_AWAY
        return PLACE_BESIDE_OWN
    if rule == PLACE_AWAY_FROM_QUEENS and s.piece_cell[QUEEN_ID[0]] < 0 and s.piece_cell[QUEEN_ID[1]] < 0:
        return PLACE_BESIDE_OWN
    return rule


@njit(cache=True, nogil=True)
def placement_count(s, side):
    """How many cells `side` may place on: the count make/unmake keep, but for the
    first two plies, whose own rule placement_cells applies."""
    # G-6: none is kept for a side with no piece on the board, which only a fan
    # game's removals leave after the first plies.
    none_kept = s.info[INFO_PLACEABLE + side] == 0 and s.info[INFO_EXPANSIONS] & FAN_BITS
    if turns_past_setup(s) < 2 or none_kept:
        return placement_cells(s, side, s.work[WORK_PLACEMENTS : WORK_PLACEMENTS + NUM_CELLS])
    count = s.info[INFO_PLACEABLE + side]
    if s.info[INFO_EXPANSIONS] & HONEYCOMBO:
        count += cells_by_the_honeycomb_alone(s, -1)
    return count


@njit(cache=True, nogil=True)
def cells_by_the_honeycomb_alone(s, taken):
    """The empty cells beside the uncovered Honeycomb that touch neither colour,
    but `taken` and the cells beside it (a placement to come; -1 for none). The
    counts make and unmake keep hold the cells touching one colour only: these
    are both sides' too (HC-3)."""
    count = 0
    if s.height[ORIGIN] != 1:
        return 0
    for d in range(6):
        cell = neighbor(ORIGIN, d)
        if s.height[cell] == 0 and s.tops[0, cell] == 0 and s.tops[1, cell] == 0 and cell != taken \
                and not is_neighbour(cell, taken):
            count += 1
    return count


@njit(cache=True, nogil=True)
def _offer(s, bug, base, turn, queen_in_hand, out, count, where=AWAY_HAND):
    """placeable_pieces for one bug of the colour whose ids start at `base`: its
    lowest copy kept `where` (its owner's hand, or in Swarm the other's), if the
    Queen rules allow the bug now; returns the new count."""
    if not bug_enabled(s, bug):
        return count
    if bug == QUEEN:
        # The tournament opening, never with Predators (PR-2).
        if turn == 1 and (s.info[INFO_FLAGS] & FLAG_QUEEN_FIRST_ALLOWED) == 0 and (s.info[INFO_EXPANSIONS] & PREDATORS) == 0:
            return count
    elif turn == 4 and queen_in_hand:
        return count
    first = base + BUG_FIRST_IDS[bug]
    for piece in range(first, first + BUG_COPIES[bug]):
        if s.piece_cell[piece] < 0 and s.away[piece] == where:
            out[count] = piece
            return count + 1
    return count


@njit(cache=True, nogil=True)
def placeable_pieces(s, side, out):
    """Pieces `side` may place on its turn (now, or next if the other side is to
    move): the lowest copy in hand of each enabled bug, with the Queen rules of
    turns 1 and 4 applied; in Swarm the other colour's it holds after its own
    (SW-2: never on the turn only the Queen may be placed). Returns the count
    (at most 2 * NUM_BUGS)."""
    turn = turn_number(s, side)
    base = side * PIECES_PER_SIDE
    queen_in_hand = s.piece_cell[QUEEN_ID[side]] < 0
    count = 0
    # Constant ranges, which compile unrolled with the rows folded in; the fan
    # rows come after the official ones and are skipped at once in an official game.
    for bug in range(OFFICIAL_BUGS):
        count = _offer(s, bug, base, turn, queen_in_hand, out, count)
    if s.info[INFO_EXPANSIONS] & FAN_BITS:
        for bug in range(OFFICIAL_BUGS, NUM_BUGS):
            count = _offer(s, bug, base, turn, queen_in_hand, out, count)
    if s.info[INFO_EXPANSIONS] & SWARM:
        for bug in range(NUM_BUGS):
            count = _offer(s, bug, (1 - side) * PIECES_PER_SIDE, turn, queen_in_hand, out, count, AWAY_OTHER_HAND)
    return count


# --- All moves ----------------------------------------------------------------
@njit(cache=True, nogil=True)
def generate(s, moves, write_placements, pinned_stamp):
    """Every legal move of the side to move; returns how many there are.

    Moves are written into `moves`, except placements when `write_placements`
    is false (perft's last ply counts them as pieces x cells). `pinned_stamp`
    is 0, or the stamp of an articulation pass that `pinned` already holds for
    this position (perft's _last_two). A finished game has no moves;
    `pass` is the only move when nothing else is legal."""
    if s.info[INFO_RESULT] != IN_PROGRESS:
        return 0
    side = side_to_move(s)
    swarm = s.info[INFO_EXPANSIONS] & SWARM
    if swarm and s.info[INFO_DRAW_DUE]:
        return draws(s, moves)
    if swarm and s.info[INFO_TURNS] < SWARM_SETUP:
        return choices(s, side, moves)
    may_move = pieces_may_move(s, side)
    if may_move and pinned_stamp == 0:
        pinned_stamp = new_stamp(s)
    n = 0
    if may_move and s.info[INFO_EXPANSIONS] & S004_WASP:
        n = obliged_moves(s, moves, new_stamp(s), pinned_stamp)
        if n > 0:
            return n
        n = queen_stings(s, side, moves, wasp_stings(s, side, moves, pinned_stamp))
    stamp = new_stamp(s)  # after the Wasp's look-ahead, which stamps `seen` too
    placed = 0

    pieces = s.work[WORK_PIECES : WORK_PIECES + 2 * NUM_BUGS]
    num_pieces = placeable_pieces(s, side, pieces)
    if num_pieces > 0:
        placements = s.work[WORK_PLACEMENTS : WORK_PLACEMENTS + NUM_CELLS]
        num_cells = -1  # the usual cells (or their count), found when a piece needs them
        # The last other rule's cells, in WORK_OWN_RULE; in Swarm the other
        # colour's pieces are placed by its rules (SW-2), after the side's own.
        own_rule, own_color, own_count = -1, side, 0
        for i in range(num_pieces):
            piece = pieces[i]
            rule = placement_rule(s, piece)
            color = PIECE_COLOR[piece]
            if rule == PLACE_BESIDE_OWN and color == side:
                if num_cells < 0:
                    num_cells = placement_cells(s, side, placements) if write_placements else placement_count(s, side)
                cells = placements
                count = num_cells
            else:
                cells = s.work[WORK_OWN_RULE : WORK_OWN_RULE + NUM_CELLS]
                if rule != own_rule or color != own_color:  # the Guardians share a rule
                    own_rule, own_color = rule, color
                    own_count = rule_cells(s, color, rule, cells)
                count = own_count
            faces = placement_faces(s, piece)
            if not write_placements:
                placed += count * (1 + (faces == 3))
                continue
            for face in range(2):
                if (faces >> face) & 1:
                    for j in range(count):
                        moves[n] = encode_full(KIND_PLACE, piece, cells[j], -1, face)
                        n += 1

    if may_move:
        if s.info[INFO_EXPANSIONS] & HONEYCOMBO and s.info[INFO_HONEYCOMB] < 0 and s.height[ORIGIN] == 1:
            moves[n] = encode(KIND_FLIP, HONEYCOMB_ID, ORIGIN)  # HC-4: dark side up, uncovered, the Queen in play
            n += 1
        flips = flips_allowed(s)
        ticks = s.info[INFO_EXPANSIONS] & VENOM  # only a Venom game has the Tick face
        stings = s.info[INFO_EXPANSIONS] & S004_WASP
        frozen = s.info[INFO_FROZEN] >= 0 or s.info[INFO_EARLIER_FROZEN] >= 0  # mostly none: asked once
        for piece in range(side * PIECES_PER_SIDE, side_end(s, side)):
            cell = s.piece_cell[piece]
            if cell < 0 or (frozen and is_frozen(s, piece)) or is_covered(s, piece):
                continue
            if stings and queen_spent(s, piece):
                continue  # she never moves by herself again (WX-5), and has no other action
            level = s.piece_level[piece]
            if flips and may_flip(s, piece, cell, level):
                moves[n] = encode(KIND_FLIP, piece, cell)
                n += 1
            if ticks and BUG_ABILITIES[face_bug(s, piece)] & CONTROL:
                n = control_moves(s, piece, cell, moves, n, stamp, pinned_stamp)
            n = piece_actions(s, piece, cell, level, encode(KIND_MOVE, piece, 0), -1, moves, n, stamp, pinned_stamp)
        if swarm:
            n = steals(s, side, moves, n)

    if n + placed == 0:
        moves[0] = PASS_MOVE
        n = 1
    return n + placed


# --- Swarm's entries (§11) --------------------------------------------------------
@njit(cache=True, nogil=True)
def choices(s, side, moves):
    """SW-1: `side`'s `choose` entries, one per set of three of its bugs but the
    Queen (a bug up to its copies), each named by the lowest copies in piece
    order; returns the count."""
    base = side * PIECES_PER_SIDE
    n = 0
    for a in range(NUM_BUGS):
        for b in range(a, NUM_BUGS):
            for c in range(b, NUM_BUGS):
                if not (_choosable(s, a, 1 + (a == b) + (a == c)) and _choosable(s, b, 1 + (b == c))
                        and _choosable(s, c, 1)):
                    continue
                first = base + BUG_FIRST_IDS[a]
                second = base + BUG_FIRST_IDS[b] + (a == b)
                third = base + BUG_FIRST_IDS[c] + (a == c) + (b == c)
                moves[n] = encode_full(KIND_CHOOSE, first, second, third, 0)
                n += 1
    return n


@njit(cache=True, nogil=True)
def _choosable(s, bug, copies):
    """Whether a hand may hold `copies` of `bug` by choice: a bug of the game
    type with so many tiles, never the Queen (SW-1)."""
    return bug_enabled(s, bug) and BUG_COPIES[bug] >= copies and not BUG_FLAGS[bug] & ROYAL


@njit(cache=True, nogil=True)
def draws(s, moves):
    """SW-3: one `draw` per colour and bug in the bag, of its lowest copy;
    returns the count."""
    return _lowest_kept(s, KIND_DRAW, -1, moves, 0)


@njit(cache=True, nogil=True)
def bag_copies(s, piece):
    """How many pieces of `piece`'s colour and bug the bag holds: the weight of
    drawing it (SW-3)."""
    first = PIECE_FIRST_COPY[piece]
    count = 0
    for other in range(first, first + BUG_COPIES[PIECE_BUG[piece]]):
        count += s.away[other] == AWAY_BAG
    return count


@njit(cache=True, nogil=True)
def steals(s, side, moves, n):
    """SW-4: one `steal` per colour and bug in the opponent's hand but the
    Queens, of its lowest copy there, written from moves[n]; returns the new
    count. The caller has checked the Queen gate (G-1)."""
    return _lowest_kept(s, KIND_STEAL, 1 - side, moves, n)


@njit(cache=True, nogil=True)
def _lowest_kept(s, kind, holder, moves, n):
    """One entry of `kind` per colour and bug of the game type, Queens never,
    kept by `holder` (a side's hand, or -1 for the bag), naming its lowest copy
    there, written from moves[n]; returns the new count."""
    for color in range(2):
        for bug in range(NUM_BUGS):
            if BUG_FLAGS[bug] & ROYAL or not bug_enabled(s, bug):
                continue
            first = color * PIECES_PER_SIDE + BUG_FIRST_IDS[bug]
            for piece in range(first, first + BUG_COPIES[bug]):
                if s.away[piece] == AWAY_BAG if holder < 0 else in_hand_of(s, piece, holder):
                    moves[n] = encode(kind, piece, 0)
                    n += 1
                    break
    return n


@njit(cache=True, nogil=True)
def generate_moves(s, moves):
    """Every legal move of the side to move, written into `moves`; returns the count."""
    return generate(s, moves, True, 0)


@njit(cache=True, nogil=True)
def count_moves(s, moves, pinned_stamp):
    """How many legal moves the side to move has (`moves` is scratch space);
    `pinned_stamp` as for generate."""
    return generate(s, moves, False, pinned_stamp)


@njit(cache=True, nogil=True)
def pinned_after_placement(s, move):
    """The cell that becomes pinned when the placement `move` is made, -1 when
    none does, or -2 when the pinned cells may change otherwise.

    Adding a cell whose occupied neighbours are one cell, or two that touch each
    other, joins nothing that was apart: every cut of the hive stays a cut, the
    new cell is none, and a lone neighbour becomes one (the new cell hangs on it).
    perft uses it to keep one articulation pass for such placements. Not before
    the third turn: a hive of two has no cut."""
    if turns_past_setup(s) < 2:
        return -2
    if s.height[move_dest(move)] > 0:  # on top (the Guardians): the occupied cells stay
        return -1
    around = s.around[move_dest(move)]
    filled = FILLED[around]
    if filled == 1:
        return neighbor(move_dest(move), LOWEST_BIT[around])
    if filled == 2 and RUNS[around] == 1:
        return -1
    return -2


@njit(cache=True, nogil=True)
def count_after_placement(s, move):
    """How many moves the opponent has after the side to move makes the placement
    `move`, without making it, or -1 when that needs the move made (the opponent
    may move pieces, or the first plies' rules apply). perft's last two plies:
    the opponent's placements are its placeable pieces times its placement cells
    (usual_cells_after_placement); in a fan game a fan placement rule counts its
    own cells, and a tile whose face the placer chooses counts twice. In Swarm
    the draws that follow (_draws_after_placement)."""
    if s.info[INFO_EXPANSIONS] & SWARM:
        return _draws_after_placement(s, move)
    turns = s.info[INFO_TURNS]
    other = 1 - (turns & 1)
    if turns < 2 or pieces_may_move(s, other):
        return -1
    if s.info[INFO_EXPANSIONS] & HONEYCOMBO:
        # The next entry must be the opponent's (not the placer's second action,
        # HC-4), and the cells by the Honeycomb are counted for the usual rule only.
        if s.info[INFO_HONEYCOMB] == 1 - other and s.info[INFO_PHASE] != PHASE_SECOND:
            return -1
        if s.info[INFO_EXPANSIONS] & FAN_BITS != HONEYCOMBO:
            return -1
    if s.info[INFO_PLACEABLE + other] == 0 and s.info[INFO_EXPANSIONS] & FAN_BITS:
        return -1  # perhaps none of its colour on the board (G-6): placement_count's case
    cells = usual_cells_after_placement(s, move)
    if cells < 0:
        return 0
    pieces = s.work[WORK_PIECES : WORK_PIECES + 2 * NUM_BUGS]
    num_pieces = placeable_pieces(s, other, pieces)
    if s.info[INFO_EXPANSIONS] & FAN_BITS == 0:
        count = num_pieces * cells
    else:
        count = 0
        last_rule, rule_count = PLACE_BESIDE_OWN, cells  # the Guardians share a rule
        for i in range(num_pieces):
            piece = pieces[i]
            rule = placement_rule(s, piece)
            if rule != last_rule:
                last_rule = rule
                rule_count = cells if rule == PLACE_BESIDE_OWN else rule_cells_after_placement(s, other, rule, move)
            count += rule_count * (1 + (placement_faces(s, piece) == 3))
    return count if count > 0 else 1  # no move at all: a pass


@njit(cache=True, nogil=True)
def _draws_after_placement(s, move):
    """count_after_placement in Swarm: a placement leaves a draw due while the bag
    holds pieces (SW-3), one per colour and bug in it, which the placement does
    not change; none if it ends the game. -1 (make it) once the bag is empty."""
    kinds = 0
    for color in range(2):
        for bug in range(NUM_BUGS):
            first = color * PIECES_PER_SIDE + BUG_FIRST_IDS[bug]
            for piece in range(first, first + BUG_COPIES[bug]):
                if s.away[piece] == AWAY_BAG:
                    kinds += 1
                    break
    if kinds == 0:
        return -1
    if s.height[move_dest(move)] == 0 and placement_ends_game(s, move):
        return 0
    return kinds


@njit(cache=True, nogil=True, inline="always")
def usual_cells_after_placement(s, move):
    """How many cells the opponent may place on by the usual rule once the side
    to move makes the placement `move`: those it has now but the ones the new
    piece touches. -1 when the placement ends the game."""
    side = side_to_move(s)
    other = 1 - side
    cells = s.info[INFO_PLACEABLE + other]
    dest = move_dest(move)
    # A Guardian placed onto a pile of its colour (GU-2) changes no cell's colours
    # and no cell's neighbours.
    if s.height[dest] > 0:
        return cells
    if placement_ends_game(s, move):
        return -1
    for d in range(6):
        n = neighbor(dest, d)
        if s.height[n] == 0 and s.tops[other, n] != 0 and s.tops[side, n] == 0:
            cells -= 1
    if s.info[INFO_EXPANSIONS] & HONEYCOMBO:  # the opponent's by the Honeycomb, but those the new piece touches
        cells += cells_by_the_honeycomb_alone(s, dest)
    return cells


@njit(cache=True, nogil=True, inline="always")
def placement_ends_game(s, move):
    """Whether the placement `move` onto the ground ends the game: a Queen placed
    into a hole, or the last neighbour of a Queen (the opponent's, under a beetle
    of the side to move)."""
    dest = move_dest(move)
    if BUG_FLAGS[PIECE_BUG[move_piece(move)]] & ROYAL and s.around[dest] == ALL_AROUND:
        return True
    for queen in QUEEN_ID:
        cell = s.piece_cell[queen]
        if cell >= 0 and filled_neighbours(s.around, cell) == 5:
            for d in range(6):
                if neighbor(cell, d) == dest:
                    return True
    return False


@njit(cache=True, nogil=True)
def rule_cells_after_placement(s, side, rule, move):
    """How many cells `side`, not to move, may place a bug of the fan placement
    rule `rule` on once the placement `move` is made (rule_cells): the cells it
    has now, but the Guardians' piles the new piece comes next to, for the
    Flea its cell, those by it if it is the Queen tile, and the cells it brings
    into touch with both colours, and for WX-1's rules its cell and those by it
    (which touch the placer now). The cells now are found once for all the
    placements of a position (WORK_RULE_AFTER)."""
    kept = WORK_RULE_AFTER + (rule - 1) * RULE_CELLS_MAX
    cells = s.work[kept : kept + RULE_CELLS_MAX]
    tag = s.work[WORK_RULE_AFTER_TAG + (rule - 1) * 3 : WORK_RULE_AFTER_TAG + rule * 3]
    if tag[0] == s.info[INFO_KEY] and tag[1] == s.info[INFO_PLY]:
        now = tag[2]
    else:
        now = rule_cells(s, side, rule, cells)
        tag[0], tag[1], tag[2] = s.info[INFO_KEY], s.info[INFO_PLY], now
    dest = move_dest(move)
    if s.height[dest] > 0:  # a Guardian onto its own colour's pile: nothing changes
        return now
    mover = 1 - side
    queen_placed = move_piece(move) == QUEEN_ID[mover]
    count = now
    for i in range(now):
        cell = cells[i]
        if rule == PLACE_ON_TOP:
            count -= is_neighbour(cell, dest)
        elif rule == PLACE_BESIDE_BOTH:
            count -= cell == dest or (queen_placed and is_neighbour(cell, dest))
        else:
            count -= cell == dest or is_neighbour(cell, dest)
    if rule == PLACE_BESIDE_BOTH and not queen_placed:
        queen = s.piece_cell[QUEEN_ID[mover]]
        for d in range(6):
            n = neighbor(dest, d)
            if s.height[n] == 0 and s.tops[mover, n] == 0 and s.tops[side, n] != 0 and not (queen >= 0 and is_neighbour(n, queen)):
                count += 1
    return count


@njit(cache=True, nogil=True)
def is_pinned(s, cell):
    """Whether the ground piece at `cell` holds the hive together (One Hive)."""
    stamp = new_stamp(s)
    mark_pinned(s, stamp)
    return s.pinned[cell] == stamp
