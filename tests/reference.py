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
"""

import re
from collections import deque
from collections.abc import Callable
from functools import lru_cache
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


# --- Placement rules ----------------------------------------------------------------
# Each takes the position and the piece to place and returns the cells it may go
# to; a cell that is occupied means on top of it.
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
        if tops == {side}:
            cells.add(cell)
    return cells


def flea_placement(position, piece):
    """fan-rules.md §9.1 E-1: an empty ground cell touching at least one cell
    topped by the Flea's colour and at least one topped by the other colour, and
    not next to a cell holding the other colour's Queen at any level, covered or
    not. So never a first piece."""
    stacks = position.stacks
    side = colour(piece)
    enemy_queen = other(side) + QUEEN
    empty = {n for cell in stacks for n in neighbours(cell) if not occupied(stacks, n)}
    cells = set()
    for cell in empty:
        tops = {top_colour(stacks, n) for n in neighbours(cell)}
        near_queen = any(enemy_queen in stacks.get(n, ()) for n in neighbours(cell))
        if side in tops and other(side) in tops and not near_queen:
            cells.add(cell)
    return cells


def guardian_placement(position, piece):
    """fan-rules.md §8 GU-2 (replaces G-5, G-6): only on top of an occupied cell c
    (landing at level h(c)) whose top is the Guardian's colour, and no neighbour
    of c topped by the other colour. Never a first piece."""
    stacks = position.stacks
    side = colour(piece)
    return {
        cell
        for cell in stacks
        if top_colour(stacks, cell) == side and other(side) not in {top_colour(stacks, n) for n in neighbours(cell)}
    }


# --- The table of bugs ----------------------------------------------------------------
class Bug(NamedTuple):
    """One row of the table: what a bug is and how it moves.

    token: the game-type token that enables it (fan-rules.md §2.1, §2.4); None:
    always in. placement: (position, piece) -> cells (an occupied one: on top).
    movements: functions (stacks with the mover lifted, start cell) -> cells;
    abilities: functions (position, cell of the user) -> moves of other pieces;
    mimic: the bug moves as the top bugs around it (the Mosquito), so its own
    movements and abilities are empty; lends: the movements a Mosquito borrows
    from it when they are not its own (fan-rules.md §5.1 table; abilities are
    always lent); rests_on_top: it can end a turn on top of the hive (§2.5);
    always_on_top: it never comes down (the Guardians, §8 GU-3)."""

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


BUGS = {
    "Q": Bug("Queen Bee", 1, None, movements=(slide_one,)),
    "S": Bug("Spider", 2, None, movements=(spider_walk,)),
    "B": Bug("Beetle", 2, None, movements=(beetle_step,), rests_on_top=True),
    "G": Bug("Grasshopper", 3, None, movements=(grasshopper_jump,)),
    "A": Bug("Soldier Ant", 3, None, movements=(ant_walk,)),
    "M": Bug("Mosquito", 1, "M", mimic=True, rests_on_top=True),
    "L": Bug("Ladybug", 1, "L", movements=(ladybug_walk,)),
    "P": Bug("Pillbug", 1, "P", movements=(slide_one,), abilities=(throw,)),
    "V": Bug("Moth", 1, "Guardians", movements=(moth_flight,), placement=guardian_placement, lends=(),
             rests_on_top=True, always_on_top=True),
    "Z": Bug("Butterfly", 1, "Guardians", movements=(butterfly_flight,), placement=guardian_placement, lends=(),
             rests_on_top=True, always_on_top=True),
    "Dx": Bug("Dragonfly (Sperling)", 1, "Dx", movements=(dragonfly_hop,), lends=(dragonfly_hop_to_ground,),
              rests_on_top=True),
    "E": Bug("Flea", 1, "E", movements=(flea_move,), placement=flea_placement),
    "J": Bug("Woodlouse", 1, "J", movements=(up_one_down_one,), abilities=(throw,)),
}
QUEEN = "Q"
BEETLE = "B"
DRAGONFLY = "Dx"


def other(side):
    return BLACK if side == WHITE else WHITE


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
# §2.2: the variants the spec names, none of them played by this reference.
KNOWN_VARIANTS = {
    "Venom": ("Placed", "Fixed", "DragonflyOneTurn", "CentipedeStrict", "TickOwnerSide"),
    "Predators": ("MantisEver",),
    "Dx": ("V2",),
    "J": ("Literal",),
}
SEGMENT = re.compile(r"^([A-Za-z]+)(?:\(([^()]*)\))?$")


class GameType(NamedTuple):
    """A parsed GameTypeString: the official letters (in M, L, P order), the
    modules and the bug tokens (each in canonical order, GT-2)."""

    official: str = ""
    modules: tuple = ()
    bugs: tuple = ()

    @property
    def text(self):
        """GT-2: Base, then the official letters, the modules, the bug tokens."""
        return "+".join(["Base"] + ([self.official] if self.official else []) + list(self.modules + self.bugs))

    @property
    def tokens(self):
        return set(self.official) | set(self.modules) | set(self.bugs)

    @property
    def codes(self):
        """The bug codes in play, in piece order (fan-rules.md §4.1)."""
        return [code for code, row in BUGS.items() if row.token is None or row.token in self.tokens]

    @property
    def max_height(self):
        """fan-rules.md §2.5: one ground piece plus two of each top-capable piece
        per side (1 + 2 x their copies)."""
        return 1 + 2 * sum(BUGS[code].copies for code in self.codes if BUGS[code].rests_on_top)


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
    names = {t for t, _ in tokens}
    for (a, b), bug_name in NEVER_TOGETHER.items():
        if a in names and b in names:
            raise ValueError(f"game type {text!r}: {a} and {b} are two versions of the {bug_name}")
    for token, variants in tokens:
        for variant in (variants or "").split(",") if variants is not None else ():
            name = variant.partition(":")[0].strip()
            if name not in KNOWN_VARIANTS.get(token, ()):
                raise ValueError(f"game type {text!r}: {token} has no variant {variant!r}")
            raise ValueError(f"game type {text!r}: the variant {token}({variant}) is not implemented")
    played = {row.token for row in BUGS.values()}
    for token in names - played:
        raise ValueError(f"game type {text!r}: {token} is not implemented")
    return GameType(
        official or "",
        tuple(t for t in MODULES if t in names),
        tuple(t for t in BUG_TOKENS if t in names),
    )


# --- The position ----------------------------------------------------------------------
class Action(NamedTuple):
    """One way to a legal move: its kind ("place", "move", "throw"), the piece
    that acts (the thrower for a throw) and the move."""

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
        self.pieces = {c: tuple(name for code in self.codes for name in piece_names(c, code)) for c in COLORS}
        self.stacks = {}
        self.hand = {c: list(self.pieces[c]) for c in COLORS}
        self.ply = 0
        self.last = frozenset()  # the pieces the previous turn acted on
        self.frozen = frozenset()  # a subset of last: they may not move, be moved or act
        self.prime = None  # the piece a "where the opponent just acted" rule looks at
        self.placed = None  # the piece the previous turn placed
        self.result = None  # None while in progress, else "WhiteWins", "BlackWins" or "Draw"

    def pieces_of(self, side):
        """Every piece of one side in this game type, in piece order."""
        return list(self.pieces[side])

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
    def from_example(cls, game_type, board, to_move=WHITE, last=(), frozen=(), prime=None, placed=None, turn=8):
        """A position written as in the spec's examples (fan-rules.md §1.1):
        `(0,0) wQ · (0,1) bA1+wD1` (stacks bottom to top with `+`), built
        directly, not replayed; every piece not on the board is in its owner's
        hand. The turn number (the side to move's) is 8 unless given, so that the
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
                if piece not in everything:
                    raise ValueError(f"{piece} is not a piece of {position.game_type} or is placed twice")
                everything.discard(piece)
                position.hand[colour(piece)].remove(piece)
            position.stacks[cell] = stack
        if to_move not in COLORS:
            raise ValueError(f"the side to move is w or b, not {to_move!r}")
        position.ply = 2 * (turn - 1) + COLORS.index(to_move)
        position.last = frozenset(canonical_piece(p) for p in last)
        position.frozen = frozenset(canonical_piece(p) for p in frozen)
        if not position.frozen <= position.last:
            raise ValueError("Frozen is a subset of Last (fan-rules.md §3.2)")
        position.prime = None if prime is None else canonical_piece(prime)
        position.placed = None if placed is None else canonical_piece(placed)
        position.result = position.outcome()
        return position

    def copy(self):
        """A position equal to this one that shares nothing mutable with it."""
        child = Position.__new__(Position)
        child.__dict__.update(self.__dict__)  # the game type and the immutable statuses
        child.stacks = {cell: list(stack) for cell, stack in self.stacks.items()}
        child.hand = {side: list(hand) for side, hand in self.hand.items()}
        return child

    def signature(self):
        """The full state of fan-rules.md §3.1 as a hashable value: every stack,
        both hands, the side to move, Last, Frozen, Prime, Placed and the result
        (not the turn number or the history). Two moves are one iff their
        results have one signature (ID-1)."""
        return (
            tuple(sorted((cell, tuple(stack)) for cell, stack in self.stacks.items())),
            tuple(sorted(self.hand[WHITE])),
            tuple(sorted(self.hand[BLACK])),
            self.to_move,
            self.last,
            self.frozen,
            self.prime,
            self.placed,
            self.result,
        )

    # --- Reading the position ---
    @property
    def to_move(self):
        return COLORS[self.ply % 2]

    @property
    def turn(self):
        """The side to move's turn number, 1 on its first turn."""
        return self.ply // 2 + 1

    def cell_of(self, piece):
        for cell, stack in self.stacks.items():
            if piece in stack:
                return cell
        return None

    def level_of(self, piece):
        cell = self.cell_of(piece)
        return None if cell is None else self.stacks[cell].index(piece)

    def in_play(self, piece):
        return self.cell_of(piece) is not None

    def queen_captured(self, side):
        """fan-rules.md §3.8: a Queen in play is captured when all six neighbours
        are occupied; with Guardians also a piece of either colour on top of her
        (GU-1). A Queen in hand is never captured."""
        cell = self.cell_of(side + QUEEN)
        if cell is None or not all(occupied(self.stacks, n) for n in neighbours(cell)):
            return False
        return "Guardians" not in self.rules.modules or top(self.stacks, cell) != side + QUEEN

    def outcome(self):
        """fan-rules.md §3.8 (rules.md, "End of the game"): one Queen captured, its
        owner loses; both, a draw."""
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
        if cargo in self.frozen or BUGS[bug(cargo)].always_on_top:
            return None
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
        if move == "pass":
            self.last, self.frozen, self.prime, self.placed = frozenset(), frozenset(), None, None
        else:
            piece, dest = move
            source = self.cell_of(piece)
            cargo = None
            if source is None:
                # A placement; a Guardian's lands on top of the stack (GU-2).
                self.hand[colour(piece)].remove(piece)
            else:
                cargo = self.dragonfly_cargo(piece, dest)
                self.stacks = without(self.stacks, *([source] * (2 if cargo else 1)))
            if cargo:
                self.stacks.setdefault(dest, []).append(cargo)
            self.stacks.setdefault(dest, []).append(piece)
            # Last: the mover, and a Dragonfly's cargo (DX-4: not frozen); Frozen:
            # a thrown piece of the acting side's opponent, the only way an enemy
            # piece moves here (ST-1: an own piece thrown is not frozen).
            self.last = frozenset({piece, cargo} - {None})
            self.frozen = frozenset({piece}) if source is not None and colour(piece) != side else frozenset()
            self.prime = piece
            self.placed = piece if source is None else None
        self.ply += 1
        self.result = self.outcome()

    def landing(self, move):
        """Where the mover of `move` ends: (cell, level)."""
        child = self.copy()
        child.play(move)
        piece = move[0]
        return child.cell_of(piece), child.level_of(piece)

    # --- The legal moves ---
    def legal_moves(self):
        """Every legal move: a set of (piece, cell) and, when nothing else is
        possible, {"pass"}; empty once the game is over."""
        if self.result is not None:
            return set()
        moves = {action.move for action in self.actions()}
        return moves or {"pass"}

    def actions(self):
        """Every way to a legal move (an own move and a throw to one cell are two
        actions and one move); empty once the game is over."""
        if self.result is not None:
            return set()
        return self.placements() | self.movements()

    def placeable_pieces(self):
        """The lowest-numbered copy in hand of each bug (rules.md, "Pieces"),
        without the Queen on the first turn and only the Queen on the fourth turn
        if she is still in hand (rules.md, "Turns"; fan-rules.md §1.3 G-5)."""
        side = self.to_move
        hand = self.hand[side]
        pieces = []
        for code in self.codes:
            in_hand = [name for name in piece_names(side, code) if name in hand]
            if in_hand:
                pieces.append(in_hand[0])
        queen = side + QUEEN
        if self.turn == 1:
            pieces = [p for p in pieces if p != queen]
        elif self.turn == 4 and queen in hand:
            pieces = [queen]
        return pieces

    def placements(self):
        """Placements, each by its bug's placement rule. A rule reads only the
        placed piece's colour, the side to move's for every piece placed now, so
        each rule's cells are found once."""
        cells = {}
        actions = set()
        for piece in self.placeable_pieces():
            rule = BUGS[bug(piece)].placement
            if rule not in cells:
                cells[rule] = rule(self, piece)
            actions |= {Action("place", piece, (piece, cell)) for cell in cells[rule]}
        return actions

    def powers(self, cell):
        """The movements and abilities of the top piece of `cell`: its own row's,
        or for a mimic on the ground those its neighbours' top bugs lend
        (fan-rules.md §5.1 MQ-1: mimics lend nothing; a row's `lends` if it has
        one), and for a mimic on top of the hive the Beetle's only (MQ-2)."""
        row = BUGS[bug(top(self.stacks, cell))]
        if not row.mimic:
            return row.movements, row.abilities
        if height(self.stacks, cell) > 1:
            return BUGS[BEETLE].movements, ()
        movements, abilities = (), ()
        for n in neighbours(cell):
            if occupied(self.stacks, n):
                lender = BUGS[bug(top(self.stacks, n))]
                if not lender.mimic:
                    movements += lender.movements if lender.lends is None else lender.lends
                    abilities += lender.abilities
        return movements, abilities

    def movements(self):
        """Moves of pieces in play, the side's own and those its abilities move."""
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
            movements, abilities = self.powers(cell)
            lifted = without(self.stacks, cell)
            # G-2 One Hive: a lone ground piece whose removal splits the hive is
            # pinned; a piece on top of a stack never splits it.
            if height(self.stacks, cell) > 1 or is_connected(lifted):
                for movement in movements:
                    for dest in movement(lifted, cell):
                        if dest != cell:  # G-4
                            actions.add(Action("move", piece, (piece, dest)))
            # Abilities work even when the user is pinned (rules.md, "Pillbug").
            for ability in abilities:
                actions |= {Action("throw", piece, move) for move in ability(self, cell)}
        return actions

    # --- Notation (uhp.md, "MoveString"; fan-rules.md §4.2) ---
    def parse(self, text):
        """The move a MoveString names in this position: 'pass', 'wS1' (the
        origin), 'bB1 wQ' (on top of wQ), 'wQ wG1-', 'bL /wG1' (next to it); a
        throw may end in ' ^thrower' (the thrower is checked to touch both
        cells); the spec's examples' prefix '(q,r)@L ' (the mover ends on cell
        (q, r) at level L; '@L' optional) is checked against the move."""
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
        thrower = None
        if len(parts) == 3 and parts[2].startswith("^"):
            thrower = canonical_piece(parts.pop()[1:])
        if not 1 <= len(parts) <= 2:
            raise ValueError(f"{text!r} is not a move of this reference")
        piece = canonical_piece(parts[0])
        if piece not in self.pieces[WHITE] + self.pieces[BLACK]:
            raise ValueError(f"{piece} is not a piece of {self.game_type}")
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
        if thrower is not None:
            at, source = self.cell_of(thrower), self.cell_of(piece)
            if at is None or source is None or not {source, move[1]} <= set(neighbours(at)):
                raise ValueError(f"{thrower} cannot throw {piece} in {text!r}")
        if expected_cell is not None:
            cell, level = self.landing(move)
            if cell != expected_cell or expected_level not in (None, level):
                raise ValueError(f"{text!r} ends on {cell} at level {level}, not as its prefix says")
        return move


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
