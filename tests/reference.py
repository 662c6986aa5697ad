"""A plain-Python reference move generator for Hive and its fan pieces, used only by the tests.

Written to be obvious, not fast: `../shared/spec/rules.md` (quoted below as
"rules.md, <section>") and `../shared/spec/fan-rules.md` (quoted as
"fan-rules.md §x.y ID") read line by line, over the simplest data there is.

- A cell is an axial pair (q, r) (uhp.md, "Directions"): q grows to the east,
  r to the south-east; the first piece stands on (0, 0).
- A position is a dict from cell to its stack, a list of piece names
  bottom-first (`{(0, 0): ["wQ", "bB1"]}`: bB1 on top of wQ). Empty cells are
  absent from the dict. The statuses of the previous turn (fan-rules.md §3.2:
  `Last`, `Frozen`, `Prime`, `Placed`) are kept beside it.
- A move is a tuple (piece name, destination cell), or the string "pass". A
  throw is written as a move of the thrown piece, as in UHP; a Guardian placed
  on an occupied cell lands on top of it; a Sperling's Dragonfly leaving the top
  of a piece for an empty cell carries that piece when the rules say so
  (fan-rules.md §9.3 DX-3). The state after a move follows from the tuple, so
  the legal moves form a set in which two ways to one state are one move
  (fan-rules.md §3.5 ID-1; rules.md, "Pillbug").
- Venom (fan-rules.md §6): every official piece is a two-faced tile, (colour,
  front bug, ordinal). In hand a tile has its front name (wB1); on the board,
  in the statuses and in moves it is named by the face it shows (tile B1
  Firefly side up is wF1, the Queen tile Wasp side up wW, tile G2 Dragonfly side
  up wD2). A placement's name is the face chosen: ("wD2", cell) places tile G2
  Dragonfly side up. Three more kinds of move: an own flip (name before, "~"),
  a Wasp Queen's sting (actor, "~", victim's name before) and a Centipede's swap
  (actor, "=", target), printed `wG2 ~`, `wW ~bA1`, `wC =bS1` (§4.2). A Tick's
  mind control (§6.7) makes the moves of the enemy piece it controls: its
  movement is (piece, cell, "@"), printed `bQ bP/ @wT` (the piece moved, not
  Frozen); its abilities make their own moves (a throw, a sting ...), printed
  with ` @wT` when only the Tick reaches them (NO-5).
- Predators (fan-rules.md §7): a removal is (actor, "x", target), printed
  `wK xbA1`; both leave the game (Position.removed) and a Queen tile removed
  loses at once.

The bugs live in ONE table, `BUGS`, keyed by code: each row names its
placement rule, movement functions and abilities (the throw). The Mosquito's
row only says that it copies its neighbours' rows, and a row says what it lends
a Mosquito when that is not its own movement. A new bug is one more row and its
functions. Nothing here imports the engine: the tests compare the two.

>>> position = Position.from_game_string("Base+MLP;InProgress;White[2];wG1;bL /wG1")
>>> sorted(move_string(position, m) for m in position.legal_moves())[:3]
['wA1 \\\\wG1', 'wA1 wG1-', 'wA1 wG1/']
>>> len(position.legal_moves())
24
>>> parse_game_type("base+j+mlp+guardians+dx+e").text
'Base+MLP+Guardians+Dx+E+J'
>>> venom = Position.from_example("Base+Venom", "(0,0) wQ · (1,0) bQ · (-1,0) wB1 · (0,1) bA1")
>>> sorted(move_string(venom, m) for m in venom.legal_moves() if m[0] == "wB1")
['wB1 -bA1', 'wB1 \\\\wQ', 'wB1 wQ', 'wB1 ~']
>>> venom.play(venom.parse("wF1 ~"))  # tile B1 turns Firefly side up
>>> sorted(move_string(venom, m) for m in venom.legal_moves() if m[0] in ("bQ", "wF1"))
['bQ bA1-', 'bQ wQ/', 'bQ ~']
>>> venom.last, venom.hand["w"][:3]  # Last by the new face; a hand by front names
(frozenset({'wF1'}), ['wS1', 'wS2', 'wB2'])
"""

import re
from collections import deque
from collections.abc import Callable
from functools import lru_cache, partial
from itertools import combinations
from typing import NamedTuple

COLORS = ("w", "b")
WHITE, BLACK = COLORS

# The six directions in order around the hex, so that directions i - 1 and
# i + 1 (mod 6) are the two cells that touch both a cell and its neighbour in
# direction i. The UHP marks: E `X-`, NE `X/`, NW `\X`, W `-X`, SW `/X`, SE `X\`.
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
ORIGIN = (0, 0)


# --- Geometry -------------------------------------------------------------------------
def add(cell, direction):
    return cell[0] + direction[0], cell[1] + direction[1]


@lru_cache(maxsize=None)
def neighbours(cell):
    """The six cells around `cell` (remembered: perft asks for the same cells often)."""
    return tuple(add(cell, d) for d in DIRECTIONS)


def diagonal_cells(cell):
    """fan-rules.md §1.2 `Diag(c)`: the six cells c + dir[i] + dir[i±1] at
    distance 2 (one step, then one to the left or right of it; never two
    straight)."""
    return [add(add(cell, DIRECTIONS[i]), DIRECTIONS[(i + 1) % 6]) for i in range(6)]


def shared_neighbours(a, b):
    """The two cells that touch both a and its neighbour b."""
    i = DIRECTIONS.index((b[0] - a[0], b[1] - a[1]))
    return add(a, DIRECTIONS[(i - 1) % 6]), add(a, DIRECTIONS[(i + 1) % 6])


def height(stacks, cell):
    """Number of pieces on a cell."""
    return len(stacks.get(cell, ()))


def occupied(stacks, cell):
    return height(stacks, cell) > 0


def touches_hive(stacks, cell):
    """fan-rules.md §1.2 `Touch(e)`: the cell has an occupied neighbour (in
    `stacks`, from which the movers have been lifted)."""
    return any(occupied(stacks, n) for n in neighbours(cell))


def colour(piece):
    return piece[0]


HONEYCOMB = "nH"  # the neutral Honeycomb tile (fan-rules.md §10)
NEUTRAL = "n"


def untouchable(piece):
    """fan-rules.md §3.7: never the target of an ability: an uncovered Stink bug
    (IM-1; the callers look at tops only) and the Honeycomb (IM-2)."""
    return piece == HONEYCOMB or bug(piece) == STINK_BUG


def bug(piece):
    """The bug code of a piece name: wS1 -> S, bDx -> Dx (fan-rules.md §4.1)."""
    return piece[1:].rstrip("0123456789")


def top(stacks, cell):
    """The top piece of a cell, None when it is empty."""
    stack = stacks.get(cell)
    return stack[-1] if stack else None


def top_colour(stacks, cell):
    """The colour of a cell's top piece (a stack counts as the colour of its
    top), None when the cell is empty."""
    piece = top(stacks, cell)
    return None if piece is None else colour(piece)


def without(stacks, *cells):
    """A copy of `stacks` with the top piece of each of `cells` lifted off
    (rules.md, "Movement rules common to all bugs": the moving piece is lifted
    off the board while its moves are generated). A cell named twice loses two."""
    lifted = {c: list(s) for c, s in stacks.items()}
    for cell in cells:
        lifted[cell].pop()
        if not lifted[cell]:
            del lifted[cell]
    return lifted


# --- The rules common to all bugs (rules.md, "Movement rules common to all bugs") --------
def is_connected(stacks):
    """One Hive: every occupied cell reachable from any other, by breadth-first
    search over neighbouring occupied cells."""
    cells = set(stacks)
    if not cells:
        return True
    start = next(iter(cells))
    seen = {start}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for n in neighbours(cell):
            if n in cells and n not in seen:
                seen.add(n)
                queue.append(n)
    return seen == cells


def can_slide(stacks, a, b):
    """Freedom to move: a ground step from a to the empty neighbour b needs
    exactly one of the two shared neighbours occupied (both: a gate; neither: the
    piece would lose contact with the hive)."""
    if occupied(stacks, b):
        return False
    left, right = shared_neighbours(a, b)
    return occupied(stacks, left) != occupied(stacks, right)


def can_climb(stacks, a, b, h_from):
    """Climbing rule: a step from a, standing at height h_from (the pile under the
    piece), to the neighbour b is blocked when max(h_from, h_to) < min(h_l, h_r).
    A ground-to-ground step also needs contact, as in sliding. (fan-rules.md §1.2
    `Step`; `Climb` is a Step onto an occupied cell, `Descend` one from on top
    down to an empty ground cell.)"""
    h_to = height(stacks, b)
    left, right = shared_neighbours(a, b)
    h_l, h_r = height(stacks, left), height(stacks, right)
    if max(h_from, h_to) < min(h_l, h_r):
        return False
    if h_from == 0 and h_to == 0:
        return h_l > 0 or h_r > 0
    return True


# --- The bugs' movements (rules.md, "The bugs") ----------------------------------------
# Each takes the stacks with the mover lifted off and its start cell, and returns
# the set of destination cells.
def slide_one(stacks, start):
    """Queen Bee (and the Pillbug's own move): one sliding step."""
    return {n for n in neighbours(start) if can_slide(stacks, start, n)}


def beetle_step(stacks, start):
    """Beetle: one step in any direction, on the ground or onto, along and down
    from the top of the hive, obeying the climbing rule."""
    h_from = height(stacks, start)
    return {n for n in neighbours(start) if can_climb(stacks, start, n, h_from)}


def grasshopper_jump(stacks, start):
    """Grasshopper: a straight line over one or more occupied cells to the first
    empty one; never to a neighbouring empty cell; sliding rules do not apply."""
    destinations = set()
    for d in DIRECTIONS:
        cell = add(start, d)
        if not occupied(stacks, cell):
            continue
        while occupied(stacks, cell):
            cell = add(cell, d)
        destinations.add(cell)
    return destinations


def spider_walk(stacks, start):
    """Spider: exactly three sliding steps, never visiting a cell twice in the
    move (its start cell included). Every path is followed, ends collected."""
    ends = set()

    def walk(path):
        if len(path) == 4:
            ends.add(path[-1])
            return
        for n in slide_one(stacks, path[-1]):
            if n not in path:
                walk(path + [n])

    walk([start])
    return ends


def ant_walk(stacks, start):
    """Soldier Ant: any number of sliding steps; every reachable empty cell
    other than its start (breadth-first search)."""
    seen = {start}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for n in slide_one(stacks, cell):
            if n not in seen:
                seen.add(n)
                queue.append(n)
    return seen - {start}


def ladybug_walk(stacks, start):
    """Ladybug: up onto the hive, one step along its top, down to an empty ground
    cell; every step obeys the climbing rule; never ends where it started."""
    ends = set()
    for first in neighbours(start):
        if not occupied(stacks, first) or not can_climb(stacks, start, first, height(stacks, start)):
            continue
        for second in neighbours(first):
            if not occupied(stacks, second) or not can_climb(stacks, first, second, height(stacks, first)):
                continue
            for third in neighbours(second):
                if third != start and not occupied(stacks, third):
                    if can_climb(stacks, second, third, height(stacks, second)):
                        ends.add(third)
    return ends


def flea_move(stacks, start):
    """fan-rules.md §9.1 E-2 Flea: one Slide, or a jump over exactly one occupied
    cell (any height) to the empty cell straight beyond, ignoring gates."""
    destinations = slide_one(stacks, start)
    for d in DIRECTIONS:
        over, beyond = add(start, d), add(add(start, d), d)
        if occupied(stacks, over) and not occupied(stacks, beyond):
            destinations.add(beyond)
    return destinations


def up_one_down_one(stacks, start):
    """fan-rules.md §9.2 J-1 Woodlouse, as §6.6 U-1: one Climb onto an occupied
    neighbour a, then one Descend to an empty ground neighbour e of a, e not the
    start (a Ladybug without the middle step); the climbing rule on each step."""
    ends = set()
    for first in neighbours(start):
        if not occupied(stacks, first) or not can_climb(stacks, start, first, height(stacks, start)):
            continue
        for second in neighbours(first):
            down = second != start and not occupied(stacks, second)
            if down and can_climb(stacks, first, second, height(stacks, first)):
                ends.add(second)
    return ends


def firefly_move(stacks, start):
    """fan-rules.md §6.2 Firefly. F-1 on the ground: exactly two Climbs, onto
    an occupied neighbour a, then onto an occupied neighbour b of a, ending on
    top of b (no ground step, no single climb, never down on the second step).
    F-2 on top: the Beetle's step, onto a neighbour or down if it is empty. The
    climbing rule on every step (F-2 [Fi4])."""
    if occupied(stacks, start):  # on top: the pieces below are still there
        return beetle_step(stacks, start)
    ends = set()
    for first in neighbours(start):
        if not occupied(stacks, first) or not can_climb(stacks, start, first, 0):
            continue
        for second in neighbours(first):
            if occupied(stacks, second) and can_climb(stacks, first, second, height(stacks, first)):
                ends.add(second)
    return ends


def colony_dragonfly_move(stacks, start):
    """fan-rules.md §6.3 Dragonfly. D-1 on the ground: one Climb onto an
    occupied neighbour, nothing else. D-2 on top at c: for every direction d with
    c + d occupied it lands on the ground at `Line(c, d)`, ignoring gates and
    heights (the Grasshopper's line from up there); never a simple step down to
    an empty neighbour, and no move without an occupied neighbour."""
    if occupied(stacks, start):
        return grasshopper_jump(stacks, start)
    return {n for n in neighbours(start) if occupied(stacks, n) and can_climb(stacks, start, n, 0)}


def tick_move(stacks, start):
    """fan-rules.md §6.7 Tick. T-1 on the ground: one Climb onto an occupied
    neighbour. T-2 on top: one Descend to an empty ground neighbour, never onto
    another stack or along the top. The climbing rule on each (a Mosquito copies
    from the ground: the climb only, T-4)."""
    if occupied(stacks, start):
        h = height(stacks, start)
        return {n for n in neighbours(start) if not occupied(stacks, n) and can_climb(stacks, start, n, h)}
    return {n for n in neighbours(start) if occupied(stacks, n) and can_climb(stacks, start, n, 0)}


def mantis_walk(stacks, start):
    """fan-rules.md §9.5 NX-1 Mantis (S004): one, two or three Slides without
    visiting a cell twice, the union of the ends."""
    ends = set()

    def walk(path):
        if len(path) > 1:
            ends.add(path[-1])
        if len(path) < 4:
            for n in slide_one(stacks, path[-1]):
                if n not in path:
                    walk(path + [n])

    walk([start])
    return ends


def scorpion_walk(stacks, start):
    """fan-rules.md §6.4 R-1 Scorpion: exactly two Slides s -> x -> y, y not s."""
    return {end for middle in slide_one(stacks, start) for end in slide_one(stacks, middle) if end != start}


def fly_move(stacks, start, target):
    """fan-rules.md §6.5 Y-2 Fly: from anywhere to the top of the target cell T
    (the opponent's `Prime`, Y-1), then a Descend to an empty ground neighbour e
    of T, stepping from the pile height h(T) with the climbing rule; e not its
    start. (`stacks` has the Fly lifted; the caller has checked T is not the
    Fly's own cell.)"""
    h = height(stacks, target)
    return {
        e for e in neighbours(target)
        if e != start and not occupied(stacks, e) and can_climb(stacks, target, e, h)
    }


def dragonfly_hop(stacks, start):
    """fan-rules.md §9.3 DX-1..DX-3 Sperling's Dragonfly: to a `Diag` cell F
    (the middle cell empty or occupied, gates ignored): on top of F when it is
    occupied, else on the ground at F when F touches the hive. From on top of a
    piece the same cells are reached, carrying that piece or not
    (`Position.dragonfly_cargo` decides): F is two cells away from the start, so
    it touches the hive with the cargo lifted exactly when it does without."""
    return {f for f in diagonal_cells(start) if occupied(stacks, f) or touches_hive(stacks, f)}


def dragonfly_hop_to_ground(stacks, start):
    """fan-rules.md §9.3 DX-5, §5.1: what a Mosquito borrows from a Sperling's
    Dragonfly: a hop to an empty ground `Diag` cell that touches the hive (never
    on top, never carrying)."""
    return {f for f in diagonal_cells(start) if not occupied(stacks, f) and touches_hive(stacks, f)}


def moth_flight(stacks, start):
    """fan-rules.md §8 V-1 Moth: Descend from its cell c to an empty ground
    neighbour e, then Climb from e onto an occupied neighbour b of e, b not c;
    it ends on top of b (GU-3: exactly two steps, the climbing rule on each). A
    Moth starts on top of the hive, so c stays occupied with it lifted."""
    ends = set()
    if not occupied(stacks, start):
        return ends
    for down in neighbours(start):
        if occupied(stacks, down) or not can_climb(stacks, start, down, height(stacks, start)):
            continue
        for up in neighbours(down):
            if up != start and occupied(stacks, up) and can_climb(stacks, down, up, 0):
                ends.add(up)
    return ends


def butterfly_flight(stacks, start):
    """fan-rules.md §8 Z-1 Butterfly: Step from c onto an occupied neighbour a,
    then onto an occupied neighbour b of a, b not c; it ends on top of b and never
    goes down (GU-3: exactly two steps, the climbing rule on each)."""
    ends = set()
    for first in neighbours(start):
        if not occupied(stacks, first) or not can_climb(stacks, start, first, height(stacks, start)):
            continue
        for second in neighbours(first):
            up = second != start and occupied(stacks, second)
            if up and can_climb(stacks, first, second, height(stacks, first)):
                ends.add(second)
    return ends


def s004_moth_flight(stacks, start, own):
    """fan-rules.md §9.4 VX-2 Moth (S004), of colour `own`: a search over
    occupied cells, a Step at a time onto an occupied neighbour under the
    climbing rule [Mo4]. A cell topped by the other colour is a destination and
    the path stops there [Mo1]; one topped by its own colour it may cross; it
    never enters an empty cell. It lands on top of a destination, never its
    start [Mo2]."""
    ends = set()
    crossed = {start}
    frontier = [start]
    while frontier:
        cell = frontier.pop()
        for n in neighbours(cell):
            if not occupied(stacks, n) or n in crossed or n in ends:
                continue
            if not can_climb(stacks, cell, n, height(stacks, cell)):
                continue
            if top_colour(stacks, n) in (own, NEUTRAL):  # HC-3: it crosses the Honeycomb, never stops on it
                crossed.add(n)
                frontier.append(n)
            else:
                ends.add(n)
    return ends - {start}


def queen_cells(stacks):
    """The cells holding a Queen at any level."""
    return {cell for cell, stack in stacks.items() if any(bug(p) == QUEEN for p in stack)}


def wasp_flight(stacks, start):
    """fan-rules.md §9.6 WX-2, §9.7 FX-1: the S004 Wasp's and Firefly's flight to
    any empty ground cell other than the start that touches the hive (the flier
    lifted) and has no Queen on an adjacent cell at any level, ignoring distance
    and gates."""
    queens = queen_cells(stacks)
    cells = {n for cell in stacks for n in neighbours(cell) if not occupied(stacks, n)}
    return {e for e in cells - {start} if not queens & set(neighbours(e))}


# --- Abilities ----------------------------------------------------------------------
def throw(position, user_cell):
    """The Pillbug's special power (rules.md, "Pillbug"), also the Woodlouse's
    (fan-rules.md §9.2 J-2) and a Mosquito's next to either, used by the top
    piece of `user_cell`: lift an adjacent piece over itself onto an empty cell
    adjacent to itself. Returns moves of the thrown pieces."""
    stacks = position.stacks
    user = top(stacks, user_cell)
    # The thrower: uncovered (a covered piece is never the caller's top piece),
    # on the ground (a Mosquito up there is a Beetle), not in `Last` or `Frozen`
    # (fan-rules.md §3.3); it may throw while pinned (J-2 [X2]).
    if height(stacks, user_cell) != 1 or user in position.last or user in position.frozen:
        return set()
    moves = set()
    for source in neighbours(user_cell):
        target = top(stacks, source)
        # The thrown piece (fan-rules.md §5.2): a lone ground piece, not in `Last`
        # or `Frozen`, movable without breaking the One Hive rule. (Guardians,
        # always on top, are never lone ground pieces, GU-3.)
        if target is None or height(stacks, source) != 1:
            continue
        if target in position.last or target in position.frozen:
            continue
        if untouchable(target):  # §3.7: an uncovered Stink bug, the Honeycomb are never thrown
            continue
        lifted = without(stacks, source)
        if not is_connected(lifted):
            continue
        # Onto the thrower (from the ground, height 0) ...
        if not can_climb(lifted, source, user_cell, 0):
            continue
        # ... then down from its top to an empty neighbour of the thrower.
        for dest in neighbours(user_cell):
            if dest != source and not occupied(lifted, dest):
                if can_climb(lifted, user_cell, dest, height(lifted, user_cell)):
                    moves.add((target, dest))
    return moves


def wasp_sting(position, user_cell):
    """fan-rules.md §6.1 W-2, the Wasp Queen's sting, used by the top piece of
    `user_cell` (uncovered, and not `Frozen`: the caller checks; it may be
    pinned): the target is an enemy Venom tile on an adjacent cell, a lone
    ground piece, not in `Last`, not `Frozen`, not showing the Stink bug (IM-1).
    Single-sided fan pieces have no back [decision]. Returns stings, (wasp, "~",
    victim); the victim turns over (W-3: a Scorpion does not stop it)."""
    stacks = position.stacks
    wasp = top(stacks, user_cell)
    moves = set()
    for cell in neighbours(user_cell):
        target = top(stacks, cell)
        if target is None or height(stacks, cell) != 1 or colour(target) == position.to_move:
            continue
        if len(position.rules.faces(bug(tile_of(target)))) != 2:  # not a two-faced tile
            continue
        if target in position.last or target in position.frozen or untouchable(target):
            continue
        moves.add((wasp, "~", target))
    return moves


def centipede_swap(position, user_cell):
    """fan-rules.md §6.8 C-1..C-3, the Centipede's swap, used by the top piece of
    `user_cell` (not `Frozen`: the caller checks). The Centipede, not pinned
    (C-1, §3.6), finds its path with itself lifted: a Climb onto a1, a Step onto
    a2, a Step onto t, all three occupied and distinct, the climbing rule on each.
    The target t: a lone ground piece of either colour (either Queen included),
    not `Frozen`, not a Stink bug (IM-1); it may be pinned, `Last` does not
    matter. Returns swaps, (centipede, "=", target): the target goes to the
    Centipede's cell and the Centipede to t's (C-3)."""
    stacks = position.stacks
    centipede = top(stacks, user_cell)
    lifted = without(stacks, user_cell)
    if height(stacks, user_cell) == 1 and not is_connected(lifted):
        return set()
    moves = set()
    for a1 in neighbours(user_cell):
        if not occupied(lifted, a1) or not can_climb(lifted, user_cell, a1, height(lifted, user_cell)):
            continue
        for a2 in neighbours(a1):
            if not occupied(lifted, a2) or not can_climb(lifted, a1, a2, height(lifted, a1)):
                continue
            for t in neighbours(a2):
                if t in (a1, user_cell) or not occupied(lifted, t) or not can_climb(lifted, a2, t, height(lifted, a2)):
                    continue
                target = top(lifted, t)
                if height(lifted, t) == 1 and target not in position.frozen and not untouchable(target):
                    moves.add((centipede, "=", target))
    return moves


def predator_protected(position, cell):
    """fan-rules.md §7 PR-3: the top piece of `cell` may not be removed by a
    Predator: it is a Stink bug, or an uncovered Stink bug (of either colour)
    stands next to it (IM-1)."""
    stacks = position.stacks
    return bug(top(stacks, cell)) == STINK_BUG or any(
        occupied(stacks, n) and bug(top(stacks, n)) == STINK_BUG for n in neighbours(cell))


def killer_kill(position, user_cell):
    """fan-rules.md §7 K-2, the Killer beetle's kill, used by the top piece of
    `user_cell` (uncovered, not `Frozen`: the caller checks): the target is an
    enemy lone ground piece on an adjacent cell, not in `Last`, not protected
    (PR-3), reached by a Climb that passes the climbing rule [P4]; the hive stays
    connected without the killer and without both (§3.6). Returns removals,
    (killer, "x", target): both leave the game (a Mosquito copying it, PR-4, is
    removed in its place)."""
    stacks = position.stacks
    killer = top(stacks, user_cell)
    if height(stacks, user_cell) != 1 or not is_connected(without(stacks, user_cell)):
        return set()
    lifted = without(stacks, user_cell)
    moves = set()
    for cell in neighbours(user_cell):
        target = top(stacks, cell)
        if target is None or height(stacks, cell) != 1 or colour(target) == position.to_move:
            continue
        if target in position.last or untouchable(target) or predator_protected(position, cell):
            continue
        if can_climb(lifted, user_cell, cell, 0) and is_connected(without(stacks, user_cell, cell)):
            moves.add((killer, "x", target))
    return moves


def mantis_jump(position, user_cell):
    """fan-rules.md §7 N-2, the Mantis's jump, used by the top piece of
    `user_cell` (uncovered, not `Frozen`: the caller checks), not pinned: the
    target is `Placed`, the piece the opponent's last turn placed [P2], if it is
    the opponent's [P3] and in play, anywhere [P1], not protected (PR-3); the hive
    stays connected without the Mantis and, for a lone ground target, without
    both (§3.6). No climbing rule. Returns removals, (mantis, "x", target)."""
    stacks = position.stacks
    mantis = top(stacks, user_cell)
    target = position.placed
    if target is None or colour(target) == position.to_move:
        return set()
    cell = position.cell_of(target)
    if cell is None or top(stacks, cell) != target or predator_protected(position, cell):
        return set()
    if height(stacks, user_cell) == 1 and not is_connected(without(stacks, user_cell)):
        return set()
    if height(stacks, cell) == 1 and not is_connected(without(stacks, user_cell, cell)):
        return set()
    return {(mantis, "x", target)}


# --- Placement rules ----------------------------------------------------------------
# Each takes the position and the piece to place and returns the cells it may go
# to; a cell that is occupied means on top of it.
def own_moves(position, cell):
    """The destinations of the top piece of `cell` by its own movement only (no
    ability), with its own rules (One Hive, gates, climbing): what an obligation
    leaves it (WX-3, WX-4) and what a Firefly's command plays (FX-2)."""
    movements, targeted, _ = position.powers(cell)
    return position.destinations(cell, movements, targeted)


def mantis_capture(position, user_cell):
    """fan-rules.md §9.5 NX-2, the S004 Mantis's removal (instead of moving; a
    Mosquito copies it, NX-5): the top piece p of an adjacent cell, either
    colour, not a Stink bug (IM-1; nor the Honeycomb); Conn(-{m} + {t if p is a
    lone ground piece}) (§3.6) and the board not left empty (G-7). (user, "x", p);
    Position.play says where the two go."""
    user = top(position.stacks, user_cell)
    moves = set()
    for cell in neighbours(user_cell):
        p = top(position.stacks, cell)
        if p is None or untouchable(p):
            continue
        lone = height(position.stacks, cell) == 1
        rest = without(position.stacks, user_cell, *([cell] if lone else []))
        if not rest or not is_connected(rest):
            continue
        # ID-1: a Mantis of the side to move taking its own ground Mosquito leaves
        # the state of the Mosquito's copy taking the Mantis (both in hand): one
        # move, named by the Mosquito when it is free to act.
        mosquito = bug(p) == "M" and lone and p not in position.frozen
        if bug(user) == "Nx" and colour(p) == colour(user) == position.to_move and mosquito:
            moves.add((p, "x", user))
        else:
            moves.add((user, "x", p))
    return moves


def wasp_oblige(position, user_cell):
    """fan-rules.md §9.6 WX-3, the S004 Wasp's sting (instead of moving; it may be
    pinned): an enemy lone ground piece t on an adjacent cell that, in the
    position after the sting with its owner to move, has at least one own move
    ending neither on nor next to the Wasp's cell (its owner's Queen gate, G-1).
    (wasp, "!", t)."""
    wasp = top(position.stacks, user_cell)
    moves = set()
    for cell in neighbours(user_cell):
        stack = position.stacks.get(cell, [])
        if len(stack) != 1 or colour(stack[0]) == colour(wasp) or untouchable(stack[0]):
            continue
        victim = stack[0]
        if not position.in_play(colour(victim) + QUEEN):
            continue
        if any(d != user_cell and d not in neighbours(user_cell) for d in own_moves(position, cell)):
            moves.add((wasp, "!", victim))
    return moves


def firefly_command(position, user_cell):
    """fan-rules.md §9.7 FX-2, the S004 Firefly's mind control (instead of moving;
    it may be pinned): t an enemy piece on top of an adjacent cell at any level,
    not Frozen (it may be in Last, or a Queen): t's movement only, by its own
    rules, played by the Firefly's side (only its Queen gate counts), after
    which t is Frozen: moves (t, dest), a throw's state (EX-ID1)."""
    side = colour(top(position.stacks, user_cell))
    moves = set()
    for cell in neighbours(user_cell):
        t = top(position.stacks, cell)
        if t is None or colour(t) == side or t in position.frozen or untouchable(t):
            continue
        moves |= {(t, dest) for dest in own_moves(position, cell)}
    return moves


def queen_sting(position, user_cell):
    """fan-rules.md §9.6 WX-5, the Queen's sting, only in game types with the S004
    Wasp [Wx5], once per game per colour, instead of moving, pinned or not: the
    top piece of an adjacent cell, an enemy piece and not the enemy Queen [Wx4:
    a stacked top is fine], goes back to its owner's hand; Conn(-{t}) when it is
    a lone ground piece (§3.6). (queen, "x", t)."""
    queen = top(position.stacks, user_cell)
    if "Wx" not in position.rules.bugs or colour(queen) in position.stings_used:
        return set()
    moves = set()
    for cell in neighbours(user_cell):
        t = top(position.stacks, cell)
        if t is None or colour(t) == colour(queen) or bug(t) == QUEEN or untouchable(t):
            continue
        if height(position.stacks, cell) == 1 and not is_connected(without(position.stacks, cell)):
            continue
        moves.add((queen, "x", t))
    return moves


def away_from_queens_placement(position, piece):
    """fan-rules.md §9.6 WX-1 (also the S004 Firefly's, FX-1): the usual placement,
    never adjacent to a cell holding a Queen (either colour, any level)."""
    queens = queen_cells(position.stacks)
    return {cell for cell in ordinary_placement(position, piece) if not queens & set(neighbours(cell))}


def ordinary_placement(position, piece):
    """fan-rules.md §1.3 G-5, G-6 (rules.md, "Turns"): on an empty board the
    origin; with no piece of the placed piece's colour on the board, any empty
    ground cell touching the hive; otherwise an empty ground cell touching at
    least one cell topped by its colour and none topped by the other colour."""
    stacks = position.stacks
    if not stacks:
        return {ORIGIN}
    side = colour(piece)
    empty = {n for cell in stacks for n in neighbours(cell) if not occupied(stacks, n)}
    if not any(colour(p) == side for stack in stacks.values() for p in stack):
        return empty
    cells = set()
    for cell in empty:
        tops = {top_colour(stacks, n) for n in neighbours(cell)} - {None}
        if tops and tops <= {side, NEUTRAL}:  # HC-3: the Honeycomb is a friendly neighbour for both
            cells.add(cell)
    return cells


def queen_placement(position, piece):
    """The Queen's: the usual placement, but (fan-rules.md §9.6 WX-1) never
    adjacent to a cell holding an S004 Wasp or Firefly (either colour, any level)."""
    shy = {cell for cell, stack in position.stacks.items() if any(bug(p) in ("Wx", "Fx") for p in stack)}
    return {cell for cell in ordinary_placement(position, piece) if not shy & set(neighbours(cell))}


def flea_placement(position, piece):
    """fan-rules.md §9.1 E-1: an empty ground cell touching at least one cell
    topped by the Flea's colour and at least one topped by the other colour, and
    not next to a cell holding the other colour's Queen at any level, covered or
    not. So never a first piece. With Venom the Queen tile counts on either face
    (§6.1: the Wasp Queen is still the royal piece) [decision]."""
    stacks = position.stacks
    side = colour(piece)
    enemy_queen = other(side) + QUEEN
    empty = {n for cell in stacks for n in neighbours(cell) if not occupied(stacks, n)}
    cells = set()
    for cell in empty:
        tops = {top_colour(stacks, n) for n in neighbours(cell)}
        near_queen = any(tile_of(p) == enemy_queen for n in neighbours(cell) for p in stacks.get(n, ()))
        if side in tops and other(side) in tops and not near_queen:
            cells.add(cell)
    return cells


def guardian_placement(position, piece):
    """fan-rules.md §8 GU-2 (replaces G-5, G-6): only on top of an occupied cell c
    (landing at level h(c)) whose top is the Guardian's colour, and no neighbour
    of c topped by the other colour. Never a first piece: so onto the Honeycomb
    (HC-3) only once a piece of its colour is in play [our reading]."""
    stacks = position.stacks
    side = colour(piece)
    own_in_play = any(colour(p) == side for stack in stacks.values() for p in stack)
    return {
        cell
        for cell in stacks
        if (top_colour(stacks, cell) == side or (top_colour(stacks, cell) == NEUTRAL and own_in_play))  # HC-3, GU-2
        and other(side) not in {top_colour(stacks, n) for n in neighbours(cell)}
    }


# --- The table of bugs ----------------------------------------------------------------
class Bug(NamedTuple):
    """One row of the table: what a bug is and how it moves.

    token: the game-type token that enables it (fan-rules.md §2.1, §2.4); None:
    always in. placement: (position, piece) -> cells (an occupied one: on top).
    movements: functions (stacks with the mover lifted, start cell) -> cells;
    targeted: movements that also take the cell of the opponent's last `Prime`
    (the Fly, §6.5): (stacks with the mover lifted, start, target) -> cells;
    abilities: functions (position, cell of the user) -> moves of other pieces
    (a throw (piece, cell), a sting (user, "~", victim), a swap (user, "=", t));
    mimic: the bug moves as the top bugs around it (the Mosquito), so its own
    movements and abilities are empty; lends: the movements a Mosquito borrows
    from it when they are not its own (fan-rules.md §5.1 table; abilities are
    always lent); rests_on_top: it can end a turn on top of the hive (§2.5);
    always_on_top: it never comes down (the Guardians, §8 GU-3); front: for a
    Venom back face (§6.0 VN-1), the bug on the other side of its tile;
    controls: it plays the actions of an enemy piece beside it (the Tick's mind
    control, §6.7), which a Mosquito never copies (T-4); coloured: movements
    that also read the mover's own colour, (stacks with the mover lifted, start,
    colour) -> cells (the S004 Moth, §9.4); unlent: abilities a Mosquito never
    copies (the S004 Wasp's sting and Firefly's command, WX-6, FX-3; the Queen's
    sting, WX-5)."""

    name: str
    copies: int
    token: str | None
    movements: tuple = ()
    abilities: tuple = ()
    mimic: bool = False
    placement: Callable = ordinary_placement
    lends: tuple | None = None
    rests_on_top: bool = False
    always_on_top: bool = False
    targeted: tuple = ()
    front: str | None = None
    controls: bool = False
    coloured: tuple = ()
    unlent: tuple = ()


BUGS = {
    "Q": Bug("Queen Bee", 1, None, movements=(slide_one,), unlent=(queen_sting,), placement=queen_placement),
    "S": Bug("Spider", 2, None, movements=(spider_walk,)),
    "B": Bug("Beetle", 2, None, movements=(beetle_step,), rests_on_top=True),
    "G": Bug("Grasshopper", 3, None, movements=(grasshopper_jump,)),
    "A": Bug("Soldier Ant", 3, None, movements=(ant_walk,)),
    "M": Bug("Mosquito", 1, "M", mimic=True, rests_on_top=True),
    "L": Bug("Ladybug", 1, "L", movements=(ladybug_walk,)),
    "P": Bug("Pillbug", 1, "P", movements=(slide_one,), abilities=(throw,)),
    # Venom's back faces (fan-rules.md §6), in piece order (§4.1: W F D R Y U T C).
    # The Scorpion's lock and the Stink bug's immunity (IM-1) are passive:
    # Position.flips, throw, wasp_sting and centipede_swap read them, so a Mosquito
    # never copies them (§5.1); it copies each face's movement from the ground
    # (the Firefly's two climbs, the Dragonfly's and Tick's one) and its ability.
    "W": Bug("Wasp Queen", 1, "Venom", movements=(slide_one,), abilities=(wasp_sting,), front="Q"),
    "F": Bug("Firefly", 2, "Venom", movements=(firefly_move,), rests_on_top=True, front="B"),
    "D": Bug("Dragonfly", 3, "Venom", movements=(colony_dragonfly_move,), rests_on_top=True, front="G"),
    "R": Bug("Scorpion", 2, "Venom", movements=(scorpion_walk,), front="S"),
    "Y": Bug("Fly", 3, "Venom", targeted=(fly_move,), front="A"),
    "U": Bug("Stink bug", 1, "Venom", movements=(up_one_down_one,), front="L"),
    "T": Bug("Tick", 1, "Venom", movements=(tick_move,), rests_on_top=True, front="M", controls=True),
    "C": Bug("Centipede", 1, "Venom", abilities=(centipede_swap,), front="P"),
    # The Predators (§7): the Killer beetle slides and kills; the Mantis never
    # moves (N-1) and lends a Mosquito only its jump.
    "K": Bug("Killer beetle", 1, "Predators", movements=(slide_one,), abilities=(killer_kill,)),
    "N": Bug("Mantis", 1, "Predators", abilities=(mantis_jump,)),
    "V": Bug("Moth", 1, "Guardians", movements=(moth_flight,), placement=guardian_placement, lends=(),
             rests_on_top=True, always_on_top=True),
    "Z": Bug("Butterfly", 1, "Guardians", movements=(butterfly_flight,), placement=guardian_placement, lends=(),
             rests_on_top=True, always_on_top=True),
    "Dx": Bug("Dragonfly (Sperling)", 1, "Dx", movements=(dragonfly_hop,), lends=(dragonfly_hop_to_ground,),
              rests_on_top=True),
    "E": Bug("Flea", 1, "E", movements=(flea_move,), placement=flea_placement),
    "Fx": Bug("Firefly (S004)", 1, "Fx", movements=(wasp_flight,), unlent=(firefly_command,),
              placement=away_from_queens_placement),
    "J": Bug("Woodlouse", 1, "J", movements=(up_one_down_one,), abilities=(throw,)),
    "Nx": Bug("Mantis (S004)", 1, "Nx", movements=(mantis_walk,), abilities=(mantis_capture,)),
    # §5.1: a Mosquito copies nothing of the S004 Moth; with it in the game a
    # Mosquito never ends on top (MQ-4, Position.destinations and flips).
    "Vx": Bug("Moth (S004)", 1, "Vx", coloured=(s004_moth_flight,), lends=(), rests_on_top=True),
    "Wx": Bug("Wasp (S004)", 1, "Wx", movements=(wasp_flight,), unlent=(wasp_oblige,),
              placement=away_from_queens_placement),
    # The neutral Honeycomb (§10): in no hand, never moves, lends nothing, IM-2.
    "H": Bug("Honeycomb", 0, "HoneyCombo", lends=()),
}
QUEEN = "Q"
BEETLE = "B"
DRAGONFLY = "Dx"
SCORPION = "R"
STINK_BUG = "U"
# fan-rules.md §6.0 VN-1: the back face of each official bug's tile.
VENOM_BACK = {"Q": "W", "B": "F", "G": "D", "S": "R", "A": "Y", "L": "U", "M": "T", "P": "C"}
FRONT_OF = {back: front for front, back in VENOM_BACK.items()}
VENOM_FACES = "FDRYUTC"  # §2.2: the faces `Venom(Fixed:...)` may name, in the order GT-2 prints them
# VN-3 5: on top of the hive only these tiles may flip (B <-> F, M <-> T).
FLIP_ON_TOP = ("B", "M")
assert all(BUGS[back].front == front for front, back in VENOM_BACK.items() if back in BUGS)


def other(side):
    return BLACK if side == WHITE else WHITE


@lru_cache(maxsize=None)
def tile_of(name):
    """The tile of a piece name (fan-rules.md §4.1): a Venom back face's name
    gives its front name (wF1 -> wB1, bW -> bQ, wD2 -> wG2); any other name is
    its own tile."""
    code = bug(name)
    if code not in FRONT_OF:
        return name
    return colour(name) + FRONT_OF[code] + name[1 + len(code):]


@lru_cache(maxsize=None)
def other_face(name):
    """The name of the other face of a Venom tile (wB1 <-> wF1, wQ <-> wW), None
    for a name that is no official bug's face (single-sided fan pieces)."""
    code = bug(name)
    flipped = VENOM_BACK.get(code) or FRONT_OF.get(code)
    return None if flipped is None else colour(name) + flipped + name[1 + len(code):]


def face_name(tile, code):
    """The name of `tile` (a front name) showing the face `code`: (wG2, D) -> wD2."""
    return colour(tile) + code + tile[1 + len(bug(tile)):]


def piece_order(name):
    """fan-rules.md §4.1 piece order, a sort key: white before black, then the bug
    code in the order of BUGS (Q S B G A M L P W F D R Y U T C ... V Z Dx E J),
    then the ordinal."""
    code = bug(name)
    ordinal = name[1 + len(code):]
    return COLORS.index(colour(name)), list(BUGS).index(code), int(ordinal or 0)


def piece_names(colour_letter, code):
    """Names of a bug's copies for one side, in placing order: wQ; wS1, wS2; wDx."""
    copies = BUGS[code].copies
    if copies == 1:
        return [colour_letter + code]
    return [f"{colour_letter}{code}{i}" for i in range(1, copies + 1)]


PIECE_NAME = re.compile(r"^([wb])([a-z])(x?)(\d*)$", re.IGNORECASE)


def canonical_piece(text):
    """wS1 from any case of it (wS1, WS1, ws1), wDx from wdX (fan-rules.md §4.1:
    two-letter codes end in a lowercase x)."""
    if text.lower() == HONEYCOMB.lower():
        return HONEYCOMB
    match = PIECE_NAME.match(text)
    if not match:
        raise ValueError(f"{text!r} is not a piece name")
    side, letter, x, number = match.groups()
    return side.lower() + letter.upper() + x.lower() + number


# --- Game types (fan-rules.md §2.1) -----------------------------------------------------
OFFICIAL_LETTERS = "MLP"
MODULES = ("Venom", "Predators", "Guardians", "HoneyCombo", "Swarm")
BUG_TOKENS = ("Dx", "E", "Fx", "J", "Nx", "Vx", "Wx")
# GT-3: both versions of one bug name may never meet.
NEVER_TOGETHER = {
    ("Venom", "Dx"): "Dragonfly",
    ("Venom", "Fx"): "Firefly",
    ("Venom", "Wx"): "Wasp",
    ("Guardians", "Vx"): "Moth",
    ("Predators", "Nx"): "Mantis",
}
# §2.2: the variants the spec names; this reference plays Venom(Placed) and
# Venom(Fixed:<faces>) only.
KNOWN_VARIANTS = {
    "Venom": ("Placed", "Fixed", "DragonflyOneTurn", "CentipedeStrict", "TickOwnerSide"),
    "Predators": ("MantisEver",),
    "Dx": ("V2",),
    "J": ("Literal",),
}
SEGMENT = re.compile(r"^([A-Za-z]+)(?:\(([^()]*)\))?$")


class GameType(NamedTuple):
    """A parsed GameTypeString: the official letters (in M, L, P order), the
    modules and the bug tokens (each in canonical order, GT-2), and the Venom
    variant (§2.2): "" (flip turns), "Placed" or "Fixed:<faces>" (faces in the
    order F D R Y U T C)."""

    official: str = ""
    modules: tuple = ()
    bugs: tuple = ()
    venom: str = ""

    @property
    def text(self):
        """GT-2: Base, then the official letters, the modules, the bug tokens."""
        modules = [f"Venom({self.venom})" if m == "Venom" and self.venom else m for m in self.modules]
        return "+".join(["Base"] + ([self.official] if self.official else []) + modules + list(self.bugs))

    @property
    def tokens(self):
        return set(self.official) | set(self.modules) | set(self.bugs)

    @property
    def codes(self):
        """The bugs of the pieces in hand (a Venom tile by its front), in piece
        order (fan-rules.md §4.1)."""
        return [
            code for code, row in BUGS.items()
            if row.front is None and (row.token is None or row.token in self.tokens)
        ]

    def faces(self, code):
        """The faces a tile of front bug `code` can show (fan-rules.md §6.0, §2.2):
        both with Venom, except that in Venom(Placed) the Queen tile is always the
        Queen and in Venom(Fixed:...) each tile has the one face of its bug (its
        back if the variant names it); a single-sided piece its own."""
        if "Venom" not in self.modules or code not in VENOM_BACK:
            return (code,)
        back = VENOM_BACK[code]
        if self.venom.startswith("Fixed:"):
            return (back,) if back in self.venom[len("Fixed:"):] else (code,)
        if code == QUEEN and self.venom == "Placed":
            return (code,)
        return code, back

    def placement_faces(self, code):
        """VN-2: the faces a tile may be placed with: the Queen tile Queen side up."""
        return (code,) if code == QUEEN else self.faces(code)

    @property
    def flips(self):
        """VN-3 6: flip turns exist in plain Venom only (no variant, §2.2)."""
        return "Venom" in self.modules and not self.venom

    @property
    def mimic_stays_down(self):
        """MQ-4: with the S004 Moth a Mosquito never ends an action on top of the hive."""
        return "Vx" in self.bugs

    @property
    def max_height(self):
        """fan-rules.md §2.5: one ground piece plus two of each top-capable piece
        per side (1 + 2 x their copies); a Venom tile counts when one of the faces
        it can show in this game type is top-capable (a Beetle or Firefly, a
        Mosquito, a Colony Dragonfly: so Base+Venom 11, Base+MLP+Venom 13; we count
        no Grasshopper tile in Venom(Fixed:...) without D)."""

        def rests(face):
            return BUGS[face].rests_on_top

        return 1 + 2 * sum(BUGS[code].copies for code in self.codes if any(rests(f) for f in self.faces(code)))


def venom_variant(text, variants, official):
    """fan-rules.md §2.2, GT-3: the Venom variant of `Venom(<variants>)` in its
    canonical form ("Placed", "Fixed:<faces>" in the order F D R Y U T C), or a
    ValueError: a Fixed naming U without L, T without M or C without P, no face,
    a face twice or a letter that is not a face, both variants, or a variant this
    reference does not play."""
    chosen = []
    for variant in variants.split(","):
        name, colon, faces = variant.strip().partition(":")
        known = {v.lower(): v for v in KNOWN_VARIANTS["Venom"]}
        if name.lower() not in known or (known[name.lower()] == "Fixed") != bool(colon):
            raise ValueError(f"game type {text!r}: Venom has no variant {variant!r}")
        name = known[name.lower()]
        if name not in ("Placed", "Fixed"):
            raise ValueError(f"game type {text!r}: the variant Venom({variant}) is not implemented")
        if name == "Fixed":
            faces = faces.strip().upper()
            if not faces or any(f not in VENOM_FACES for f in faces) or len(set(faces)) != len(faces):
                raise ValueError(f"game type {text!r}: Venom(Fixed:...) names one or more of the faces "
                                 f"F D R Y U T C, each once, not {faces!r}")
            for face, letter, bug_name in (("U", "L", "the Ladybug"), ("T", "M", "the Mosquito"),
                                           ("C", "P", "the Pillbug")):
                if face in faces and letter not in official:
                    raise ValueError(f"game type {text!r}: Venom(Fixed:...) names {face} without {letter} "
                                     f"({face} is the back of {bug_name})")
            name = "Fixed:" + "".join(f for f in VENOM_FACES if f in faces)
        chosen.append(name)
    if len(chosen) > 1:
        raise ValueError(f"game type {text!r}: both Venom variants (or one twice) in one game type")
    return chosen[0]


def parse_game_type(text):
    """fan-rules.md §2.1: a GameTypeString, case-insensitive, its segments and
    official letters in any order (GT-3); a ValueError saying what is wrong for
    an unknown, repeated or incompatible token or a variant this reference does
    not play."""
    segments = text.strip().split("+")
    if segments[0].lower() != "base":
        raise ValueError(f"game type {text!r} does not start with Base")
    official, tokens = None, []
    for segment in segments[1:]:
        match = SEGMENT.match(segment)
        if not match:
            raise ValueError(f"game type {text!r}: {segment!r} is not a token")
        name, variants = match.groups()
        known = {t.lower(): t for t in MODULES + BUG_TOKENS}
        if name.lower() in known:
            token = known[name.lower()]
            if token in [t for t, _ in tokens]:
                raise ValueError(f"game type {text!r}: {token} is repeated")
            tokens.append((token, variants))
        elif set(name.upper()) <= set(OFFICIAL_LETTERS) and variants is None:
            if official is not None:
                raise ValueError(f"game type {text!r}: the official letters are one segment")
            if len(set(name.upper())) != len(name):
                raise ValueError(f"game type {text!r}: an official letter is repeated")
            official = "".join(letter for letter in OFFICIAL_LETTERS if letter in name.upper())
        else:
            raise ValueError(f"game type {text!r}: unknown token {segment!r}")
    official = official or ""
    names = {t for t, _ in tokens}
    for (a, b), bug_name in NEVER_TOGETHER.items():
        if a in names and b in names:
            raise ValueError(f"game type {text!r}: {a} and {b} are two versions of the {bug_name}")
    venom = ""
    for token, variants in tokens:
        if variants is not None and token == "Venom":
            venom = venom_variant(text, variants, official)
            continue
        for variant in variants.split(",") if variants is not None else ():
            name = variant.partition(":")[0].strip()
            if name.lower() not in {v.lower() for v in KNOWN_VARIANTS.get(token, ())}:
                raise ValueError(f"game type {text!r}: {token} has no variant {variant!r}")
            raise ValueError(f"game type {text!r}: the variant {token}({variant}) is not implemented")
    played = {row.token for row in BUGS.values()} | {"Swarm"}  # Swarm brings rules, no bug (§11)
    for token in names - played:
        raise ValueError(f"game type {text!r}: {token} is not implemented")
    return GameType(
        official,
        tuple(t for t in MODULES if t in names),
        tuple(t for t in BUG_TOKENS if t in names),
        venom,
    )


# --- The position ----------------------------------------------------------------------
class Action(NamedTuple):
    """One way to a legal move: its kind ("place", "move", "throw", and with
    Venom "flip", "sting", "swap", with Predators "remove"), the piece that acts (the thrower for a throw,
    the flipped tile for a flip, by its name before) and the move."""

    kind: str
    actor: str
    move: tuple


EXAMPLE_CELL = re.compile(r"^\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)\s+(\S+)$")
MOVE_PREFIX = re.compile(r"^\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)(?:@(\d+))?\s+(.*)$")


class Position:
    """A game in progress (fan-rules.md §3.1): stacks, pieces in hand, the side to
    move, the statuses the previous turn left (§3.2) and the result; the ply,
    which is not part of the state, for the first-turn and fourth-turn rules."""

    def __init__(self, game_type="Base"):
        self.rules = parse_game_type(game_type)
        self.game_type = self.rules.text
        self.codes = self.rules.codes
        self.venom = "Venom" in self.rules.modules  # tiles with two faces (§6)
        self.pieces = {c: tuple(name for code in self.codes for name in piece_names(c, code)) for c in COLORS}
        self.honeycomb = "HoneyCombo" in self.rules.modules
        self.stacks = {ORIGIN: [HONEYCOMB]} if self.honeycomb else {}  # HC-1
        self.hand = {c: list(self.pieces[c]) for c in COLORS}
        self.removed = frozenset()  # tiles removed from the game by a Predator (§7), never back
        self.ply = 0  # entries played
        self.turns = 0  # turns completed (§3.4 TU-2): a double turn is one
        self.light = None  # §10: the colour whose next turn is double while the Honeycomb is light side up
        self.second = False  # the second action of a double turn is due (HC-4)
        self.pending = None  # and the statuses its first action made (ST-2): last, frozen, prime, placed, obliged
        self.last = frozenset()  # the pieces the previous turn acted on
        self.frozen = frozenset()  # a subset of last: they may not move, be moved or act
        self.prime = None  # the piece a "where the opponent just acted" rule looks at
        self.placed = None  # the piece the previous turn placed
        self.obliged = None  # `Oblig` (WX-3): (the stung piece, the S004 Wasp)
        self.stings_used = frozenset()  # `QueenStingUsed`: the colours whose Queen has stung (WX-5)
        self.prison = frozenset()  # enemy pieces an S004 Mantis holds (§9.5), each in the other colour's Mantis's
        self.result = None  # None while in progress, else "WhiteWins", "BlackWins" or "Draw"
        # §11 Swarm: hands hold both colours; the rest is in the bag, in piece
        # order, until drawn (SW-1, SW-3). The setup is White's then Black's
        # `choose`, which are no turns (TU-2); after a placement while the bag
        # holds pieces a draw is due, and the statuses the opponent's turn left
        # wait with it for the end of the action (end_action).
        self.swarm = "Swarm" in self.rules.modules
        self.bag = []
        self.chosen = 0  # `choose` entries played
        self.draw_due = None  # while a draw is due: the statuses standing before the placement
        if self.swarm:
            for side in COLORS:
                self.hand[side] = [side + QUEEN]
                self.bag += [p for p in self.pieces[side] if bug(p) != QUEEN]

    def pieces_of(self, side):
        """Every piece of one side in this game type, in piece order (a Venom tile
        by its front name)."""
        return list(self.pieces[side])

    def is_piece(self, name):
        """`name` names a piece of this game type: a tile by a face it can show."""
        if name == HONEYCOMB:
            return self.honeycomb
        tile = tile_of(name)
        return tile in self.pieces[colour(tile)] and bug(name) in self.rules.faces(bug(tile))

    @classmethod
    def from_game_string(cls, text):
        """Replay a GameString's moves, each checked against the legal moves."""
        fields = [f.strip() for f in text.strip().split(";")]
        position = cls(fields[0])
        for move_text in fields[3:]:
            if move_text:
                position.play(position.parse(move_text), check=True)
        return position

    @classmethod
    def from_example(cls, game_type, board, to_move=WHITE, last=(), frozen=(), prime=None, placed=None, turn=8,
                     obliged=None, stings_used=(), prison=()):
        """A position written as in the spec's examples (fan-rules.md §1.1):
        `(0,0) wQ · (0,1) bA1+wD1` (stacks bottom to top with `+`; a Venom tile
        by the face it shows, wD1 is tile G1 Dragonfly side up), built directly,
        not replayed; every piece not on the board is in its owner's hand. The
        statuses name pieces by either face; they are kept by the face shown.
        The turn number (the side to move's) is 8 unless given, so that the
        first-turn and Queen-by-turn-4 rules do not bite."""
        position = cls(game_type)
        everything = set(position.pieces_of(WHITE) + position.pieces_of(BLACK))
        for entry in board.split("·"):
            entry = entry.strip()
            if not entry:
                continue
            match = EXAMPLE_CELL.match(entry)
            if not match:
                raise ValueError(f"{entry!r} is not a cell and its stack")
            cell = int(match.group(1)), int(match.group(2))
            if cell in position.stacks:
                raise ValueError(f"cell {cell} is given twice")
            stack = [canonical_piece(p) for p in match.group(3).split("+")]
            for piece in stack:
                tile = tile_of(piece)
                if tile not in everything or not position.is_piece(piece):
                    raise ValueError(f"{piece} is not a piece of {position.game_type} or is placed twice")
                everything.discard(tile)
                position.hand[colour(piece)].remove(tile)
            position.stacks[cell] = stack
        if to_move not in COLORS:
            raise ValueError(f"the side to move is w or b, not {to_move!r}")
        position.ply = position.turns = 2 * (turn - 1) + COLORS.index(to_move)

        def named(piece):
            return position.current_name(canonical_piece(piece))

        position.last = frozenset(named(p) for p in last)
        position.frozen = frozenset(named(p) for p in frozen)
        if not position.frozen <= position.last:
            raise ValueError("Frozen is a subset of Last (fan-rules.md §3.2)")
        position.prime = None if prime is None else named(prime)
        position.placed = None if placed is None else named(placed)
        position.obliged = None if obliged is None else tuple(named(p) for p in obliged)
        position.stings_used = frozenset(stings_used)
        position.prison = frozenset(canonical_piece(p) for p in prison)
        for piece in position.prison:
            position.hand[colour(piece)].remove(piece)
        position.result = position.outcome()
        return position

    def copy(self):
        """A position equal to this one that shares nothing mutable with it."""
        child = Position.__new__(Position)
        child.__dict__.update(self.__dict__)  # the game type and the immutable statuses
        child.stacks = {cell: list(stack) for cell, stack in self.stacks.items()}
        child.hand = {side: list(hand) for side, hand in self.hand.items()}
        child.bag = list(self.bag)
        return child

    def signature(self):
        """The full state of fan-rules.md §3.1 as a hashable value: every stack
        (a Venom tile by the face it shows), both hands, the removed tiles, the side to move, Last,
        Frozen, Prime, Placed and the result (not the turn number or the
        history). Two moves are one iff their results have one signature (ID-1)."""
        return (
            tuple(sorted((cell, tuple(stack)) for cell, stack in self.stacks.items())),
            tuple(sorted(self.hand[WHITE])),
            tuple(sorted(self.hand[BLACK])),
            self.to_move,
            self.removed,
            self.last,
            self.frozen,
            self.prime,
            self.placed,
            self.obliged,
            self.stings_used,
            self.prison,
            self.light,
            self.second,
            self.pending,
            tuple(self.bag),
            self.chosen,
            self.draw_due is not None,
            self.result,
        )

    # --- Reading the position ---
    @property
    def to_move(self):
        if self.swarm and self.chosen < 2:
            return COLORS[self.chosen]  # SW-1: White chooses, then Black
        return COLORS[self.turns % 2]

    @property
    def turn(self):
        """The side to move's turn number, 1 on its first turn."""
        return self.turns // 2 + 1

    def cell_of(self, piece):
        """The cell of a piece in play, None if it is not; with Venom, either name
        of a tile finds it (wB1 and wF1 both name tile B1, §4.1)."""
        alias = other_face(piece) if self.venom else None
        for cell, stack in self.stacks.items():
            if piece in stack or (alias is not None and alias in stack):
                return cell
        return None

    def current_name(self, piece):
        """The name a piece has now: for a Venom tile in play the face it shows
        (wB1 -> wF1 when tile B1 is Firefly side up); otherwise `piece`."""
        cell = self.cell_of(piece)
        if cell is None:
            return piece
        return next(p for p in self.stacks[cell] if tile_of(p) == tile_of(piece))

    def level_of(self, piece):
        cell = self.cell_of(piece)
        return None if cell is None else self.stacks[cell].index(self.current_name(piece))

    def in_play(self, piece):
        return self.cell_of(piece) is not None

    def queen_captured(self, side):
        """fan-rules.md §3.8: a Queen in play is captured when all six neighbours
        are occupied; with Guardians also a piece of either colour on top of her
        (GU-1). A Queen in hand is never captured. The Queen tile is royal on
        either face (VN-1: wQ or wW)."""
        cell = self.cell_of(side + QUEEN)
        if cell is None or not all(occupied(self.stacks, n) for n in neighbours(cell)):
            return False
        return "Guardians" not in self.rules.modules or tile_of(top(self.stacks, cell)) != side + QUEEN

    def outcome(self):
        """fan-rules.md §3.8 (rules.md, "End of the game"): a Queen tile removed
        from the game, its owner loses; else one Queen captured, its owner loses;
        both, a draw."""
        for side, result in ((WHITE, "BlackWins"), (BLACK, "WhiteWins")):
            if side + QUEEN in self.removed:
                return result
        white_lost, black_lost = self.queen_captured(WHITE), self.queen_captured(BLACK)
        if white_lost and black_lost:
            return "Draw"
        if white_lost:
            return "BlackWins"
        if black_lost:
            return "WhiteWins"
        return None

    # --- Making moves ---
    def dragonfly_cargo(self, piece, dest):
        """fan-rules.md §9.3 DX-3: the piece q directly below a Sperling's
        Dragonfly that its hop to the empty cell `dest` carries, or None.
        Carrying is compulsory when legal: q not the other colour's Dragonfly, not
        `Frozen`, not pinned with the Dragonfly lifted when q is a ground piece,
        and `dest` touching the hive with both lifted (§3.6). q is not a Guardian
        either: a Guardian is always on top (§8 GU-3; the spec does not say it of
        carrying, we read "always")."""
        source = self.cell_of(piece)
        stack = self.stacks.get(source, [])
        if bug(piece) != DRAGONFLY or len(stack) < 2 or stack[-1] != piece or occupied(self.stacks, dest):
            return None
        cargo = stack[-2]
        if bug(cargo) == DRAGONFLY and colour(cargo) != colour(piece):
            return None
        if cargo in self.frozen or BUGS[bug(cargo)].always_on_top or untouchable(cargo):
            return None  # (IM-2: never the Honeycomb; IM-1, the Stink bug, is moot: Venom and Dx never meet, GT-3)
        both_lifted = without(self.stacks, source, source)
        if len(stack) == 2 and not is_connected(both_lifted):
            return None
        if not touches_hive(both_lifted, dest):
            return None
        return cargo

    def play(self, move, check=False):
        """Apply a move and set the statuses it leaves (fan-rules.md §3.2); with
        check, it must be one of the legal moves."""
        if check and move not in self.legal_moves():
            raise ValueError(f"illegal move {move!r} in {self.game_type} at ply {self.ply}")
        side = self.to_move
        if move[0] in SWARM_ENTRIES:
            self.swarm_entry(side, move)
            return
        standing = self.last, self.frozen, self.prime, self.placed, self.obliged
        self.obliged = None  # a status of one turn (§3.2); a Wasp's sting sets it again
        if move == (HONEYCOMB, "~"):
            # HC-4: light side up; its flipper's next turn is double. Last and
            # Prime: the Honeycomb (§3.2).
            self.light = side
            self.last, self.frozen, self.prime, self.placed = frozenset({HONEYCOMB}), frozenset(), HONEYCOMB, None
        elif move == "pass":
            self.last, self.frozen, self.prime, self.placed = frozenset(), frozenset(), None, None
        elif move[1] == "!":
            # An S004 Wasp's sting (WX-3): `Oblig` and nothing else (§3.2).
            wasp, _, target = move
            self.last, self.frozen, self.prime, self.placed = frozenset(), frozenset(), None, None
            self.obliged = target, wasp
        elif move[1] == "x" and "Nx" in self.rules.bugs and bug(move[0]) != QUEEN:
            # An S004 Mantis's removal (NX-2), or a Mosquito's copy of it (NX-5):
            # both leave the board; the actor to its owner's hand, the target to
            # its owner's hand if it is the actor's own or the enemy Queen, else
            # (by a Mantis) into its prison. No statuses (§3.2).
            actor, _, target = move
            self.stacks = without(self.stacks, self.cell_of(target), self.cell_of(actor))
            self.hand[colour(actor)].append(tile_of(actor))  # in hand a tile has no face (§4.1)
            if bug(actor) == "Nx" and colour(target) != colour(actor) and bug(tile_of(target)) != QUEEN:
                self.prison |= {tile_of(target)}
            else:
                self.hand[colour(target)].append(tile_of(target))
            self.last, self.frozen, self.prime, self.placed = frozenset(), frozenset(), None, None
        elif move[1] == "x" and bug(move[0]) == QUEEN:
            # The Queen's sting (WX-5): the target back to its owner's hand, the
            # colour's sting used; no statuses (§3.2).
            queen, _, target = move
            self.stacks = without(self.stacks, self.cell_of(target))
            self.hand[colour(target)].append(target)
            self.stings_used |= {colour(queen)}
            self.last, self.frozen, self.prime, self.placed = frozenset(), frozenset(), None, None
        elif move[1] == "~":
            # An own flip (tile, "~") or a sting (wasp, "~", victim), §6.0 VN-3 and
            # §6.1 W-2: the tile turns over where it is. Last and Prime: the tile
            # under its new name; a sting's victim is also Frozen (§3.2).
            before = move[0] if len(move) == 2 else move[2]
            after = other_face(before)
            cell = self.cell_of(before)
            self.stacks[cell] = [after if p == before else p for p in self.stacks[cell]]
            self.last = frozenset({after})
            self.frozen = frozenset({after}) if len(move) == 3 else frozenset()
            self.prime, self.placed = after, None
        elif move[1] == "x":
            # A Predator's removal (§7 K-2, N-2, PR-4): the actor and its target
            # leave the game for good; no statuses (§3.2).
            actor, _, target = move
            for piece in (target, actor):
                cell = self.cell_of(piece)
                self.stacks = without(self.stacks, cell)
            self.removed |= {tile_of(actor), tile_of(target)}
            self.last, self.frozen, self.prime, self.placed = frozenset(), frozenset(), None, None
        elif move[1] == "=":
            # A Centipede's swap (C-3): the target to the Centipede's cell, the
            # Centipede to the target's, both on the ground (lone ground pieces
            # both, the tops of their cells). Last both, Prime the Centipede, no
            # freeze (§3.2).
            centipede, _, target = move
            start, end = self.cell_of(centipede), self.cell_of(target)
            self.stacks[start] = self.stacks[start][:-1] + [target]
            self.stacks[end] = self.stacks[end][:-1] + [centipede]
            self.last, self.frozen = frozenset({centipede, target}), frozenset()
            self.prime, self.placed = centipede, None
        else:
            piece, dest = move[:2]  # a move, a throw, or a Tick's controlled move (piece, dest, "@")
            source = self.cell_of(piece)
            cargo = None
            if source is None:
                # A placement (with Venom, `piece` names the face chosen); a
                # Guardian's lands on top of the stack (GU-2). An S004 Mantis
                # placed again empties its prison into its owners' hand (NX-3).
                # In Swarm the placer's hand may hold the other colour's (SW-2).
                self.hand[side].remove(tile_of(piece))
                if bug(piece) == "Nx":
                    freed = {p for p in self.prison if colour(p) != colour(piece)}
                    self.hand[other(colour(piece))].extend(sorted(freed, key=piece_order))
                    self.prison -= freed
            else:
                cargo = self.dragonfly_cargo(piece, dest)
                self.stacks = without(self.stacks, *([source] * (2 if cargo else 1)))
            if cargo:
                self.stacks.setdefault(dest, []).append(cargo)
            self.stacks.setdefault(dest, []).append(piece)
            # Last: the mover, and a Dragonfly's cargo (DX-4: not frozen); Frozen:
            # a thrown piece of the acting side's opponent (ST-1: an own piece
            # thrown is not frozen), but not one a Tick controls (T4).
            self.last = frozenset({piece, cargo} - {None})
            thrown = source is not None and colour(piece) != side and len(move) == 2
            self.frozen = frozenset({piece}) if thrown else frozenset()
            self.prime = piece
            self.placed = piece if source is None else None
            if source is None and self.swarm and self.bag:
                self.draw_due = standing  # SW-3 (unless the placement ends the game)
        self.ply += 1
        self.result = self.outcome()
        if self.draw_due is not None and self.result is None:
            return
        self.draw_due = None
        self.end_action(side, move, standing)

    def swarm_entry(self, side, move):
        """fan-rules.md §11: a `choose` puts its three pieces from the bag into
        the side's hand (SW-1; no statuses, no turn); a `draw` one piece, which
        ends the placement's action, its statuses standing (SW-3); a `steal`
        takes a piece from the opponent's hand, a whole turn with no statuses
        (SW-4)."""
        kind, *pieces = move
        self.ply += 1
        if kind == "steal":
            standing = self.last, self.frozen, self.prime, self.placed, self.obliged
            self.hand[other(side)].remove(pieces[0])
            self.hand[side].append(pieces[0])
            self.last, self.frozen, self.prime, self.placed, self.obliged = frozenset(), frozenset(), None, None, None
            self.end_action(side, move, standing)
            return
        for piece in pieces:
            self.bag.remove(piece)
            self.hand[side].append(piece)
        if kind == "choose":
            self.chosen += 1
        else:
            standing, self.draw_due = self.draw_due, None
            self.end_action(side, move, standing)

    def end_action(self, side, move, standing):
        """fan-rules.md §10 HC-4, HC-5, §3.2 ST-2: after the first action of a
        double turn the second is due, the opponent's statuses (`standing`) still
        apply and this action's wait; after the second the turn's statuses are
        the union of both, and the Honeycomb is dark again. A pass as the first
        action spends the double turn."""
        if self.light != side or move == (HONEYCOMB, "~"):
            self.turns += 1
            return
        mine = self.last, self.frozen, self.prime, self.placed, self.obliged
        if not self.second and move != "pass" and self.result is None:
            # The obligation bound the first action only (HC-5).
            last, frozen, prime, placed, _ = standing
            self.second, self.pending = True, mine
            self.last, self.frozen = self.still_in_play(last), self.still_in_play(frozen)
            self.prime = next(iter(self.still_in_play({prime})), None)
            self.placed = next(iter(self.still_in_play({placed})), None)
            self.obliged = None
            return
        if self.second:
            last, frozen, prime, placed, obliged = self.pending
            self.last = self.still_in_play(last) | self.last
            self.frozen = self.still_in_play(frozen) | self.frozen
            if self.prime is None:
                self.prime = next(iter(self.still_in_play({prime})), None)
            if self.placed is None:
                self.placed = next(iter(self.still_in_play({placed})), None)
            if self.obliged is None and obliged is not None:
                self.obliged = obliged  # [decision] the turn's last sting obliges
            self.second, self.pending = False, None
        self.light = None
        self.turns += 1

    def still_in_play(self, pieces):
        """The pieces of `pieces` (None aside) still in play, by their current names."""
        return frozenset(self.current_name(p) for p in pieces if p is not None and self.in_play(p))

    def landing(self, move):
        """Where the mover of `move` ends: (cell, level)."""
        child = self.copy()
        child.play(move)
        piece = move[0]
        return child.cell_of(piece), child.level_of(piece)

    # --- The legal moves ---
    def legal_moves(self):
        """Every legal move: a set of (piece, cell), with Venom also flips (tile,
        "~"), stings (wasp, "~", victim), swaps (centipede, "=", target) and a
        Tick's controlled movements (piece, cell, "@"), with
        Predators removals (predator, "x", target), and
        when nothing else is possible {"pass"}; empty once the game is over."""
        if self.result is not None:
            return set()
        if self.swarm and self.chosen < 2:
            return self.choices()
        if self.draw_due is not None:
            return self.draws()
        moves = {action.move for action in self.actions()}
        return moves or {"pass"}

    def actions(self):
        """Every way to a legal move (an own move and a throw to one cell are two
        actions and one move); empty once the game is over."""
        if self.result is not None:
            return set()
        obliged = self.obliged_actions()
        if obliged:
            return obliged
        return canonical_stings(self.placements() | self.movements() | self.flips() | self.honeycomb_flip(),
                                self.to_move) | self.steals()

    # --- Swarm's entries (§11) ---
    def choices(self):
        """SW-1: ("choose", a, b, c), three of the side's pieces but the Queen
        (all in the bag now), named by the lowest-numbered copies of their bugs,
        in piece order: one entry per set of three bugs."""
        pool = sorted((p for p in self.bag if colour(p) == self.to_move), key=piece_order)
        return {("choose", *lowest_copies(pool, combo)) for combo in combinations(pool, 3)}

    def draws(self):
        """SW-3: ("draw", piece), the lowest-numbered piece of each colour and
        bug in the bag."""
        return {("draw", piece) for piece in lowest_of_each(self.bag)}

    def steals(self):
        """SW-4: ("steal", piece), the lowest-numbered copy of each colour and bug
        in the opponent's hand, Queens never; only with the side's Queen in play
        (G-1)."""
        side = self.to_move
        if not self.swarm or not self.in_play(side + QUEEN):
            return set()
        loot = [p for p in self.hand[other(side)] if bug(p) != QUEEN]
        return {Action("steal", piece, ("steal", piece)) for piece in lowest_of_each(loot)}

    def obliged_actions(self):
        """fan-rules.md §9.6 WX-4: under an obligation the only legal moves are the
        stung piece's own moves ending neither on nor next to the Wasp's current
        cell; none, or the Wasp gone from the board (or the Queen gate shut):
        the obligation lapses (an empty set here)."""
        if self.obliged is None:
            return set()
        piece, wasp = self.obliged
        wasp_cell, cell = self.cell_of(wasp), self.cell_of(piece)
        if wasp_cell is None or cell is None or not self.in_play(self.to_move + QUEEN):
            return set()
        away = {d for d in own_moves(self, cell) if d != wasp_cell and d not in neighbours(wasp_cell)}
        return {Action("move", piece, (piece, d)) for d in away}

    def queen_spent(self, piece):
        """WX-5: a Queen whose colour has used the sting never moves by herself
        again; a Mosquito gets nothing from her (§5.1) [decision: nor does a
        Firefly's command, which plays her own movement]."""
        return bug(piece) == QUEEN and colour(piece) in self.stings_used

    def placeable_pieces(self):
        """The lowest-numbered copy in hand of each bug (rules.md, "Pieces"; with
        Venom the lowest-numbered tile, VN-2), without the Queen on the first turn
        and only the Queen on the fourth turn if she is still in hand (rules.md,
        "Turns"; fan-rules.md §1.3 G-5; the Queen tile, [V8]). With Predators the
        Queen may come on the first turn too (PR-2). In Swarm the side's hand
        holds the other colour's too (SW-2)."""
        side = self.to_move
        hand = self.hand[side]
        pieces = []
        # In Swarm the other colour's pieces the side holds too, after its own (SW-2).
        for holder in (side, other(side)) if self.swarm else (side,):
            for code in self.codes:
                in_hand = [name for name in piece_names(holder, code) if name in hand]
                if in_hand:
                    pieces.append(in_hand[0])
        queen = side + QUEEN
        if self.turn == 1 and "Predators" not in self.rules.modules:  # PR-2: no tournament opening
            pieces = [p for p in pieces if p != queen]
        elif self.turn == 4 and queen in hand:
            pieces = [queen]
        return pieces

    def placements(self):
        """Placements, each by its bug's placement rule; a Venom tile with each
        face it may be placed with (VN-2, VN-4: two moves), by that face's name.
        A rule reads only the placed piece's colour (in Swarm either, SW-2), so
        each rule's cells are found once per colour."""
        cells = {}
        actions = set()
        for tile in self.placeable_pieces():
            for face in self.rules.placement_faces(bug(tile)):
                piece = face_name(tile, face)
                rule = BUGS[face].placement
                if (rule, colour(piece)) not in cells:
                    cells[rule, colour(piece)] = rule(self, piece)
                actions |= {Action("place", piece, (piece, cell)) for cell in cells[rule, colour(piece)]}
        return actions

    def honeycomb_flip(self):
        """fan-rules.md §10 HC-4: `nH ~` while the Honeycomb is dark side up and
        uncovered and the side's Queen is in play (never the second action of a
        double turn: the tile is light then)."""
        if not self.honeycomb or self.light is not None or self.stacks[ORIGIN][-1] != HONEYCOMB:
            return set()
        if not self.in_play(self.to_move + QUEEN):
            return set()
        return {Action("flip", HONEYCOMB, (HONEYCOMB, "~"))}

    def flips(self):
        """fan-rules.md §6.0 VN-3, the flip turn: (tile, "~") for each tile of the
        side to move that may turn over: 1 its own, in play, uncovered; 2 its
        Queen tile in play; 3 not `Frozen`, not in `Last`; 4 no uncovered enemy
        Scorpion on an adjacent cell unless the tile shows the Stink bug (R-2, even
        a Frozen Scorpion [R3]); 5 on top of the hive only a Beetle or Mosquito
        tile; 6 plain Venom. A pinned tile may flip (nothing moves)."""
        side = self.to_move
        if not self.rules.flips or not self.in_play(side + QUEEN):
            return set()
        actions = set()
        for cell, stack in self.stacks.items():
            piece = stack[-1]
            if colour(piece) != side or len(self.rules.faces(bug(tile_of(piece)))) != 2:
                continue
            if piece in self.frozen or piece in self.last:
                continue
            scorpion = any(
                bug(top(self.stacks, n)) == SCORPION and top_colour(self.stacks, n) != side
                for n in neighbours(cell) if occupied(self.stacks, n)
            )
            if scorpion and bug(piece) != STINK_BUG:
                continue
            if len(stack) > 1 and bug(tile_of(piece)) not in FLIP_ON_TOP:
                continue
            if len(stack) > 1 and self.rules.mimic_stays_down and BUGS[bug(other_face(piece))].mimic:
                continue  # MQ-4: the flip would leave a Mosquito on top
            actions.add(Action("flip", piece, (piece, "~")))
        return actions

    def powers(self, cell):
        """The movements and abilities of the top piece of `cell`: its own row's,
        or for a mimic on the ground those its neighbours' top bugs lend
        (fan-rules.md §5.1 MQ-1: mimics lend nothing; a row's `lends` if it has
        one), and for a mimic on top of the hive the Beetle's only (MQ-2). A
        `coloured` movement comes bound to the piece's colour."""
        piece = top(self.stacks, cell)
        row = BUGS[bug(piece)]
        if self.queen_spent(piece):  # WX-5: she never moves by herself again
            return (), (), ()
        if not row.mimic:
            coloured = tuple(partial(movement, own=colour(piece)) for movement in row.coloured)
            return row.movements + coloured, row.targeted, row.abilities
        if height(self.stacks, cell) > 1:
            return BUGS[BEETLE].movements, (), ()
        movements, targeted, abilities = (), (), ()
        for n in neighbours(cell):
            if occupied(self.stacks, n):
                lender = BUGS[bug(top(self.stacks, n))]
                if not lender.mimic and not self.queen_spent(top(self.stacks, n)):
                    movements += lender.movements if lender.lends is None else lender.lends
                    targeted += lender.targeted
                    abilities += lender.abilities
        return movements, targeted, abilities

    def movements(self):
        """Moves of pieces in play, the side's own and those its abilities move,
        and with a Tick those of the enemy pieces it controls."""
        side = self.to_move
        # G-1: no movement, nor an ability, before the own Queen is in play; on
        # the fourth turn with the Queen in hand only she may be placed.
        if not self.in_play(side + QUEEN):
            return set()
        actions = set()
        for cell in list(self.stacks):
            piece = top(self.stacks, cell)  # G-3: a covered piece never moves or acts
            # §3.3: a Frozen piece may not move or use any ability.
            if colour(piece) != side or piece in self.frozen:
                continue
            movements, targeted, abilities = self.powers(cell)
            actions |= {Action("move", piece, (piece, dest)) for dest in self.destinations(cell, movements, targeted)}
            # Abilities work even when the user is pinned (rules.md, "Pillbug";
            # W-2); the Centipede checks its own pin (C-1).
            if not self.queen_spent(piece):
                abilities += BUGS[bug(piece)].unlent
            for ability in abilities:
                actions |= {Action(ability_kind(move, self.rules), piece, move) for move in ability(self, cell)}
            if BUGS[bug(piece)].controls:
                actions |= self.controlled(cell)
        return actions

    def destinations(self, cell, movements, targeted):
        """Where the top piece of `cell` may go by `movements` and the `targeted`
        ones (the Fly's, onto Y-1's target: the cell of the opponent's last
        `Prime`). G-2 One Hive: a lone ground piece whose removal splits the hive
        is pinned; a piece on top of a stack never splits it. G-4: a move ends on
        another cell. MQ-4: with the S004 Moth in the game a mimic never ends on
        top of the hive."""
        lifted = without(self.stacks, cell)
        if height(self.stacks, cell) == 1 and not is_connected(lifted):
            return set()
        destinations = set()
        for movement in movements:
            destinations |= movement(lifted, cell)
        target = None if self.prime is None else self.cell_of(self.prime)
        if target is not None and target != cell:  # Y-1: no Fly move onto its own cell
            for movement in targeted:
                destinations |= movement(lifted, cell, target)
        if self.rules.mimic_stays_down and BUGS[bug(top(self.stacks, cell))].mimic:
            destinations = {d for d in destinations if not occupied(lifted, d)}
        return destinations - {cell}

    def controlled(self, tick_cell):
        """fan-rules.md §6.7 T-3, the Tick's mind control from `tick_cell` (the
        Tick uncovered, not Frozen: the caller checks; it may be pinned). For each
        enemy piece t on top of an adjacent cell at the Tick's own level, not
        Frozen, not a Stink bug: every action of t, played by the side to move
        [T1]. Its movements obey its own rules (One Hive, gates, climbing) and give
        (t, cell, "@"), which freezes nothing [T4]; its abilities read the side to
        move as the acting side, so their "enemy" is t's own side, and `Last` still
        stops a throw; they make the moves they make (a thrown enemy piece is
        Frozen, §3.2). Not t's own mind control [T2], nor an ability aimed at the
        Tick [decision]; t may move onto the Tick (EX-T2)."""
        stacks = self.stacks
        tick = top(stacks, tick_cell)
        actions = set()
        for cell in neighbours(tick_cell):
            t = top(stacks, cell)
            if t is None or colour(t) == self.to_move or height(stacks, cell) != height(stacks, tick_cell):
                continue
            if t in self.frozen or untouchable(t):
                continue
            movements, targeted, abilities = self.powers(cell)
            actions |= {Action("control", tick, (t, dest, "@")) for dest in self.destinations(cell, movements, targeted)}
            for ability in abilities:
                for move in ability(self, cell):
                    aimed = move[0] if len(move) == 2 else move[2]
                    if aimed != tick:
                        actions.add(Action(ability_kind(move, self.rules), t, move))
        return actions

    # --- Notation (uhp.md, "MoveString"; fan-rules.md §4.2) ---
    def name_in_play(self, text, what):
        """The current name of the piece in play that `text` names (either name of
        a Venom tile, §4.1), or a ValueError naming `what` it was meant to be."""
        piece = canonical_piece(text)
        if not self.is_piece(piece) or not self.in_play(piece):
            raise ValueError(f"{what} {piece} is not in play")
        return self.current_name(piece)

    def parse(self, text):
        """The move a MoveString names in this position: 'pass', 'wS1' (the
        origin), 'bB1 wQ' (on top of wQ), 'wQ wG1-', 'bL /wG1' (next to it); a
        throw may end in ' ^thrower' (the thrower is checked to touch both
        cells); the spec's examples' prefix '(q,r)@L ' (the mover ends on cell
        (q, r) at level L; '@L' optional) is checked against the move. With Venom
        (§4.2, NO-1): 'wG2 ~' an own flip, 'wW ~bA1' a sting, 'wC =bS1' a swap;
        'wK xbA1' a Predator's removal (§7); a tile in play may be named by
        either face, its current one is returned;
        a tile in hand is named by the face it is placed with ('wD2 -wQ')."""
        text = text.strip()
        expected_cell = expected_level = None
        prefix = MOVE_PREFIX.match(text)
        if prefix:
            expected_cell = int(prefix.group(1)), int(prefix.group(2))
            expected_level = None if prefix.group(3) is None else int(prefix.group(3))
            text = prefix.group(4).strip()
        if text.lower() == "pass":
            return "pass"
        parts = text.split()
        if parts[0].lower() in SWARM_ENTRIES:
            # Named by colours and bugs: the entry of that kind taking the same (SW-1, SW-3, SW-4).
            wanted = sorted(map(colour_and_bug, map(canonical_piece, parts[1:])))
            for move in self.legal_moves():
                if move[0] == parts[0].lower() and sorted(map(colour_and_bug, move[1:])) == wanted:
                    return move
            raise ValueError(f"{text!r} is not a legal entry here")
        controller = None
        if len(parts) >= 2 and parts[-1].startswith("@"):  # mind control (§6.7, §9.7, §4.2)
            controller = self.name_in_play(parts.pop()[1:], "the controller")
            commands = firefly_command in BUGS[bug(controller)].unlent
            if not (BUGS[bug(controller)].controls or commands) or colour(controller) != self.to_move:
                raise ValueError(f"{controller} controls no piece in {text!r}")
        if len(parts) == 2 and parts[1][0] in "~=x" and (parts[1][0] != "x" or len(parts[1]) > 1):
            if expected_cell is not None:
                raise ValueError(f"{text!r} moves nothing to a cell: no (q,r) prefix")
            actor = self.name_in_play(parts[0], "the piece of")
            if parts[1] == "~":
                return actor, "~"
            target = self.name_in_play(parts[1][1:], "the target")
            if parts[1][0] == "x" and bug(actor) == "Nx" and bug(target) == "M" and (target, "x", actor) in \
                    self.legal_moves():
                return target, "x", actor  # ID-1: the Mosquito's copy names the move (mantis_capture)
            if parts[1][0] in "=x":
                return actor, parts[1][0], target
            return self.canonical_sting(actor, target)
        if len(parts) == 2 and parts[1][0] == "!":  # an S004 Wasp's sting (§4.2)
            return self.name_in_play(parts[0], "the Wasp"), "!", self.name_in_play(parts[1][1:], "the target")
        thrower = None
        if len(parts) == 3 and parts[2].startswith("^"):
            thrower = canonical_piece(parts.pop()[1:])
        if not 1 <= len(parts) <= 2:
            raise ValueError(f"{text!r} is not a move of this reference")
        piece = canonical_piece(parts[0])
        if not self.is_piece(piece):
            raise ValueError(f"{piece} is not a piece of {self.game_type}")
        piece = self.current_name(piece)  # a tile in play by its current face; in hand the face named
        if len(parts) == 1:
            move = piece, ORIGIN
        else:
            reference = parts[1]
            marks = {"-": 3, "/": 4, "\\": 2}  # before the name: W, SW, NW
            after = {"-": 0, "/": 1, "\\": 5}  # after it: E, NE, SE
            direction = None
            if reference[0] in marks:
                direction, reference = DIRECTIONS[marks[reference[0]]], reference[1:]
            elif reference[-1] in after:
                direction, reference = DIRECTIONS[after[reference[-1]]], reference[:-1]
            cell = self.cell_of(canonical_piece(reference))
            if cell is None:
                raise ValueError(f"reference piece of {text!r} is not in play")
            move = piece, cell if direction is None else add(cell, direction)
        if controller is not None and bug(controller) == "Fx":  # a Firefly's command: a throw's state
            if move not in firefly_command(self, self.cell_of(controller)):
                raise ValueError(f"{controller} cannot make {piece} move as {text!r} says")
        elif controller is not None and thrower is None:  # the controlled piece's own movement
            move = (*move, "@")
        if thrower is not None:
            at, source = self.cell_of(thrower), self.cell_of(piece)
            if at is None or source is None or not {source, move[1]} <= set(neighbours(at)):
                raise ValueError(f"{thrower} cannot throw {piece} in {text!r}")
        if expected_cell is not None:
            cell, level = self.landing(move)
            if cell != expected_cell or expected_level not in (None, level):
                raise ValueError(f"{text!r} ends on {cell} at level {level}, not as its prefix says")
        return move

    def canonical_sting(self, actor, victim):
        """The move of `actor` stinging `victim`: named by the first stinger of
        that victim (stinger_order) when `actor` is one of them (ID-1, NO-5:
        every equivalent string is accepted); as written otherwise (illegal)."""
        stingers = {a.actor for a in self.movements() if a.kind == "sting" and a.move[2] == victim}
        if actor in stingers:
            actor = min(stingers, key=lambda name: stinger_order(name, self.to_move))
        return actor, "~", victim


SWARM_ENTRIES = ("choose", "draw", "steal")  # §11, the first word of the move


def colour_and_bug(name):
    return colour(name), bug(name)


def lowest_of_each(pieces):
    """The lowest-numbered piece of each colour and bug among `pieces`."""
    lowest = {}
    for piece in sorted(pieces, key=piece_order):
        lowest.setdefault(colour_and_bug(piece), piece)
    return lowest.values()


def lowest_copies(pool, combo):
    """The pieces of `combo` renamed as the lowest-numbered copies of their bugs
    in `pool` (sorted in piece order), in piece order."""
    names = []
    for piece in combo:
        names.append(next(p for p in pool if colour_and_bug(p) == colour_and_bug(piece) and p not in names))
    return tuple(sorted(names, key=piece_order))


def stinger_order(name, side):
    """The sort key of a stinger for `side`'s sting (NO-5): own first, then piece order."""
    return colour(name) != side, piece_order(name)


def ability_kind(move, rules):
    """The Action kind of a move an ability makes in a game of `rules`: a throw
    (piece, cell), a sting (wasp, "~", victim), a swap (centipede, "=", target),
    a removal (predator, "x", target), or "to hand" for the Queen's sting and
    an S004 Mantis's removal (queen or mantis, "x", target), an S004 Wasp's
    sting (wasp, "!", target)."""
    if len(move) == 3:
        if move[1] == "x" and (bug(move[0]) == QUEEN or "Nx" in rules.bugs):
            return "to hand"
        return {"~": "sting", "=": "swap", "x": "remove", "!": "wasp sting"}[move[1]]
    return "throw"


def canonical_stings(actions, side):
    """ID-1 for stings: every sting of one victim gives one state (the victim
    turned over and frozen, whoever stung it), so its move names the first of
    the stingers: one of `side`'s own before one its Tick controls (printed
    without `@`), then in piece order (§4.1; NO-5). Actions keep their real actor."""
    stingers = {}
    for action in actions:
        if action.kind == "sting":
            stingers.setdefault(action.move[2], []).append(action.actor)
    if not stingers:
        return actions
    first = {victim: min(names, key=lambda name: stinger_order(name, side)) for victim, names in stingers.items()}
    return {
        Action(a.kind, a.actor, (first[a.move[2]], "~", a.move[2])) if a.kind == "sting" else a
        for a in actions
    }


def perft(position, depth):
    """Leaf count of the legal-move tree (rules.md, "Perft"; fan-rules.md §3.5
    ID-3), by replaying the moves on copies."""
    moves = position.legal_moves()
    if depth == 0:
        return 1
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        child = position.copy()
        child.play(move)
        total += perft(child, depth - 1)
    return total


def move_string(position, move):
    """A MoveString for a move of `position`, naming any neighbouring piece of the
    destination (or the top piece there), with the mover and a Dragonfly's cargo
    lifted (fan-rules.md §4.3 NO-3); for readable test failures."""
    if move == "pass":
        return "pass"
    if move[0] in SWARM_ENTRIES:
        return " ".join(move)
    controller = position.to_move + "T"  # the side's Tick, when an enemy piece acts (§6.7)
    if move[-1] == "@":  # a controlled movement `bQ bP/ @wT`
        return f"{move_string(position, move[:2])} @{controller}"
    if len(move) == 3:  # a sting `wW ~bA1`, a swap `wC =bS1`, a removal `wK xbA1` (§4.2)
        text = f"{move[0]} {move[1]}{move[2]}"
        return text if colour(move[0]) == position.to_move else f"{text} @{controller}"
    if move[1] == "~":  # an own flip, the tile's name before it (§4.2)
        return f"{move[0]} ~"
    piece, dest = move
    if not position.stacks:
        return piece
    lifted = dict(position.stacks)
    source = position.cell_of(piece)
    if source is not None:
        carries = position.dragonfly_cargo(piece, dest) is not None
        lifted = without(position.stacks, *([source] * (2 if carries else 1)))
    if occupied(lifted, dest):
        return f"{piece} {top(lifted, dest)}"
    for i, d in enumerate(DIRECTIONS):
        # The neighbour in direction d sees the destination in direction -d.
        reference = top(lifted, add(dest, d))
        if reference is not None:
            mark = ["-{}", "/{}", "{}\\", "{}-", "{}/", "\\{}"][i]
            return f"{piece} {mark.format(reference)}"
    return f"{piece} {dest}"


def draw(stacks, marks=()):
    """The board as rows of hexes, for comments and failure messages: each row r
    is shifted half a hex from the one above, so that (q, r) touches (q + 1, r - 1)
    and (q, r + 1) as on the real board. A cell shows its top piece (with `^h`
    under a stack of h pieces), `*` a cell of `marks`, `.` an empty cell next to
    the hive."""
    cells = set(stacks) | set(marks)
    cells |= {n for c in stacks for n in neighbours(c)}
    q_min = min(q + r / 2 for q, r in cells)
    rows = []
    for r in range(min(r for _, r in cells), max(r for _, r in cells) + 1):
        row = {q: c for q, c in [(c[0], c) for c in cells if c[1] == r]}
        line = ""
        for q in sorted(row):
            cell = row[q]
            column = int(round((q + r / 2 - q_min) * 2)) * 3  # 6 characters a hex
            text = "*" if cell in marks else "."
            if cell in stacks:
                text = stacks[cell][-1] + (f"^{len(stacks[cell])}" if len(stacks[cell]) > 1 else "")
            line = line.ljust(column) + text.center(6)
        rows.append(line.rstrip())
    return "\n".join(rows)
