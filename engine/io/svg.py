"""SVG pictures of a position, standard library only: `board_svg(board)`.

Hexagons are pointy-topped in rows, as uhp.md's directions have them (east and
west in the same row, north-west (0, -1) and north-east (1, -1) in the row
above). Each piece is a hexagon in its side's colour with a contrasting outline,
its bug's letter (in the bug's colour) and copy number, and a <title> naming it,
all read from the table of bugs. A stack shows its height in a badge and the
pieces under its top, top first. Both hands are drawn above and below the hive,
one small hexagon per bug with its count. Empty cells next to the hive are faint
outlines. The viewBox is fitted to what is drawn, and the same board and options
always give the same bytes.

Elements carry data attributes for programs and tests: `data-piece="wB1"` on
every piece (the top piece's <g>, a <tspan> for each piece under it),
`data-cell="q,r"` (axial coordinates), `data-height`, `data-hand="wA"` with
`data-count` and `data-pieces` on each group of a hand. With the fan modules: a
Venom tile back side up is drawn inside a second outline in its bug's colour
(class `back`, `data-face="wF1"` beside the tile's `data-piece="wB1"`); badges on
the left of a piece mark it Frozen, moved by mind control, locked by a Scorpion,
obliged by an S004 Wasp's sting or a Queen whose sting is spent (`data-marks`); pieces removed from the game follow their side's hand, crossed out
(class `removed`, `data-removed="wK"`), and pieces in an S004 Mantis's prison behind
bars (class `prisoner`, `data-prisoner="bS1"`). In Swarm a hand holds pieces of
both colours, each group drawn in its pieces' colour (`data-hand="bA"` in
White's hand), and the bag is a row below the hands (class `bag`, `data-bag="wG"`,
`data-count`, `data-pieces`).

A board is read through its public methods only (Board in engine/game.py),
so that this layer sits below it. The command line is engine/svg.py.
"""

import math
from xml.sax.saxutils import escape, quoteattr

from ..colors import side_color, side_index
from ..rules.bugs import BLACK, BUGS, NEUTRAL_COLOR as NEUTRAL, PIECE_NAMES, PIECES, QUEEN_ID, WHITE
from ..rules.hexgrid import axial
from .diagram import COLOR_NAMES, bag, border, by_kind, hand, has_bag, imprisoned, removed, stacks, status_line

__all__ = ["board_svg", "pv_arrows"]

SQRT3 = math.sqrt(3)

FILL = ("#f6f1e3", "#262626", "#b07d12")  # by colour, WHITE, BLACK, then the neutral Honeycomb's (dark side)
OUTLINE = ("#262626", "#b3b3b3", "#5c3d00")  # contrasting with the fill
INK = ("#262626", "#ededed", "#fff4d6")  # small text on a piece of that colour
HONEYCOMB_LIGHT = "#f4d27a"  # the Honeycomb light side up (§10): a double turn to come
BACKGROUND = "#fcfbf7"
EMPTY_OUTLINE = "#d6d3c9"
HIGHLIGHT = "#2f9e44"
LAST_MOVE = "#1c7ed6"
ARROW = "#e8590c"
BADGE = "#495057"
MARK_FILL = {"frozen": "#1971c2", "controlled": "#7048e8", "locked": "#a0442c", "obliged": "#b8a020",  # the Wasp's
             "spent": "#c08a00"}  # the Queen's
REMOVED_CROSS = "#c92a2a"


# The least contrast of a bug's letter with its piece (WCAG's ratio for text):
# each bug's hue from the table of bugs, lightened on a black piece and darkened
# on a white one as far as it takes.
MIN_CONTRAST = 4.5


def _luminance(rgb):
    channels = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]


def _rgb(hex_colour):
    return [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]


def _readable(hex_colour, background):
    """`hex_colour` moved toward white or black (away from `background`) until
    its contrast with `background` is MIN_CONTRAST."""
    back = _luminance(_rgb(background))
    target = 1.0 if back < 0.5 else 0.0
    rgb = _rgb(hex_colour)
    for step in range(101):
        # Rounded as the hex text will be, so that the text keeps the contrast.
        mixed = [round((c + (target - c) * step / 100) * 255) / 255 for c in rgb]
        lighter, darker = sorted((_luminance(mixed), back), reverse=True)
        if (lighter + 0.05) / (darker + 0.05) >= MIN_CONTRAST:
            break
    return "#" + "".join(f"{round(c * 255):02x}" for c in mixed)


_LETTER_INK = {(bug.letter, color): _readable(bug.colour, FILL[color]) for bug in BUGS for color in range(len(FILL))}
HONEYCOMB_LIGHT_INK = _readable(next(bug.colour for bug in BUGS if bug.letter == "H"), HONEYCOMB_LIGHT)


def bug_color(letter, color=WHITE):
    """The colour a bug's letter is drawn in on a piece of `color`: its row's
    hue, as readable as MIN_CONTRAST on that piece."""
    return _LETTER_INK[letter, color]


def _num(x):
    """A coordinate as short, fixed text: two decimals at most, no minus zero."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _points(points):
    """A polygon's points attribute."""
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


def _hexagon(x, y, radius):
    """The points of a pointy-topped hexagon around (x, y), from the top clockwise."""
    half = radius * SQRT3 / 2
    corners = ((0, -1), (half, -0.5), (half, 0.5), (0, 1), (-half, 0.5), (-half, -0.5))
    return _points((x + dx, y + dy * radius) for dx, dy in corners)


def _place_text(place):
    return f"{place[0]},{place[1]}"


def _title(board, piece):
    color, bug, _ = PIECES[piece]
    if color == NEUTRAL:
        owner = board.double_turn
        if owner is None:
            return f"{board.name(piece)}: the neutral Honeycomb, dark side up"
        return (f"{board.name(piece)}: the neutral Honeycomb, light side up: "
                f"{COLOR_NAMES[side_index(owner)]}'s turn is a double turn")
    title = f"{board.name(piece)}: {COLOR_NAMES[color]} {BUGS[board.face_bug(piece)].name}"
    if board.shows_back(piece):
        title += f", the back of its {BUGS[bug].name} tile"
    return title


def _marks(board, piles):
    """{top piece: [(mark, title), ...]} of the statuses a player must see on the
    board: the piece Frozen for this turn, the piece the last turn moved by mind
    control, tiles a Scorpion keeps from flipping (in a game with flips), the
    piece an S004 Wasp obliges to move away, and a Queen who has stung (WX-5)."""
    marks = {}
    frozen = board.frozen
    if frozen >= 0:
        marks.setdefault(frozen, []).append(("frozen", "Frozen: it may not move, be moved or act this turn"))
    history = board.move_stack
    last = history[-1] if history else None
    if last is not None and last.kind == "control":
        marks.setdefault(last.piece, []).append(
            ("controlled", f"moved last turn by the mind control of {board.name(last.other)}"))
    if board.has_flips:
        for pile in piles.values():
            if board.is_locked(pile[-1]):
                marks.setdefault(pile[-1], []).append(("locked", "locked by an enemy Scorpion: it may not flip"))
    if board.obliged is not None:
        piece, wasp = board.obliged
        marks.setdefault(piece, []).append(
            ("obliged", f"stung by the S004 Wasp {board.name(wasp)}: it must move away from it this turn if it can"))
    for side, queen in enumerate(QUEEN_ID):
        if board.has_stung(side_color(side)) and board.piece_cell(queen) >= 0:
            marks.setdefault(queen, []).append(("spent", "has used her sting: she never moves by herself again"))
    return marks


def _mark(kind, x, y, s):
    """A status badge centred on (x, y): a snowflake (Frozen), an @ (controlled),
    a padlock (locked by a Scorpion), a ! (obliged by a Wasp's sting) or an x (a
    Queen's sting spent)."""
    r = s * 0.22
    parts = [f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(r)}" fill="{MARK_FILL[kind]}" stroke="#ffffff" '
             f'stroke-width="{_num(s * 0.04)}"/>']
    ink = f'stroke="#ffffff" stroke-width="{_num(s * 0.045)}" stroke-linecap="round"'
    if kind == "frozen":
        for angle in (90, 30, -30):
            dx, dy = r * 0.7 * math.cos(math.radians(angle)), r * 0.7 * math.sin(math.radians(angle))
            parts.append(f'<line x1="{_num(x - dx)}" y1="{_num(y - dy)}" x2="{_num(x + dx)}" y2="{_num(y + dy)}" {ink}/>')
    elif kind == "locked":
        w, h = r * 0.9, r * 0.62
        parts.append(f'<rect x="{_num(x - w / 2)}" y="{_num(y - h * 0.15)}" width="{_num(w)}" height="{_num(h)}" '
                     f'fill="#ffffff"/>')
        parts.append(f'<path d="M {_num(x - w * 0.3)} {_num(y - h * 0.15)} v {_num(-h * 0.35)} '
                     f'a {_num(w * 0.3)} {_num(w * 0.3)} 0 0 1 {_num(w * 0.6)} 0 v {_num(h * 0.35)}" fill="none" {ink}/>')
    else:
        sign = {"controlled": "@", "obliged": "!", "spent": "x"}[kind]
        parts.append(f'<text x="{_num(x)}" y="{_num(y)}" font-size="{_num(s * 0.3)}" font-weight="bold" '
                     f'fill="#ffffff" text-anchor="middle" dominant-baseline="central">{sign}</text>')
    return parts


class _Layout:
    """Where an axial cell is drawn: `size` is a hexagon's radius, `turns` the
    sixths of a full turn clockwise the picture is rotated by."""

    def __init__(self, size, turns):
        self.size = size
        self.turns = turns % 6

    def center(self, place):
        q, r = place
        for _ in range(self.turns):
            q, r = -r, q + r  # 60 degrees clockwise: east becomes south-east
        return self.size * SQRT3 * (q + r / 2), self.size * 1.5 * r


class _Box:
    """The extent of what is drawn, grown by each element."""

    def __init__(self):
        self.x0 = self.y0 = math.inf
        self.x1 = self.y1 = -math.inf

    def add(self, x, y, dx, dy):
        self.x0, self.x1 = min(self.x0, x - dx), max(self.x1, x + dx)
        self.y0, self.y1 = min(self.y0, y - dy), max(self.y1, y + dy)


def _piece(layout, board, place, pile, marks):
    """The <g> of a stack's top piece: hexagon, letter and copy (a tile back side
    up inside a second outline in its bug's colour), height badge, status marks
    and the pieces under it."""
    s = layout.size
    x, y = layout.center(place)
    top = pile[-1]
    color, _, copy = PIECES[top]
    letter = BUGS[board.face_bug(top)].letter
    title = _title(board, top) + (f", on top of a stack of {len(pile)}" if len(pile) > 1 else "")
    title += "".join(f"; {text}" for _, text in marks)
    side = COLOR_NAMES[color].lower() if color != NEUTRAL else "neutral"
    light = color == NEUTRAL and board.double_turn is not None
    fill = HONEYCOMB_LIGHT if light else FILL[color]
    letter_ink = HONEYCOMB_LIGHT_INK if light else bug_color(letter, color)
    back = board.shows_back(top)
    face = f' data-face="{board.name(top)}"' if back else ""
    parts = [
        f'<g class="piece {side}{" back" if back else ""}" data-piece="{PIECE_NAMES[top]}"{face} '
        f'data-cell="{_place_text(place)}" data-height="{len(pile)}"'
        + (f' data-marks="{" ".join(kind for kind, _ in marks)}"' if marks else "") + ">",
        f"<title>{escape(title)}</title>",
        f'<polygon points="{_hexagon(x, y, s * 0.94)}" fill="{fill}" stroke="{OUTLINE[color]}" '
        f'stroke-width="{_num(s * 0.06)}" stroke-linejoin="round"/>',
    ]
    if back:  # the back of a tile: unmistakable at a glance, whatever the bug
        parts.append(
            f'<polygon class="back-outline" points="{_hexagon(x, y, s * 0.76)}" fill="none" '
            f'stroke="{bug_color(letter, color)}" stroke-width="{_num(s * 0.09)}" stroke-linejoin="round"/>'
        )
    number = f'<tspan font-size="{_num(s * 0.34)}" fill="{INK[color]}">{copy}</tspan>' if copy else ""
    parts.append(
        f'<text x="{_num(x)}" y="{_num(y - s * 0.04)}" font-size="{_num(s * 0.62)}" font-weight="bold" '
        f'fill="{letter_ink}" text-anchor="middle" dominant-baseline="central">'
        f"{letter}{number}</text>"
    )
    for index, (kind, _) in enumerate(marks):  # down the left side, opposite the height badge
        parts += _mark(kind, x - s * 0.6, y - s * 0.36 + index * s * 0.48, s)
    if len(pile) > 1:
        bx, by = x + s * 0.6, y - s * 0.36
        parts.append(
            f'<circle cx="{_num(bx)}" cy="{_num(by)}" r="{_num(s * 0.22)}" fill="{BADGE}" stroke="#ffffff" '
            f'stroke-width="{_num(s * 0.04)}"/>'
        )
        parts.append(
            f'<text class="height" x="{_num(bx)}" y="{_num(by)}" font-size="{_num(s * 0.28)}" font-weight="bold" '
            f'fill="#ffffff" text-anchor="middle" dominant-baseline="central">{len(pile)}</text>'
        )
        under = " ".join(
            f'<tspan data-piece="{PIECE_NAMES[piece]}"><title>{escape(_title(board, piece))}</title>'
            f"{board.name(piece)}</tspan>"
            for piece in reversed(pile[:-1])
        )
        parts.append(
            f'<text class="under" x="{_num(x)}" y="{_num(y + s * 0.48)}" font-size="{_num(s * 0.24)}" '
            f'fill="{INK[color]}" text-anchor="middle" dominant-baseline="central">{under}</text>'
        )
    parts.append("</g>")
    return "".join(parts)


def _arrow(layout, start, end, color, label, kind):
    """An arrow from one cell's centre to another's; from the hand (start None),
    a ring round the destination. Returns the part drawn under the pieces (the
    arrow's shaft, which so never hides a piece's letter on its way, or the ring,
    inside its empty cell), the part drawn over them (the arrow's head, none for a
    ring), and where its label goes
    (x, y, the centre it is placed round, the label, its colour; None without a
    label): where the arrow leaves its first cell, or above the ring.
    _spread_labels moves it if another label is there."""
    s = layout.size
    x1, y1 = layout.center(end)
    attributes = f'class="arrow {kind}"' + (f' data-from="{_place_text(start)}"' if start is not None else "")
    attributes += f' data-to="{_place_text(end)}"'
    if label is not None:
        attributes += f" data-label={quoteattr(str(label))}"
    under, over = [f'<g {attributes} opacity="0.85">'], ['<g class="arrow-head" opacity="0.85">']
    if start is None or start == end:
        under.append(
            f'<circle cx="{_num(x1)}" cy="{_num(y1)}" r="{_num(s * 0.8)}" fill="none" stroke="{color}" '
            f'stroke-width="{_num(s * 0.1)}"/>'
        )
        label_x, label_y = x1 - s * 0.57, y1 - s * 0.57
        centre = (x1, y1)
    else:
        x0, y0 = layout.center(start)
        length = math.hypot(x1 - x0, y1 - y0)
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        trim, head, half = s * 0.3, s * 0.45, s * 0.24
        tail_x, tail_y = x0 + ux * trim, y0 + uy * trim
        tip_x, tip_y = x1 - ux * trim, y1 - uy * trim
        base_x, base_y = tip_x - ux * head, tip_y - uy * head
        under.append(
            f'<line x1="{_num(tail_x)}" y1="{_num(tail_y)}" x2="{_num(base_x)}" y2="{_num(base_y)}" '
            f'stroke="{color}" stroke-width="{_num(s * 0.13)}" stroke-linecap="round"/>'
        )
        tip = ((tip_x, tip_y), (base_x - uy * half, base_y + ux * half), (base_x + uy * half, base_y - ux * half))
        over.append(f'<polygon points="{_points(tip)}" fill="{color}"/>')
        # Half way to a neighbour: on the side the two cells share.
        out = min(length / 2, s * SQRT3 / 2)
        label_x, label_y = x0 + ux * out, y0 + uy * out
        centre = (x0, y0)
    label_place = None if label is None else (label_x, label_y, centre, str(label), color)
    return "".join(under) + "</g>", "".join(over) + "</g>" if len(over) > 1 else "", label_place


LABEL_RADIUS = 0.22  # of a hexagon's radius


def _spread_labels(labels, s):
    """The labels' discs, none on another: a label whose place is taken turns
    round the centre it was placed by, a twelfth of a turn at a time, to the
    first free place (a piece that moves twice from one cell, an arrow's label
    on a ring's); with no free place it keeps its own."""
    r = s * LABEL_RADIUS
    placed, svg = [], []
    for x, y, (cx, cy), label, color in labels:
        distance, angle = math.hypot(x - cx, y - cy), math.atan2(y - cy, x - cx)
        for step in range(12):
            tx = cx + distance * math.cos(angle + step * math.pi / 6)
            ty = cy + distance * math.sin(angle + step * math.pi / 6)
            if all(math.hypot(tx - px, ty - py) >= 2 * r for px, py in placed):
                x, y = tx, ty
                break
        placed.append((x, y))
        svg.append(
            f'<g class="arrow-label"><circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(r)}" '
            f'fill="{color}" stroke="#ffffff" stroke-width="{_num(s * 0.03)}"/>'
            f'<text x="{_num(x)}" y="{_num(y)}" font-size="{_num(s * 0.28)}" font-weight="bold" '
            f'fill="#ffffff" text-anchor="middle" dominant-baseline="central">{escape(label)}</text></g>'
        )
    return svg


# Kinds on one line of a hand: the official game's most. A fan game's longer hand
# wraps onto further lines, away from the board, so that the picture does not
# grow wide and every hexagon shrink with it.
HAND_LINE_KINDS = 8


def _hand_row(layout, board, color, label, cx, cy, box, outward):
    """One side's hand centred on (cx, cy), then its pieces out of the game."""
    gone = [(piece, "removed") for piece in removed(board, color)]
    gone += [(piece, "prisoner") for piece in imprisoned(board, color)]
    side = COLOR_NAMES[color].lower()
    return _piece_row(layout, board, hand(board, color), gone, (label, side, f"hand {side}", "hand", "hand"),
                      cx, cy, box, outward)


def _piece_row(layout, board, pieces, gone, label, cx, cy, box, outward):
    """A row of pieces off the board centred on (cx, cy): `label` (its text,
    its class, its groups' class, their data attribute, what holds them), then a
    small hexagon per colour and bug of `pieces` with the count, then the pieces
    `gone` ((piece, kind)), HAND_LINE_KINDS a line, further lines `outward`
    (-1 up, 1 down)."""
    text, side, group_class, data, holder = label
    s = layout.size
    radius = s * 0.58
    font = s * 0.42
    # As wide as the longest label the row can have, so that the row stays put
    # when the side to move changes.
    label_width = font * 0.6 * max(len(f"{name}{suffix}") for name in COLOR_NAMES for suffix in LABEL_SUFFIXES)
    step = radius * SQRT3 + s * 0.95
    line_step = radius * 2 + s * 0.2
    groups = by_kind(pieces)
    width = label_width + s * 0.5 + step * min(len(groups) + len(gone), HAND_LINE_KINDS)
    x0 = cx - width / 2
    parts = [
        f'<text class="label {side}" x="{_num(x0)}" y="{_num(cy)}" font-size="{_num(font)}" fill="#333333" '
        f'dominant-baseline="central">{escape(text)}</text>'
    ]
    first = x0 + label_width + s * 0.5 + radius * SQRT3 / 2
    for lines in range(max(1, -(-(len(groups) + len(gone)) // HAND_LINE_KINDS))):
        box.add(cx, cy + outward * lines * line_step, width / 2, radius)
    for index, ((color, bug), group) in enumerate(groups):
        line, column = divmod(index, HAND_LINE_KINDS)
        x, y = first + column * step, cy + outward * line * line_step
        letter = BUGS[bug].letter
        names = " ".join(PIECE_NAMES[piece] for piece in group)
        title = f"{COLOR_NAMES[color]} {BUGS[bug].name} &#215;{len(group)} in {holder}: {names}"
        parts.append(
            f'<g class="{group_class}" data-{data}="{"wb"[color]}{letter}" data-count="{len(group)}" '
            f'data-pieces="{names}"><title>{title}</title>'
            f'<polygon points="{_hexagon(x, y, radius)}" fill="{FILL[color]}" stroke="{OUTLINE[color]}" '
            f'stroke-width="{_num(s * 0.05)}" stroke-linejoin="round"/>'
            f'<text x="{_num(x)}" y="{_num(y)}" font-size="{_num(radius * 0.95)}" font-weight="bold" '
            f'fill="{bug_color(letter, color)}" text-anchor="middle" dominant-baseline="central">{letter}</text>'
            f'<text x="{_num(x + radius * SQRT3 / 2 + s * 0.1)}" y="{_num(y)}" font-size="{_num(s * 0.36)}" '
            f'fill="#333333" dominant-baseline="central">&#215;{len(group)}</text></g>'
        )
    # After the hand, faded, each piece removed from the game (Predators), crossed
    # out, and each in the enemy S004 Mantis's prison, behind bars.
    for index, (piece, kind) in enumerate(gone, start=len(groups)):
        line, column = divmod(index, HAND_LINE_KINDS)
        x, y = first + column * step, cy + outward * line * line_step
        name, letter = board.name(piece), BUGS[board.face_bug(piece)].letter
        color = PIECES[piece][0]
        cross = radius * 0.6
        if kind == "removed":
            title = f"{name} was removed from the game"
            ink = (f'M {_num(x - cross)} {_num(y - cross)} L {_num(x + cross)} {_num(y + cross)} '
                   f'M {_num(x - cross)} {_num(y + cross)} L {_num(x + cross)} {_num(y - cross)}')
        else:
            title = f"{name} is in the prison of {board.name(board.jailer(piece))}"
            ink = " ".join(f"M {_num(x + dx * cross)} {_num(y - cross)} v {_num(2 * cross)}" for dx in (-0.6, 0, 0.6))
        parts.append(
            f'<g class="{kind} {side}" data-{kind}="{PIECE_NAMES[piece]}"><title>{title}'
            f'</title><g opacity="0.45"><polygon points="{_hexagon(x, y, radius)}" fill="{FILL[color]}" '
            f'stroke="{OUTLINE[color]}" stroke-width="{_num(s * 0.05)}" stroke-linejoin="round"/>'
            f'<text x="{_num(x)}" y="{_num(y)}" font-size="{_num(radius * 0.95)}" font-weight="bold" '
            f'fill="{bug_color(letter, color)}" text-anchor="middle" dominant-baseline="central">{letter}</text></g>'
            f'<path d="{ink}" stroke="{REMOVED_CROSS}" stroke-width="{_num(s * 0.1)}" stroke-linecap="round"/></g>'
        )
    return parts


LABEL_SUFFIXES = ("", " to move", " to draw", " (draw)", " wins")


def _hand_labels(board):
    """Each side's label: its name, and who is to move or how the game ended."""
    to_move, to_draw, draw, wins = LABEL_SUFFIXES[1:]
    labels = list(COLOR_NAMES)
    outcome = board.outcome()
    if outcome is None:
        labels[board.side_to_move] += to_draw if board.draw_due else to_move
    elif outcome.winner is None:
        labels = [label + draw for label in labels]
    else:
        labels[side_index(outcome.winner)] += wins
    return labels


def _last_move(board):
    """(from, to) axial cells of the move that led here, from None for a placement;
    None at the start, after a pass, and for a position built directly
    (Board.from_stacks), which has no moves to show, and after an entry that goes
    to no cell (a pass, Swarm's draws)."""
    history = board.move_history
    if not history:
        return None
    move = history[-1]
    if move.dest < 0:
        return None
    before = board.copy()
    before.pop()
    source = before.piece_cell(move.piece)
    return (axial(source) if source >= 0 else None, axial(move.dest))


def pv_arrows(board, moves):
    """The arrows of a line of moves from this position (Moves or MoveStrings,
    e.g. the search's principal variation), numbered from 1, for board_svg."""
    line = board.copy()
    arrows = []
    for number, item in enumerate(moves, start=1):
        move = line.parse_uhp(item if isinstance(item, str) else line.uhp(item))
        if move.dest >= 0:  # not a pass, nor one of Swarm's entries
            source = line.piece_cell(move.piece)
            arrows.append((source if source >= 0 else None, move.dest, str(number)))
        line.push(move)
    return arrows


def board_svg(
    board,
    *,
    size=30,
    flipped=False,
    rotation=0,
    highlights=(),
    arrows=(),
    last_move=True,
    show_hands=True,
    coordinates=False,
    frame=0,
):
    """The position as an SVG document (a string).

    size: a hexagon's radius in pixels (the picture grows with the hive).
    flipped: turned half round, Black's hand at the bottom (the view from Black's
    side); rotation: further sixths of a turn clockwise.
    highlights: cells (grid cells, as Move.dest) to mark, e.g. legal destinations.
    arrows: (from_cell, to_cell) or (from_cell, to_cell, label) pairs; from_cell
    None (or -1) is a placement, drawn as a ring; `pv_arrows` makes them for a
    line of moves. last_move: draw the move that led here. show_hands: both hands,
    the side to move named. coordinates: each cell's axial (q, r). frame: rings of
    cells around the hive that the picture holds whatever is drawn (the web board's
    2: its size stays put while a line of arrows comes and goes)."""
    layout = _Layout(size, rotation + (3 if flipped else 0))
    s = size
    piles = stacks(board)
    empty = border(piles)
    marked = sorted({axial(cell) for cell in highlights})
    drawn_arrows = []
    if last_move:
        last = _last_move(board)
        if last is not None:
            drawn_arrows.append((last[0], last[1], None, LAST_MOVE, "last"))
    for arrow in arrows:
        start, end = arrow[0], arrow[1]
        start = None if start is None or start < 0 else axial(start)
        drawn_arrows.append((start, axial(end), arrow[2] if len(arrow) > 2 else None, ARROW, "line"))

    box = _Box()
    framed = set(piles) | set(empty)
    for _ in range(frame):
        framed |= set(border(framed))
    cells = sorted(framed | set(marked) | {p for a in drawn_arrows for p in a[:2] if p is not None})
    for place in cells:
        x, y = layout.center(place)
        box.add(x, y, s * SQRT3 / 2, s)
    body = []
    for place in empty:
        x, y = layout.center(place)
        body.append(
            f'<polygon class="empty" data-cell="{_place_text(place)}" points="{_hexagon(x, y, s * 0.94)}" '
            f'fill="none" stroke="{EMPTY_OUTLINE}" stroke-width="{_num(s * 0.04)}"/>'
        )
    drawn = [_arrow(layout, start, end, color, label, kind) for start, end, label, color, kind in drawn_arrows]
    body += [under for under, _, _ in drawn]
    marks = _marks(board, piles)
    for place in sorted(piles, key=lambda p: layout.center(p)[::-1]):
        body.append(_piece(layout, board, place, piles[place], marks.get(piles[place][-1], [])))
    for place in marked:
        x, y = layout.center(place)
        body.append(
            f'<polygon class="highlight" data-cell="{_place_text(place)}" points="{_hexagon(x, y, s * 0.8)}" '
            f'fill="{HIGHLIGHT}" fill-opacity="0.3" stroke="{HIGHLIGHT}" stroke-width="{_num(s * 0.08)}"/>'
        )
    body += [over for _, over, _ in drawn if over] + _spread_labels([label for _, _, label in drawn if label], s)
    if coordinates:
        for place in cells:
            x, y = layout.center(place)
            ink = INK[PIECES[piles[place][-1]][0]] if place in piles else "#999999"
            body.append(
                f'<text class="coordinate" x="{_num(x)}" y="{_num(y + s * 0.74)}" font-size="{_num(s * 0.19)}" '
                f'fill="{ink}" text-anchor="middle" dominant-baseline="central">{_place_text(place)}</text>'
            )
    if show_hands:
        labels = _hand_labels(board)
        below = BLACK if flipped else WHITE
        cx = (box.x0 + box.x1) / 2
        top, bottom = box.y0 - s * 0.9, box.y1 + s * 0.9
        body += _hand_row(layout, board, 1 - below, labels[1 - below], cx, top, box, -1)
        body += _hand_row(layout, board, below, labels[below], cx, bottom, box, 1)
        if has_bag(board):  # under the hands, the bag the draws come from (§11)
            label = ("Bag", "bag", "bag", "bag", "the bag")
            body += _piece_row(layout, board, bag(board), [], label, cx, box.y1 + s * 0.9, box, 1)

    margin = s * 0.3
    x0, y0 = box.x0 - margin, box.y0 - margin
    width, height = box.x1 - box.x0 + 2 * margin, box.y1 - box.y0 + 2 * margin
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{_num(x0)} {_num(y0)} {_num(width)} {_num(height)}" '
        f'width="{_num(width)}" height="{_num(height)}" font-family="sans-serif">'
    )
    return "\n".join(
        [
            head,
            f"<title>{escape(status_line(board))}</title>",
            f"<desc>{escape(board.game_string())}</desc>",
            f'<rect x="{_num(x0)}" y="{_num(y0)}" width="{_num(width)}" height="{_num(height)}" fill="{BACKGROUND}"/>',
            *body,
            "</svg>",
        ]
    )
