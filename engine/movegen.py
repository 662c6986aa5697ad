"""Legal move generation (rules.md), compiled with numba.

`generate_moves(s, moves)` writes every legal move of the side to move into the
caller-owned buffer `moves` and returns how many there are. The moving piece is
lifted off the board (its cell's height lowered by one) while its destinations are
searched, so that it never props up its own path. Each destination is recorded once
per piece: the `seen` stamps merge a piece's own move with a pillbug throw to the same
cell, the union of a mosquito's borrowed moves, and spider paths that meet.
"""

import numpy as np
from numba import njit

from .board import encode_move, top_piece
from .constants import (
    ANT,
    BEETLE,
    BUG_COPIES,
    BUG_EXPANSION,
    CELL_MASK,
    DIRECTION_DELTA,
    FLAG_QUEEN_FIRST_ALLOWED,
    GRASSHOPPER,
    IN_PROGRESS,
    INFO_EXPANSIONS,
    INFO_FLAGS,
    INFO_LAST_MOVED,
    INFO_PLY,
    INFO_RESULT,
    INFO_STAMP,
    LADYBUG,
    MAX_NODES,
    MOSQUITO,
    NUM_BUGS,
    NUM_CELLS,
    ORIGIN,
    PASS_MOVE,
    PIECE_BUG,
    PIECE_COLOR,
    PIECES_PER_SIDE,
    PILLBUG,
    QUEEN,
    SPIDER,
    WORK_NODE_OF,
    WORK_NODES,
    WORK_PIECES,
    WORK_PLACEMENTS,
    WORK_QUEUE,
)

# Cells sharing an edge with both `cell` and `cell + DIRECTION_DELTA[d]` lie in
# directions LEFT[d] and RIGHT[d] from `cell`.
LEFT = np.array([5, 0, 1, 2, 3, 4], dtype=np.int64)
RIGHT = np.array([1, 2, 3, 4, 5, 0], dtype=np.int64)

# First piece id of each bug within one colour (Q, S1, B1, G1, A1, M, L, P).
BUG_FIRST_ID = np.array([sum(BUG_COPIES[:b]) for b in range(NUM_BUGS)], dtype=np.int64)
BUG_COPY_COUNT = np.array(BUG_COPIES, dtype=np.int64)



@njit(cache=True, nogil=True)
def new_stamp(s):
    """A fresh value for the scratch stamp arrays (mark, pinned, seen)."""
    s.info[INFO_STAMP] += 1
    return s.info[INFO_STAMP]


@njit(cache=True, nogil=True)
def neighbor(cell, d):
    return (cell + DIRECTION_DELTA[d]) & CELL_MASK


@njit(cache=True, nogil=True)
def can_slide(s, cell, d):
    """Freedom to move for a ground step from `cell` in direction d (rules.md,
    "Movement rules common to all bugs"): exactly one of the two shared
    neighbours must be occupied. Both is a gate, neither loses contact."""
    left = s.height[neighbor(cell, LEFT[d])] > 0
    right = s.height[neighbor(cell, RIGHT[d])] > 0
    return left != right


@njit(cache=True, nogil=True)
def can_climb(s, cell, d, h_from):
    """Climbing rule for a step from `cell` (standing on a pile of h_from pieces)
    to its neighbour in direction d, at any height (rules.md)."""
    h_to = s.height[neighbor(cell, d)]
    h_left = s.height[neighbor(cell, LEFT[d])]
    h_right = s.height[neighbor(cell, RIGHT[d])]
    if h_from == 0 and h_to == 0:
        return (h_left > 0) != (h_right > 0)
    return max(h_from, h_to) >= min(h_left, h_right)


@njit(cache=True, nogil=True)
def add_move(s, moves, n, piece, dest, stamp):
    """Append (piece, dest) unless it is already in this generation's set."""
    slot = piece * NUM_CELLS + dest
    if s.seen[slot] == stamp:
        return n
    s.seen[slot] = stamp
    moves[n] = encode_move(piece, dest)
    return n + 1


# --- Pinned pieces ----------------------------------------------------------
@njit(cache=True, nogil=True)
def mark_pinned(s, stamp):
    """Articulation points of the hive (One Hive rule), in one pass.

    Iterative Tarjan (Hopcroft-Tarjan 1973) over the occupied cells, which form the
    graph whatever the stack heights. Sets s.pinned[cell] = stamp for each cell
    whose removal would split the hive; reads height and piece arrays."""
    work = s.work
    node_of = work[WORK_NODE_OF : WORK_NODE_OF + NUM_CELLS]
    node_cell = work[WORK_NODES : WORK_NODES + MAX_NODES]
    disc = work[WORK_NODES + MAX_NODES : WORK_NODES + 2 * MAX_NODES]
    low = work[WORK_NODES + 2 * MAX_NODES : WORK_NODES + 3 * MAX_NODES]
    parent = work[WORK_NODES + 3 * MAX_NODES : WORK_NODES + 4 * MAX_NODES]
    next_dir = work[WORK_NODES + 4 * MAX_NODES : WORK_NODES + 5 * MAX_NODES]
    dfs = work[WORK_NODES + 5 * MAX_NODES : WORK_NODES + 6 * MAX_NODES]
    n = 0
    for piece in range(2 * PIECES_PER_SIDE):
        cell = s.piece_cell[piece]
        if cell >= 0 and s.piece_level[piece] == 0:
            node_of[cell] = n
            node_cell[n] = cell
            disc[n] = -1
            n += 1
    if n < 3:
        return
    clock = 0
    disc[0] = clock
    low[0] = clock
    parent[0] = -1
    next_dir[0] = 0
    dfs[0] = 0
    depth = 1
    root_children = 0
    while depth > 0:
        v = dfs[depth - 1]
        if next_dir[v] < 6:
            nc = neighbor(node_cell[v], next_dir[v])
            next_dir[v] += 1
            if s.height[nc] == 0:
                continue
            w = node_of[nc]
            if disc[w] < 0:
                clock += 1
                disc[w] = clock
                low[w] = clock
                parent[w] = v
                next_dir[w] = 0
                dfs[depth] = w
                depth += 1
                if v == 0:
                    root_children += 1
            elif w != parent[v] and disc[w] < low[v]:
                low[v] = disc[w]
        else:
            depth -= 1
            p = parent[v]
            if p >= 0:
                if low[v] < low[p]:
                    low[p] = low[v]
                if p != 0 and low[v] >= disc[p]:
                    s.pinned[node_cell[p]] = stamp
    if root_children > 1:
        s.pinned[node_cell[0]] = stamp


# --- Per-bug movement -------------------------------------------------------
# Each mover takes a piece already lifted from `cell` and appends its
# destinations; they read height (and stack for the ladybug) and return the new count.


@njit(cache=True, nogil=True)
def slide_one(s, piece, cell, moves, n, stamp):
    """Queen, and the pillbug's own move: one sliding step."""
    for d in range(6):
        dest = neighbor(cell, d)
        if s.height[dest] == 0 and can_slide(s, cell, d):
            n = add_move(s, moves, n, piece, dest, stamp)
    return n


@njit(cache=True, nogil=True)
def slide_three(s, piece, cell, moves, n, stamp):
    """Spider: exactly three sliding steps, never revisiting a cell."""
    for d1 in range(6):
        c1 = neighbor(cell, d1)
        if s.height[c1] != 0 or not can_slide(s, cell, d1):
            continue
        for d2 in range(6):
            c2 = neighbor(c1, d2)
            if c2 == cell or s.height[c2] != 0 or not can_slide(s, c1, d2):
                continue
            for d3 in range(6):
                c3 = neighbor(c2, d3)
                if c3 == cell or c3 == c1 or s.height[c3] != 0 or not can_slide(s, c2, d3):
                    continue
                n = add_move(s, moves, n, piece, c3, stamp)
    return n


@njit(cache=True, nogil=True)
def slide_any(s, piece, cell, moves, n, stamp):
    """Soldier ant: every cell reachable by sliding steps, except the start."""
    queue = s.work[WORK_QUEUE : WORK_QUEUE + NUM_CELLS]
    visit = new_stamp(s)
    s.mark[cell] = visit
    queue[0] = cell
    head = 0
    tail = 1
    while head < tail:
        c = queue[head]
        head += 1
        for d in range(6):
            dest = neighbor(c, d)
            if s.mark[dest] != visit and s.height[dest] == 0 and can_slide(s, c, d):
                s.mark[dest] = visit
                queue[tail] = dest
                tail += 1
                n = add_move(s, moves, n, piece, dest, stamp)
    return n


@njit(cache=True, nogil=True)
def jump(s, piece, cell, moves, n, stamp):
    """Grasshopper: over one or more occupied cells to the first empty one."""
    for d in range(6):
        dest = neighbor(cell, d)
        if s.height[dest] == 0:
            continue
        while s.height[dest] != 0:
            dest = neighbor(dest, d)
        n = add_move(s, moves, n, piece, dest, stamp)
    return n


@njit(cache=True, nogil=True)
def climb(s, piece, cell, moves, n, stamp):
    """Beetle (and a mosquito on top of the hive): one step at any height."""
    h_from = s.height[cell]
    for d in range(6):
        if can_climb(s, cell, d, h_from):
            n = add_move(s, moves, n, piece, neighbor(cell, d), stamp)
    return n


@njit(cache=True, nogil=True)
def ladybug_path(s, piece, cell, moves, n, stamp):
    """Ladybug: up onto the hive, one step on top, then down to empty ground."""
    for d1 in range(6):
        c1 = neighbor(cell, d1)
        if s.height[c1] == 0 or not can_climb(s, cell, d1, 0):
            continue
        h1 = s.height[c1]
        for d2 in range(6):
            c2 = neighbor(c1, d2)
            if s.height[c2] == 0 or not can_climb(s, c1, d2, h1):
                continue
            h2 = s.height[c2]
            for d3 in range(6):
                c3 = neighbor(c2, d3)
                if c3 == cell or s.height[c3] != 0 or not can_climb(s, c2, d3, h2):
                    continue
                n = add_move(s, moves, n, piece, c3, stamp)
    return n


@njit(cache=True, nogil=True)
def pillbug_throws(s, cell, moves, n, stamp, pinned_stamp):
    """Pillbug power from the (ground, uncovered) piece at `cell`: lift an
    adjacent piece over it onto an empty neighbour (rules.md, "Pillbug").

    The taken piece must stand alone on the ground, not split the hive, and not
    be the piece moved last; both halves of the lift obey the climbing rule."""
    last = s.info[INFO_LAST_MOVED]
    for d in range(6):
        src = neighbor(cell, d)
        if s.height[src] != 1 or s.pinned[src] == pinned_stamp:
            continue
        taken = s.stack[src, 0]
        if taken == last:
            continue
        # Onto the pillbug: from the ground (0) to a pile of one (the pillbug).
        if not can_climb(s, src, (d + 3) % 6, 0):
            continue
        s.height[src] = 0
        for e in range(6):
            dest = neighbor(cell, e)
            if dest != src and s.height[dest] == 0 and can_climb(s, cell, e, 1):
                n = add_move(s, moves, n, taken, dest, stamp)
        s.height[src] = 1
    return n


@njit(cache=True, nogil=True)
def bug_moves(s, bug, piece, cell, moves, n, stamp):
    """Destinations of `piece` (lifted from `cell`) moving as `bug`."""
    if bug == QUEEN or bug == PILLBUG:
        return slide_one(s, piece, cell, moves, n, stamp)
    if bug == SPIDER:
        return slide_three(s, piece, cell, moves, n, stamp)
    if bug == BEETLE:
        return climb(s, piece, cell, moves, n, stamp)
    if bug == GRASSHOPPER:
        return jump(s, piece, cell, moves, n, stamp)
    if bug == ANT:
        return slide_any(s, piece, cell, moves, n, stamp)
    if bug == LADYBUG:
        return ladybug_path(s, piece, cell, moves, n, stamp)
    return n


@njit(cache=True, nogil=True)
def mosquito_borrowed_bugs(s, cell):
    """Bit set of the bugs a ground mosquito at `cell` copies: the top piece of
    each neighbour, mosquitoes excluded (rules.md, "Mosquito")."""
    bugs = 0
    for d in range(6):
        top = top_piece(s, neighbor(cell, d))
        if top >= 0 and PIECE_BUG[top] != MOSQUITO:
            bugs |= 1 << PIECE_BUG[top]
    return bugs


# --- Placements ---------------------------------------------------------------
@njit(cache=True, nogil=True)
def placement_cells(s, side, out):
    """Cells where `side` may place a piece (rules.md, "Turns"); returns the count.

    Empty cells touching a friendly top piece and no enemy top piece; the first
    piece goes to the origin and the second next to it."""
    occupied = 0
    any_cell = -1
    for piece in range(2 * PIECES_PER_SIDE):
        if s.piece_cell[piece] >= 0:
            occupied += 1
            any_cell = s.piece_cell[piece]
    if occupied == 0:
        out[0] = ORIGIN
        return 1
    if occupied == 1:
        for d in range(6):
            out[d] = neighbor(any_cell, d)
        return 6
    visit = new_stamp(s)
    count = 0
    for piece in range(side * PIECES_PER_SIDE, (side + 1) * PIECES_PER_SIDE):
        cell = s.piece_cell[piece]
        if cell < 0 or s.piece_level[piece] != s.height[cell] - 1:
            continue
        for d in range(6):
            candidate = neighbor(cell, d)
            if s.height[candidate] != 0 or s.mark[candidate] == visit:
                continue
            s.mark[candidate] = visit
            ok = True
            for e in range(6):
                top = top_piece(s, neighbor(candidate, e))
                if top >= 0 and PIECE_COLOR[top] != side:
                    ok = False
                    break
            if ok:
                out[count] = candidate
                count += 1
    return count


@njit(cache=True, nogil=True)
def placeable_pieces(s, side, out):
    """Pieces `side` may place now: the lowest copy in hand of each enabled bug,
    with the Queen rules of turns 1 and 4 applied. Returns the count."""
    turn = s.info[INFO_PLY] // 2 + 1
    base = side * PIECES_PER_SIDE
    queen_in_hand = s.piece_cell[base] < 0
    expansions = s.info[INFO_EXPANSIONS]
    count = 0
    for bug in range(NUM_BUGS):
        if BUG_EXPANSION[bug] != 0 and (expansions & BUG_EXPANSION[bug]) == 0:
            continue
        if bug == QUEEN:
            if turn == 1 and (s.info[INFO_FLAGS] & FLAG_QUEEN_FIRST_ALLOWED) == 0:
                continue
        elif turn == 4 and queen_in_hand:
            continue
        first = base + BUG_FIRST_ID[bug]
        for piece in range(first, first + BUG_COPY_COUNT[bug]):
            if s.piece_cell[piece] < 0:
                out[count] = piece
                count += 1
                break
    return count


# --- All moves ----------------------------------------------------------------
@njit(cache=True, nogil=True)
def generate_moves(s, moves):
    """Every legal move of the side to move, written into `moves`; returns the count.

    A finished game has no moves; `pass` is the only move when nothing else is legal."""
    if s.info[INFO_RESULT] != IN_PROGRESS:
        return 0
    side = s.info[INFO_PLY] & 1
    stamp = new_stamp(s)
    n = 0

    placements = s.work[WORK_PLACEMENTS : WORK_PLACEMENTS + NUM_CELLS]
    pieces = s.work[WORK_PIECES : WORK_PIECES + NUM_BUGS]
    num_pieces = placeable_pieces(s, side, pieces)
    if num_pieces > 0:
        num_cells = placement_cells(s, side, placements)
        for i in range(num_pieces):
            for j in range(num_cells):
                moves[n] = encode_move(pieces[i], placements[j])
                n += 1

    base = side * PIECES_PER_SIDE
    if s.piece_cell[base] >= 0:  # no movement before the own Queen is placed
        pinned_stamp = new_stamp(s)
        mark_pinned(s, pinned_stamp)
        last = s.info[INFO_LAST_MOVED]
        for piece in range(base, base + PIECES_PER_SIDE):
            cell = s.piece_cell[piece]
            if cell < 0 or piece == last:
                continue
            level = s.piece_level[piece]
            if level != s.height[cell] - 1:
                continue  # covered
            bug = PIECE_BUG[piece]
            borrowed = 0
            if bug == MOSQUITO and level == 0:
                borrowed = mosquito_borrowed_bugs(s, cell)
            # The pillbug's power works even when the pillbug itself is pinned.
            if level == 0 and (bug == PILLBUG or (borrowed & (1 << PILLBUG)) != 0):
                n = pillbug_throws(s, cell, moves, n, stamp, pinned_stamp)
            if level == 0 and s.pinned[cell] == pinned_stamp:
                continue
            s.height[cell] -= 1
            if bug == MOSQUITO:
                if level > 0:
                    n = climb(s, piece, cell, moves, n, stamp)
                else:
                    for b in range(NUM_BUGS):
                        if (borrowed >> b) & 1:
                            n = bug_moves(s, b, piece, cell, moves, n, stamp)
            else:
                n = bug_moves(s, bug, piece, cell, moves, n, stamp)
            s.height[cell] += 1

    if n == 0:
        moves[0] = PASS_MOVE
        n = 1
    return n


@njit(cache=True, nogil=True)
def is_pinned(s, cell):
    """Whether the ground piece at `cell` holds the hive together (One Hive)."""
    stamp = new_stamp(s)
    mark_pinned(s, stamp)
    return s.pinned[cell] == stamp
