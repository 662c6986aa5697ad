"""What a picture of a position shows, and the text diagram for terminals.

Both pictures, this text and the SVG of svg.py, read a Board through the same few
questions asked here: the stacks by axial cell, the empty cells around the hive,
the pieces in each hand, and a line saying whose turn it is. Everything per bug
(letters, names, copies, which game types have it) comes from the table of bugs.

Cells are drawn pointy-topped in rows, as uhp.md's directions have them: a row
is a constant r, its neighbours east and west; the rows above and below are
offset by half a cell (north-west is (0, -1), north-east (1, -1)).

>>> from engine.game import Board
>>> print(Board.from_game_string("Base;InProgress;White[2];wS1;bS1 wS1-"))
Base, turn 2: White to move
   .     .     .
.    wS1   bS1    .
   .     .     .
White in hand: wQ wS2 wB1 wB2 wG1 wG2 wG3 wA1 wA2 wA3
Black in hand: bQ bS2 bB1 bB2 bG1 bG2 bG3 bA1 bA2 bA3
"""

from ..colors import side_color, side_index
from ..rules.bugs import BLACK, EXPANSION_BIT, NUM_PIECES, PIECE_NAMES, PIECES, WHITE
from ..rules.hexgrid import DIRECTION_DQ_DR, axial

COLOR_NAMES = ("White", "Black")


def stacks(board):
    """{(q, r): (piece, ...)} of every occupied cell, its pieces bottom first."""
    found = {}
    for piece, cell, level in board.pieces_in_play():
        found.setdefault(axial(cell), []).append((level, piece))
    return {place: tuple(piece for _, piece in sorted(pile)) for place, pile in sorted(found.items())}


def border(occupied):
    """The empty cells next to the hive, as sorted (q, r); the origin for an empty
    board, where the first piece goes."""
    if not occupied:
        return [(0, 0)]
    near = set()
    for q, r in occupied:
        for dq, dr in DIRECTION_DQ_DR:
            near.add((q + dq, r + dr))
    return sorted(near.difference(occupied))


def hand(board, color):
    """The pieces in `color`'s hand, by piece id (bugs in table order, copies in
    order): not placed yet (or back in hand), nor removed, nor in a prison or
    Swarm's bag; in Swarm the other colour's it holds too, after its own."""
    return [piece for piece in range(NUM_PIECES) if board.in_hand(piece, side_color(color))]


def removed(board, color):
    """The pieces of `color` removed from the game (Predators, fan-rules.md §7), by id."""
    return [piece for piece in range(NUM_PIECES) if PIECES[piece][0] == color and board.is_removed(piece)]


def imprisoned(board, color):
    """The pieces of `color` in the enemy S004 Mantis's prison (fan-rules.md §9.5), by id."""
    return [piece for piece in range(NUM_PIECES) if PIECES[piece][0] == color and board.jailer(piece) >= 0]


def by_kind(pieces):
    """[((color, bug), [piece, ...]), ...]: `pieces` grouped by colour and bug,
    in the order they come (in Swarm a hand holds both colours, §11)."""
    groups = {}
    for piece in pieces:
        groups.setdefault(PIECES[piece][:2], []).append(piece)
    return list(groups.items())


def has_bag(board):
    """Whether the game is Swarm's, whose pictures show the bag (§11)."""
    return bool(board.expansions & EXPANSION_BIT["Swarm"])


def bag(board):
    """The pieces in Swarm's bag (fan-rules.md §11), by id; empty in other types."""
    return [piece for piece in range(NUM_PIECES) if board.in_bag(piece)]


def status_line(board):
    """The game type, the turn, and who is to move or how the game ended."""
    head = f"{board.game_type}, turn {board.turn_number}"
    outcome = board.outcome()
    if outcome is None:
        double = double_turn_text(board)
        doing = "to draw from the bag" if board.draw_due else "to move"
        return f"{head}: {COLOR_NAMES[board.side_to_move]} {doing}" + (f"; {double}" if double else "")
    if outcome.winner is None:
        return f"{head}: draw ({outcome.termination})"
    return f"{head}: {COLOR_NAMES[side_index(outcome.winner)]} wins ({outcome.termination})"


def double_turn_text(board):
    """HoneyCombo (§10): what the light Honeycomb means now, or None."""
    owner = board.double_turn
    if owner is None:
        return None
    if board.second_action_due:
        return "the second action of its double turn"
    if side_index(owner) == board.side_to_move:
        return "a double turn"
    return f"{COLOR_NAMES[side_index(owner)]}'s next turn is a double turn"


def cell_label(board, pile):
    """A stack's name in the text diagram: its top piece by the face it shows, and
    ^height when it is a stack (wB1^2)."""
    name = board.name(pile[-1])
    return name if len(pile) == 1 else f"{name}^{len(pile)}"


# Each cell takes CELL characters of its row, a neighbour in the same row is
# 2 * HALF columns away and the next row is offset by HALF.
CELL = 5
HALF = 3


def text_diagram(board):
    """The position as text: a status line, the hive in offset rows (each cell
    its top piece's name, `.` for an empty cell next to the hive, a stack as
    wB1^2), a line for each stack saying what is under its top, and both hands."""
    piles = stacks(board)
    labels = {place: cell_label(board, pile) for place, pile in piles.items()}
    labels.update((place, ".") for place in border(piles))
    rows = {}
    for (q, r), label in labels.items():
        rows.setdefault(r, []).append((HALF * (2 * q + r) + (CELL - len(label)) // 2, label))
    left = min(column for row in rows.values() for column, _ in row)
    lines = [status_line(board)]
    for r in sorted(rows):
        line = ""
        for column, label in sorted(rows[r]):
            line = line.ljust(column - left) + label
        lines.append(line)
    indent = min(len(line) - len(line.lstrip()) for line in lines[1:])
    lines[1:] = [line[indent:] for line in lines[1:]]
    for place, pile in piles.items():
        if len(pile) > 1:
            under = " on ".join(board.name(piece) for piece in reversed(pile[:-1]))
            lines.append(f"{cell_label(board, pile)} on {under}")
    for color in (WHITE, BLACK):
        names = " ".join(PIECE_NAMES[piece] for piece in hand(board, color)) or "none"
        lines.append(f"{COLOR_NAMES[color]} in hand: {names}")
    if has_bag(board):
        lines.append("In the bag: " + (" ".join(PIECE_NAMES[piece] for piece in bag(board)) or "none"))
    gone = removed(board, WHITE) + removed(board, BLACK)
    if gone:
        lines.append("Removed from the game: " + " ".join(board.name(piece) for piece in gone))
    for color in (WHITE, BLACK):
        jailed = imprisoned(board, 1 - color)
        if jailed:
            jailer = board.name(board.jailer(jailed[0]))
            lines.append(f"In the prison of {jailer}: " + " ".join(board.name(piece) for piece in jailed))
    return "\n".join(lines)
