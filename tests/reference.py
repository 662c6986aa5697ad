"""A plain-Python reference move generator for Hive, used only by the tests.

Written to be obvious, not fast: `../shared/spec/rules.md` (quoted below as
"rules.md, <section>") read line by line, over the simplest data there is.

- A cell is an axial pair (q, r) (uhp.md, "Directions"): q grows to the east,
  r to the south-east; the first piece stands on (0, 0).
- A position is a dict from cell to its stack, a list of piece names
  bottom-first (`{(0, 0): ["wQ", "bB1"]}`: bB1 on top of wQ). Empty cells are
  absent from the dict.
- A move is a tuple (piece name, destination cell), or the string "pass". A
  pillbug's throw is written as a move of the thrown piece, as in UHP, so the
  legal moves form a set in which a cell reached both by a piece's own move and
  by a throw is one move (rules.md, "Pillbug").

The bugs live in ONE table, `BUGS`, keyed by letter: each row names its
movement functions and abilities (the pillbug's throw). The Mosquito's row only
says that it copies its neighbours' rows. A new bug is one more row and its
functions. Nothing here imports the engine: the tests compare the two.

>>> position = Position.from_game_string("Base+MLP;InProgress;White[2];wG1;bL /wG1")
>>> sorted(move_string(position, m) for m in position.legal_moves())[:3]
['wA1 \\\\wG1', 'wA1 wG1-', 'wA1 wG1/']
>>> len(position.legal_moves())
24
"""

from collections import deque
from typing import NamedTuple, Optional

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


def neighbours(cell):
    """The six cells around `cell`."""
    return [add(cell, d) for d in DIRECTIONS]


def shared_neighbours(a, b):
    """The two cells that touch both a and its neighbour b."""
    i = DIRECTIONS.index((b[0] - a[0], b[1] - a[1]))
    return add(a, DIRECTIONS[(i - 1) % 6]), add(a, DIRECTIONS[(i + 1) % 6])


def height(stacks, cell):
    """Number of pieces on a cell."""
    return len(stacks.get(cell, ()))


def occupied(stacks, cell):
    return height(stacks, cell) > 0


def colour(piece):
    return piece[0]


def bug(piece):
    return piece[1]


def top(stacks, cell):
    """The top piece of a cell, None when it is empty."""
    stack = stacks.get(cell)
    return stack[-1] if stack else None


def without(stacks, cell):
    """A copy of `stacks` with the top piece of `cell` lifted off (rules.md,
    "Movement rules common to all bugs": the moving piece is lifted off the board
    while its moves are generated)."""
    lifted = {c: list(s) for c, s in stacks.items()}
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
    A ground-to-ground step also needs contact, as in sliding."""
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


# --- Abilities ----------------------------------------------------------------------
def pillbug_throw(position, user_cell):
    """Pillbug's special power, used by the top piece of `user_cell`: lift an
    adjacent piece over itself onto an empty cell adjacent to itself (rules.md,
    "Pillbug"). Returns moves of the thrown pieces."""
    stacks = position.stacks
    user = top(stacks, user_cell)
    # A covered pillbug has no power (a covered piece is never the caller's top
    # piece), nor does one on top of the hive (a mosquito up there is a beetle),
    # nor the piece the opponent just moved.
    if height(stacks, user_cell) != 1 or user == position.last_moved:
        return set()
    moves = set()
    for source in neighbours(user_cell):
        target = top(stacks, source)
        # The taken piece: on the ground with nothing on top, not the piece moved
        # on the previous turn, and movable without breaking the One Hive rule.
        if target is None or height(stacks, source) != 1 or target == position.last_moved:
            continue
        lifted = without(stacks, source)
        if not is_connected(lifted):
            continue
        # Onto the pillbug (from the ground, height 0) ...
        if not can_climb(lifted, source, user_cell, 0):
            continue
        # ... then down from its top to an empty neighbour of the pillbug.
        for dest in neighbours(user_cell):
            if dest != source and not occupied(lifted, dest):
                if can_climb(lifted, user_cell, dest, height(lifted, user_cell)):
                    moves.add((target, dest))
    return moves


# --- The table of bugs ----------------------------------------------------------------
class Bug(NamedTuple):
    """One row of the table: what a bug is and how it moves.

    movements: functions (stacks with the mover lifted, start cell) -> cells;
    abilities: functions (position, cell of the user) -> moves of other pieces;
    mimic: the bug moves as the top bugs around it (the Mosquito), so its own
    movements and abilities are empty."""

    name: str
    copies: int
    expansion: Optional[str]  # the game-type letter that enables it; None: always in
    movements: tuple = ()
    abilities: tuple = ()
    mimic: bool = False


BUGS = {
    "Q": Bug("Queen Bee", 1, None, movements=(slide_one,)),
    "S": Bug("Spider", 2, None, movements=(spider_walk,)),
    "B": Bug("Beetle", 2, None, movements=(beetle_step,)),
    "G": Bug("Grasshopper", 3, None, movements=(grasshopper_jump,)),
    "A": Bug("Soldier Ant", 3, None, movements=(ant_walk,)),
    "M": Bug("Mosquito", 1, "M", mimic=True),
    "L": Bug("Ladybug", 1, "L", movements=(ladybug_walk,)),
    "P": Bug("Pillbug", 1, "P", movements=(slide_one,), abilities=(pillbug_throw,)),
}
QUEEN = "Q"
BEETLE = "B"


def piece_names(colour_letter, letter):
    """Names of a bug's copies for one side, in placing order: wQ; wS1, wS2."""
    copies = BUGS[letter].copies
    if copies == 1:
        return [colour_letter + letter]
    return [f"{colour_letter}{letter}{i}" for i in range(1, copies + 1)]


def parse_game_type(text):
    """Enabled bug letters of a GameTypeString (Base, Base+MLP, ...)."""
    head, _, extra = text.strip().partition("+")
    if head.lower() != "base":
        raise ValueError(f"unknown game type {text!r}")
    extra = set(extra.upper())
    return [letter for letter, row in BUGS.items() if row.expansion is None or row.expansion in extra]


# --- The position ----------------------------------------------------------------------
class Position:
    """A game in progress: stacks, pieces in hand, the side to move, the piece
    moved on the previous ply and the result."""

    def __init__(self, game_type="Base"):
        self.game_type = game_type
        self.letters = parse_game_type(game_type)
        self.stacks = {}
        self.hand = {c: [name for letter in self.letters for name in piece_names(c, letter)] for c in COLORS}
        self.ply = 0
        self.last_moved = None  # moved or placed on the previous ply; None after a pass
        self.result = None  # None while in progress, else "WhiteWins", "BlackWins" or "Draw"

    @classmethod
    def from_game_string(cls, text):
        """Replay a GameString's moves, each checked against the legal moves."""
        fields = [f.strip() for f in text.strip().split(";")]
        position = cls(fields[0])
        for move_text in fields[3:]:
            if move_text:
                position.play(position.parse(move_text), check=True)
        return position

    def copy(self):
        child = Position(self.game_type)
        child.stacks = {cell: list(stack) for cell, stack in self.stacks.items()}
        child.hand = {side: list(hand) for side, hand in self.hand.items()}
        child.ply, child.last_moved, child.result = self.ply, self.last_moved, self.result
        return child

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

    def in_play(self, piece):
        return self.cell_of(piece) is not None

    def queen_surrounded(self, colour_letter):
        cell = self.cell_of(colour_letter + QUEEN)
        return cell is not None and all(occupied(self.stacks, n) for n in neighbours(cell))

    # --- Making moves ---
    def play(self, move, check=False):
        """Apply a move; with check, it must be one of the legal moves."""
        if check and move not in self.legal_moves():
            raise ValueError(f"illegal move {move!r} in {self.game_type} at ply {self.ply}")
        if move == "pass":
            self.last_moved = None
        else:
            piece, dest = move
            source = self.cell_of(piece)
            if source is None:
                self.hand[colour(piece)].remove(piece)
            else:
                self.stacks[source].pop()
                if not self.stacks[source]:
                    del self.stacks[source]
            self.stacks.setdefault(dest, []).append(piece)
            self.last_moved = piece
        self.ply += 1
        # rules.md, "End of the game": a surrounded Queen loses; both: a draw.
        white_lost, black_lost = self.queen_surrounded(WHITE), self.queen_surrounded(BLACK)
        if white_lost and black_lost:
            self.result = "Draw"
        elif white_lost:
            self.result = "BlackWins"
        elif black_lost:
            self.result = "WhiteWins"

    # --- The legal moves ---
    def legal_moves(self):
        """Every legal move: a set of (piece, cell) and, when nothing else is
        possible, {"pass"}; empty once the game is over."""
        if self.result is not None:
            return set()
        moves = self.placements() | self.movements()
        return moves or {"pass"}

    def placeable_pieces(self):
        """The lowest-numbered copy in hand of each bug (rules.md, "Pieces"),
        without the Queen on the first turn and only the Queen on the fourth turn
        if she is still in hand (rules.md, "Turns")."""
        side = self.to_move
        hand = self.hand[side]
        pieces = []
        for letter in self.letters:
            in_hand = [name for name in piece_names(side, letter) if name in hand]
            if in_hand:
                pieces.append(in_hand[0])
        queen = side + QUEEN
        if self.turn == 1:
            pieces = [p for p in pieces if p != queen]
        elif self.turn == 4 and queen in hand:
            pieces = [queen]
        return pieces

    def placement_cells(self):
        """Where the side to move may place (rules.md, "Turns")."""
        if self.ply == 0:
            return {ORIGIN}
        if self.ply == 1:
            return set(neighbours(ORIGIN))
        side = self.to_move
        cells = set()
        for cell in self.stacks:
            for n in neighbours(cell):
                if occupied(self.stacks, n):
                    continue
                tops = [colour(top(self.stacks, m)) for m in neighbours(n) if occupied(self.stacks, m)]
                if side in tops and all(c == side for c in tops):
                    cells.add(n)
        return cells

    def placements(self):
        return {(piece, cell) for piece in self.placeable_pieces() for cell in self.placement_cells()}

    def rows_of(self, cell):
        """The table rows a piece on top of `cell` moves by: its own, or for a
        mimic the rows of the top bugs touching it (mimics lend nothing), and on
        top of the hive the Beetle's only (rules.md, "Mosquito")."""
        row = BUGS[bug(top(self.stacks, cell))]
        if not row.mimic:
            return [row]
        if height(self.stacks, cell) > 1:
            return [BUGS[BEETLE]]
        lent = {bug(top(self.stacks, n)) for n in neighbours(cell) if occupied(self.stacks, n)}
        return [BUGS[letter] for letter in sorted(lent) if not BUGS[letter].mimic]

    def movements(self):
        """Moves of pieces in play, the side's own and those its abilities move."""
        side = self.to_move
        # No movement, nor a pillbug's power, before the own Queen is in play; on
        # the fourth turn with the Queen in hand only she may be placed.
        if not self.in_play(side + QUEEN):
            return set()
        moves = set()
        for cell in list(self.stacks):
            piece = top(self.stacks, cell)  # a covered piece never moves
            if colour(piece) != side:
                continue
            rows = self.rows_of(cell)
            # A piece the opponent's pillbug threw last turn stays where it is.
            if piece != self.last_moved:
                lifted = without(self.stacks, cell)
                # One Hive: a ground piece whose removal splits the hive is pinned;
                # a piece on top of a stack never splits it.
                if height(self.stacks, cell) > 1 or is_connected(lifted):
                    for row in rows:
                        for movement in row.movements:
                            moves |= {(piece, dest) for dest in movement(lifted, cell) if dest != cell}
            # Abilities work even when the user is pinned (rules.md, "Pillbug").
            for row in rows:
                for ability in row.abilities:
                    moves |= ability(self, cell)
        return moves

    # --- Notation (uhp.md, "MoveString") ---
    def parse(self, text):
        """The move a MoveString names in this position: 'pass', 'wS1' (the
        origin), 'bB1 wQ' (on top of wQ), 'wQ wG1-', 'bL /wG1' (next to it)."""
        text = text.strip()
        if text.lower() == "pass":
            return "pass"
        parts = text.split()
        piece = canonical_piece(parts[0])
        if len(parts) == 1:
            return piece, ORIGIN
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
        return piece, cell if direction is None else add(cell, direction)


def canonical_piece(text):
    """wS1 from any case of it (wS1, WS1, ws1)."""
    return text[0].lower() + text[1].upper() + text[2:]


def move_string(position, move):
    """A MoveString for a move of `position`, naming any neighbouring piece of the
    destination (or the top piece there); for readable test failures."""
    if move == "pass":
        return "pass"
    piece, dest = move
    if not position.stacks:
        return piece
    lifted = dict(position.stacks)
    source = position.cell_of(piece)
    if source is not None:
        lifted = without(position.stacks, source)
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
