"""Pictures of a position: the SVG of engine/svg.py and the text diagram of engine/io/diagram.py.

The SVG is read back with xml.etree: it must be well-formed, name every piece on
the board exactly once, show each stack's height and what is under its top, list
exactly the pieces in hand, and draw the highlights and arrows asked for.
"""

import random
import re
import shlex
import xml.etree.ElementTree as ET
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rules.bugs import BUGS, NUM_PIECES, PIECE_NAMES, PIECES, game_types
from engine.game import Board
from engine.rules.hexgrid import axial, cell_of
from engine.io.svg import board_svg, pv_arrows
from engine.svg import main

SVG = "{http://www.w3.org/2000/svg}"

# Base+MLP after 30 plies of the engine against itself at depth 3 from the fifth
# shipped opening (the README's picture): two stacks, bB1 on bB2 and wB1 on bG1.
#
#                   .     .           .     .
#    .     .     .    wM     .     .    wS1    .
# .    wA2    .    bS1    .     .    wQ     .
#    .    bQ   bB1^2   .    wP    bM    bP     .
# .    wA3    .    bL    wA1    .   wB1^2   .
#    .     .     .    wB2    .     .     .
#                   .     .
MIDGAME = (
    r"Base+MLP;InProgress;White[16];wA1;bL -wA1;wB1 wA1-;bG1 -bL;wB2 wA1\;bB1 -bG1;wQ wB1/;bQ \bG1;"
    r"wP -wQ;bB2 \bL;wA2 wB1\;bG1 wQ\;wA2 \bQ;bB1 bQ\;wB2 bL\;bP bG1-;wM wA1\;bS1 bB2/;wM bS1/;"
    r"bP bG1/;wQ \bP;bB1 bB2;wS1 wQ/;bM bG1\;wA3 wA1\;bM /wQ;wB1 bG1;bP -wQ;wA3 /bQ;bP wQ\ "
).strip()
# The principal variation the engine found there at depth 4.
MIDGAME_PV = ["wS1 bP\\", "bP wQ-", "wS1 bP-", "bB1 bS1"]

# Beetles climbing onto their Queens and Spiders: a stack of three, two of two.
STACKS = (
    r"Base;InProgress;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 -wQ;bB1 bQ-;wB1 wQ;bB1 bQ;wB1 wS1;"
    r"bB1 bS1;wB2 /wQ;bB2 bQ\;wB2 wQ;bB2 bQ;wB2 wB1"
)


def parse(board, **options):
    return ET.fromstring(board_svg(board, **options))


def elements(root, attribute, value=None):
    """Every element with `attribute` (equal to `value` if given)."""
    return [e for e in root.iter() if attribute in e.attrib and (value is None or e.get(attribute) == value)]


def classed(root, name):
    """Every element whose class list has `name`."""
    return [e for e in root.iter() if name in e.get("class", "").split()]


def cell_text(cell):
    q, r = axial(cell)
    return f"{q},{r}"


def in_hand(board, color):
    """Names of `color`'s pieces not placed yet, of the bugs the game type names, in a hand (not Swarm's bag)."""
    letters = board.game_type.partition("+")[2]
    return {
        PIECE_NAMES[piece]
        for piece in range(NUM_PIECES)
        if PIECES[piece][0] == color
        and (not BUGS[PIECES[piece][1]].expansion or BUGS[PIECES[piece][1]].expansion in letters)
        and board.piece_cell(piece) < 0
        and not board.in_bag(piece)  # Swarm: not drawn yet
    }


def check_picture(board, root):
    """What every picture must show: each piece on the board once, by name, with
    its stack's height on the top piece; each piece in hand once."""
    named = [e.get("data-piece") for e in elements(root, "data-piece")]
    on_board = sorted(PIECE_NAMES[piece] for piece, _, _ in board.pieces_in_play())
    assert sorted(named) == on_board
    for piece, cell, level in board.pieces_in_play():
        (element,) = elements(root, "data-piece", PIECE_NAMES[piece])
        assert element.find(SVG + "title").text.startswith(PIECE_NAMES[piece] + ": ")
        height = int(board.state.height[cell])
        if level == height - 1:
            assert element.get("data-height") == str(height)
            assert element.get("data-cell") == cell_text(cell)
    for color in (0, 1):
        groups = [e for e in elements(root, "data-hand") if e.get("data-hand")[0] == "wb"[color]]
        pieces = [name for e in groups for name in e.get("data-pieces").split()]
        assert sorted(pieces) == sorted(in_hand(board, color))
        for group in groups:
            assert int(group.get("data-count")) == len(group.get("data-pieces").split())


def test_the_picture_is_well_formed_and_names_every_piece_once():
    board = Board.from_game_string(MIDGAME)
    root = parse(board)
    assert root.tag == SVG + "svg"
    check_picture(board, root)
    (title,) = root.findall(SVG + "title")
    assert title.text == "Base+MLP, turn 16: White to move"
    assert root.find(SVG + "desc").text == MIDGAME
    (queen,) = elements(root, "data-piece", "bQ")
    assert queen.find(SVG + "title").text == "bQ: Black Queen Bee"
    assert "piece" in queen.get("class").split() and "black" in queen.get("class").split()


def test_a_stack_shows_its_height_and_the_pieces_under_its_top():
    board = Board.from_game_string(STACKS)
    root = parse(board)
    check_picture(board, root)
    expected = {"wB2": ("3", ["wB1", "wS1"]), "bB1": ("2", ["bS1"]), "bB2": ("2", ["bQ"])}
    for top, (height, under) in expected.items():
        (group,) = elements(root, "data-piece", top)
        assert group.get("data-height") == height
        assert [e.text for e in classed(group, "height")] == [height]
        (listing,) = classed(group, "under")
        assert [span.get("data-piece") for span in listing] == under
        assert group.find(SVG + "title").text.endswith(f", on top of a stack of {height}")
    (queen,) = elements(root, "data-piece", "wQ")
    assert queen.get("data-height") == "1" and not classed(queen, "height")


def test_the_hands_list_exactly_the_pieces_in_hand():
    board = Board.from_game_string("Base+M;InProgress;White[3];wA1;bM wA1-;wA2 -wA1;bA1 bM-")
    root = parse(board)
    check_picture(board, root)
    hands = {e.get("data-hand"): (e.get("data-count"), e.get("data-pieces")) for e in elements(root, "data-hand")}
    assert hands["wA"] == ("1", "wA3")
    assert hands["bA"] == ("2", "bA2 bA3")
    assert "wM" in hands and "bM" not in hands  # the Mosquito is in play
    assert not any(key[1] in "LP" for key in hands)  # Base+M has neither
    labels = [e.text for e in classed(root, "label")]
    assert labels == ["Black", "White to move"]
    assert not elements(parse(board, show_hands=False), "data-hand")


def test_highlights_mark_the_cells_given():
    board = Board.from_game_string(MIDGAME)
    destinations = {move.dest for move in board.legal_moves if PIECE_NAMES[move.piece] == "wA2"}
    root = parse(board, highlights=sorted(destinations))
    assert sorted(e.get("data-cell") for e in classed(root, "highlight")) == sorted(map(cell_text, destinations))
    assert not classed(parse(board), "highlight")


def test_the_last_move_is_an_arrow_and_a_placement_a_ring():
    board = Board.from_game_string(MIDGAME)
    before = board.copy()
    move = before.pop()
    (arrow,) = classed(parse(board), "last")
    assert arrow.get("data-from") == cell_text(before.piece_cell(move.piece))
    assert arrow.get("data-to") == cell_text(move.dest)
    assert arrow.find(SVG + "line") is not None
    assert not classed(parse(board, last_move=False), "arrow")

    placed = Board.from_game_string("Base;InProgress;Black[1];wG1")
    (ring,) = classed(parse(placed), "last")
    assert ring.get("data-from") is None and ring.get("data-to") == "0,0"
    assert ring.find(SVG + "circle") is not None
    assert not classed(parse(Board()), "arrow")


def test_a_principal_variation_is_drawn_as_numbered_arrows():
    board = Board.from_game_string(MIDGAME)
    arrows = pv_arrows(board, MIDGAME_PV)
    line = board.copy()
    expected = []
    for number, text in enumerate(MIDGAME_PV, start=1):
        move = line.parse_uhp(text)
        expected.append((cell_text(line.piece_cell(move.piece)), cell_text(move.dest), str(number)))
        line.push(move)
    root = parse(board, arrows=arrows, last_move=False)
    drawn = [(e.get("data-from"), e.get("data-to"), e.get("data-label")) for e in classed(root, "arrow")]
    assert drawn == expected
    assert board.ply == 30  # pv_arrows plays the line on a copy
    # Arrows given by hand: a move and a placement (from None).
    root = parse(board, arrows=[(board.piece_cell(0), board.piece_cell(1)), (None, board.piece_cell(2))])
    drawn = [(e.get("data-from"), e.get("data-to")) for e in classed(root, "line")]
    first, second, third = (cell_text(board.piece_cell(piece)) for piece in range(3))
    assert drawn == [(first, second), (None, third)]


def test_arrows_run_under_the_pieces_and_their_heads_over_them():
    """issue 29, 2: a long move's shaft never hides a letter it crosses; its head
    and label stay on top."""
    board = Board.from_game_string(MIDGAME)
    root = parse(board, arrows=pv_arrows(board, MIDGAME_PV))
    order = list(root.iter())
    pieces = [order.index(e) for e in order if e.get("data-piece") is not None]
    shafts = [order.index(e) for e in classed(root, "arrow")]
    tops = [order.index(e) for e in classed(root, "arrow-head") + classed(root, "arrow-label")]
    assert shafts and tops and pieces
    assert max(shafts) < min(pieces) and min(tops) > max(pieces)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 20), st.integers(0, 20), st.booleans()), min_size=1, max_size=6))
def test_no_arrow_label_lies_on_another(picks):
    """issue 29, 2: labels of arrows from one cell, along one line or onto one ring
    never overlap (each disc at least a diameter from every other)."""
    board = Board.from_game_string(MIDGAME)
    cells = sorted({cell for _, cell, _ in board.pieces_in_play()})
    arrows = [(None if ring else cells[a % len(cells)], cells[b % len(cells)], str(number))
              for number, (a, b, ring) in enumerate(picks, start=1)]
    root = parse(board, arrows=arrows, last_move=False)
    discs = [(float(c.get("cx")), float(c.get("cy")), float(c.get("r")))
             for label in classed(root, "arrow-label") for c in label.iter(SVG + "circle")]
    assert len(discs) == len(arrows)
    for i, (x, y, r) in enumerate(discs):
        for x2, y2, _ in discs[:i]:
            assert ((x - x2) ** 2 + (y - y2) ** 2) ** 0.5 >= 2 * r - 0.01, arrows


def hexagon_points(root, piece):
    (group,) = elements(root, "data-piece", piece)
    points = group.find(SVG + "polygon").get("points")
    return sorted(tuple(round(float(v), 1) for v in point.split(",")) for point in points.split())


def test_flipping_turns_the_picture_half_round():
    board = Board.from_game_string(MIDGAME)
    plain, flipped = parse(board), parse(board, flipped=True)
    for piece, _, _ in board.pieces_in_play():
        name = PIECE_NAMES[piece]
        if elements(plain, "data-piece", name)[0].tag != SVG + "g":
            continue  # under a stack: named in its top's listing
        turned = sorted((-x + 0.0, -y + 0.0) for x, y in hexagon_points(plain, name))
        assert hexagon_points(flipped, name) == turned
    assert hexagon_points(flipped, "wQ") != hexagon_points(plain, "wQ")
    # Black's hand comes to the bottom.
    labels = [e.text for e in classed(flipped, "label")]
    assert labels == ["White to move", "Black"]
    assert board_svg(board, rotation=6) == board_svg(board)
    assert board_svg(board, rotation=1) != board_svg(board)


def test_the_picture_is_the_same_bytes_for_the_same_board():
    board = Board.from_game_string(MIDGAME)
    again = Board.from_game_string(board.game_string())
    assert board_svg(board) == board_svg(again) == board._repr_svg_()
    assert board_svg(board, size=40) != board_svg(board)
    root = parse(board, size=40)
    assert root.get("viewBox").split()[2] == root.get("width")


def test_coordinates_name_every_cell_drawn():
    board = Board.from_game_string(STACKS)
    root = parse(board, coordinates=True)
    written = {e.text for e in classed(root, "coordinate")}
    drawn = {e.get("data-cell") for e in elements(root, "data-cell")}
    assert written == drawn and "0,0" in written
    assert not classed(parse(board), "coordinate")


def test_the_viewbox_holds_every_cell_drawn():
    board = Board.from_game_string(MIDGAME)
    root = parse(board)
    x0, y0, width, height = map(float, root.get("viewBox").split())
    for polygon in root.iter(SVG + "polygon"):
        for point in polygon.get("points").split():
            x, y = map(float, point.split(","))
            assert x0 <= x <= x0 + width and y0 <= y <= y0 + height


def test_the_readme_picture_is_what_its_command_draws(capsys):
    root = Path(__file__).parent.parent
    lines = (root / "README.md").read_text().splitlines()
    (command,) = [line for line in lines if line.startswith("python -m engine.svg ")]
    words = shlex.split(command)
    assert words[:3] == ["python", "-m", "engine.svg"] and words[-2:] == [">", "docs/midgame.svg"]
    assert words[3] == MIDGAME
    main(words[3:-2])
    assert capsys.readouterr().out == (root / "docs" / "midgame.svg").read_text()


# --- The text diagram ---------------------------------------------------------------


def test_the_diagram_of_an_empty_board_is_the_origin():
    assert str(Board("Base+MLP")) == (
        "Base+MLP, turn 1: White to move\n"
        ".\n"
        "White in hand: wQ wS1 wS2 wB1 wB2 wG1 wG2 wG3 wA1 wA2 wA3 wM wL wP\n"
        "Black in hand: bQ bS1 bS2 bB1 bB2 bG1 bG2 bG3 bA1 bA2 bA3 bM bL bP"
    )


def test_the_diagram_marks_stacks_and_says_what_is_under_them():
    assert str(Board.from_game_string(STACKS)) == (
        "Base, turn 8: Black to move\n"
        "   .     .     .     .     .\n"
        ".    wQ   wB2^3 bB1^2 bB2^2   .\n"
        "   .     .     .     .     .\n"
        "wB2^3 on wB1 on wS1\n"
        "bB1^2 on bS1\n"
        "bB2^2 on bQ\n"
        "White in hand: wS2 wG1 wG2 wG3 wA1 wA2 wA3\n"
        "Black in hand: bS2 bG1 bG2 bG3 bA1 bA2 bA3"
    )


def test_the_diagram_of_a_finished_game_says_who_won():
    board = Board.from_game_string(
        r"Base;WhiteWins;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \bQ;wG1 bQ\;bG2 bQ/;"
        r"wA1 wQ\;bA1 bG2/;wA1 bG2\;bA1 /bG1"
    )
    assert str(board) == (
        "Base, turn 7: White wins (Queen surrounded)\n"
        "               .     .     .\n"
        "            .    bG1   bG2    .\n"
        "   .     .    bA1   bQ    wA1    .\n"
        ".    wQ    wS1   bS1   wG1    .\n"
        "   .     .     .     .     .\n"
        "White in hand: wS2 wB1 wB2 wG2 wG3 wA2 wA3\n"
        "Black in hand: bS2 bB1 bB2 bG3 bA2 bA3"
    )


def test_the_diagram_of_the_midgame():
    assert str(Board.from_game_string(MIDGAME)) == "\n".join(
        [
            "Base+MLP, turn 16: White to move",
            "                  .     .           .     .",
            "   .     .     .    wM     .     .    wS1    .",
            ".    wA2    .    bS1    .     .    wQ     .",
            "   .    bQ   bB1^2   .    wP    bM    bP     .",
            ".    wA3    .    bL    wA1    .   wB1^2   .",
            "   .     .     .    wB2    .     .     .",
            "                  .     .",
            "bB1^2 on bB2",
            "wB1^2 on bG1",
            "White in hand: wS2 wG1 wG2 wG3 wL",
            "Black in hand: bS2 bG2 bG3 bA1 bA2 bA3",
        ]
    )


def test_repr_stays_the_game_string():
    board = Board.from_game_string(MIDGAME)
    assert repr(board) == f"Board.from_game_string({MIDGAME!r})"


# --- Random games ---------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(game_type=st.sampled_from(game_types()), seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 120))
def test_any_position_of_a_random_game_renders(game_type, seed, plies):
    rng = random.Random(seed)
    board = Board(game_type)
    while board.ply < plies and not board.is_game_over():
        board.push(rng.choice(board.legal_moves))
    moves = board.legal_moves
    highlights = [move.dest for move in moves[:10] if not move.is_pass]
    line = [rng.choice(moves)] if moves else []
    picture = board_svg(
        board,
        flipped=bool(seed & 1),
        rotation=seed % 6,
        highlights=highlights,
        arrows=pv_arrows(board, line),
        coordinates=bool(seed & 2),
    )
    root = ET.fromstring(picture)
    check_picture(board, root)
    assert len(classed(root, "highlight")) == len(set(highlights))
    text = str(board)
    # Each stack is marked in the hive and has its own line: wB1^2 on wS1.
    marks = re.findall(r"[wb][A-Z]\d?\^\d+", text)
    assert len(marks) == 2 * len({cell for _, cell, level in board.pieces_in_play() if level > 0})


def test_the_hands_stay_put_when_the_side_to_move_changes_and_a_frame_holds_the_size():
    """Issue 29, item 3: the hand rows used to shift sideways when '... to move'
    changed sides, and the picture to re-fit as arrows came and went."""
    from engine.game import BLACK, WHITE

    stacks = {(0, 0): ["wQ"], (1, 0): ["bQ"], (-1, 0): ["wA1"]}
    hands = []
    for to_move in (WHITE, BLACK):
        picture = board_svg(Board.from_stacks("Base", stacks, to_move=to_move))
        hands.append(re.findall(r'data-hand="(\w+)".*?points="([^"]+)"', picture))
    assert hands[0] == hands[1] and len(hands[0]) == 8  # S, B, G, A a side
    board = Board.from_stacks("Base", stacks)
    far = [(cell_of(-1, 0), cell_of(-4, 0))]  # an arrow two rings out of the hive
    framed = [board_svg(board, frame=2, arrows=arrows) for arrows in ((), far)]
    view_boxes = [re.search(r'viewBox="([^"]+)"', picture).group(1) for picture in framed]
    assert view_boxes[0] == view_boxes[1] != re.search(r'viewBox="([^"]+)"', board_svg(board)).group(1)


def test_a_long_hand_wraps_onto_lines_of_eight_away_from_the_board():
    """Issue 29, item 6: the biggest fan type's kinds a hand (15 with the
    Predators) made the picture wide and every hexagon small; it now wraps, as
    wide as an official hand."""
    biggest = Board("Base+MLP+Predators+Guardians+Dx+E+J")
    picture = board_svg(biggest)
    centres = {}
    for hand, points in re.findall(r'data-hand="(\w+)".*?points="([^"]+)"', picture):
        xs, ys = zip(*(map(float, point.split(",")) for point in points.split()))
        centres[hand] = (round(sum(xs) / 6, 1), round(sum(ys) / 6, 1))
    assert len(centres) == 30 and len(set(centres.values())) == 30
    lines = {}
    for hand, (x, y) in centres.items():
        lines.setdefault((hand[0], y), []).append(x)
    assert sorted(len(xs) for xs in lines.values()) == [7, 7, 8, 8]
    black_lines = sorted(y for colour, y in lines if colour == "b")
    assert all(y < 0 for y in black_lines)  # above the board, the second line further up
    width = float(re.search(r'viewBox="\S+ \S+ (\S+)', picture).group(1))
    official = float(re.search(r'viewBox="\S+ \S+ (\S+)', board_svg(Board("Base+MLP"))).group(1))
    assert width == official


def test_every_letter_reads_on_its_piece():
    """Issue 29, item 6: grey letters on black pieces (bM, bJ) were hard to read.
    Every bug's letter has a WCAG contrast of at least 4.5 with its piece, in its
    row's hue, and the pictures draw it so."""
    from engine.io.svg import FILL, MIN_CONTRAST, bug_color

    def luminance(colour):
        rgb = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        rgb = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]

    for bug in BUGS:
        for colour in (0, 1):
            ink, piece = luminance(bug_color(bug.letter, colour)), luminance(FILL[colour])
            assert (max(ink, piece) + 0.05) / (min(ink, piece) + 0.05) >= MIN_CONTRAST >= 4.5, (bug.letter, colour)
    picture = board_svg(Board.from_game_string("Base+M;InProgress;White[2];wS1;bM wS1-"))
    assert f'fill="{bug_color("M", 1)}"' in picture and f'fill="{bug_color("S", 0)}"' in picture


# --- Venom and the Predators (issue 26, item 9) ------------------------------------------
def test_a_tile_back_side_up_shows_its_face_inside_a_second_outline():
    board = Board.from_stacks("Base+Venom", {(0, 0): ["wQ"], (1, 0): ["bQ"], (-1, 0): ["wR1"], (2, 0): ["bS1"]})
    root = parse(board)
    (scorpion,) = elements(root, "data-piece", "wS1")
    assert "back" in scorpion.get("class").split() and scorpion.get("data-face") == "wR1"
    assert scorpion.find(SVG + "text").text == "R" and len(classed(scorpion, "back")) == 1
    assert scorpion.find(SVG + "title").text == "wR1: White Scorpion, the back of its Spider tile"
    (spider,) = elements(root, "data-piece", "bS1")
    assert "back" not in spider.get("class").split() and spider.find(SVG + "text").text == "S"
    assert "wR1" in str(board) and "wS1" not in str(board).split("\n")[1]  # the text diagram by face too


def test_frozen_controlled_and_locked_pieces_are_marked():
    """EX-VN2 (a Scorpion locks wA1) with bB1 Frozen; then EX-T3's mind control."""
    stacks = {(0, 0): ["wQ"], (1, 0): ["bQ"], (2, -1): ["bR1"], (3, -1): ["wA1"], (2, 0): ["wU"],
              (0, 1): ["bA1", "wB1"], (-1, 1): ["bS2", "wD1"], (0, -1): ["wS2", "bB1"], (-1, 0): ["wG2"],
              (-2, 0): ["wS1"], (1, 1): ["wA2"]}
    board = Board.from_stacks("Base+L+Venom", stacks, last=["wA2"], frozen="bB1")
    root = parse(board)
    marked = {e.get("data-piece"): e.get("data-marks") for e in elements(root, "data-marks")}
    assert marked == {"wA1": "locked", "bB1": "frozen"}  # wU is immune, bS2 and wS2 are covered
    placed = Board.from_stacks("Base+L+Venom(Placed)", stacks, last=["wA2"])
    assert elements(parse(placed), "data-marks") == []  # no flips, so nothing to lock
    board = Board.from_stacks("Base+MP+Venom", {(0, 0): ["wT"], (-1, 0): ["wQ"], (1, 0): ["bP"], (1, -1): ["bQ"],
                                                (1, 1): ["bA1"]})
    board.push_uhp("bQ bP/ @wT")
    (queen,) = elements(parse(board), "data-piece", "bQ")
    assert queen.get("data-marks") == "controlled" and "mind control of wT" in queen.find(SVG + "title").text


def test_an_obliged_piece_and_a_spent_queen_are_marked():
    """EX-Wx2's sting marks bS1 for Black's turn; then EX-Wx3's sting to hand marks wQ."""
    board = Board.from_stacks("Base+Wx", {(0, 0): ["wQ"], (1, 0): ["bQ"], (2, 0): ["bA1"], (3, 0): ["wWx"],
                                          (3, 1): ["bS1"]})
    board.push_uhp("wWx !bS1")
    (stung,) = elements(parse(board), "data-marks")
    assert stung.get("data-piece") == "bS1" and stung.get("data-marks") == "obliged"
    assert "S004 Wasp wWx" in stung.find(SVG + "title").text
    board = Board.from_stacks("Base+Wx", {(0, 0): ["wQ"], (1, 0): ["bQ"], (-1, 0): ["bA1"], (0, 1): ["wS1", "bB1"],
                                          (-1, 1): ["wG1"], (-2, 2): ["wWx"]})
    board.push_uhp("wQ xbB1")
    marked = {e.get("data-piece"): e.get("data-marks") for e in elements(parse(board), "data-marks")}
    assert marked == {"wQ": "spent"}


def test_pieces_removed_from_the_game_follow_their_hand_crossed_out():
    stacks = {(0, 0): ["wK"], (1, 0): ["bA1"], (0, 1): ["bG1"], (-1, 1): ["bU"], (-1, 0): ["wQ"], (0, -1): ["bS1"],
              (1, -1): ["bB1"], (2, -2): ["bQ"]}
    board = Board.from_stacks("Base+L+Venom+Predators", stacks, last=["bS1"])
    board.push_uhp("wK xbA1")  # EX-K1
    root = parse(board)
    assert {e.get("data-removed") for e in classed(root, "removed")} == {"wK", "bA1"}
    assert not elements(root, "data-piece", "wK") and not elements(root, "data-piece", "bA1")
    assert "Removed from the game: wK bA1" in str(board)


def test_prisoners_follow_their_hand_behind_bars():
    """EX-Nx1: wNx takes bS1 into its prison (and goes to hand itself): bS1 is
    drawn after Black's hand, not in it, and the text diagram says where it is."""
    stacks = {(0, 0): ["wNx"], (-1, 1): ["wQ"], (1, 0): ["bS1"], (0, 1): ["bG1"], (0, 2): ["bQ"]}
    board = Board.from_stacks("Base+Nx", stacks)
    board.push_uhp("wNx xbS1")
    root = parse(board)
    (prisoner,) = classed(root, "prisoner")
    assert prisoner.get("data-prisoner") == "bS1" and "prison of wNx" in prisoner.find(SVG + "title").text
    hands = {e.get("data-hand"): e.get("data-pieces") for e in elements(root, "data-hand")}
    assert hands["bS"] == "bS2" and hands["wNx"] == "wNx"
    assert "In the prison of wNx: bS1" in str(board)


@settings(max_examples=20, deadline=None)
@given(game_type=st.sampled_from(["Base+MLP+Venom", "Base+MP+Venom+Predators", "Base+LP+Venom+Predators"]),
       seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 80))
def test_any_position_of_a_random_venom_game_shows_each_face(game_type, seed, plies):
    rng = random.Random(seed)
    board = Board(game_type)
    while board.ply < plies and not board.is_game_over():
        board.push(rng.choice(board.legal_moves))
    root = parse(board, arrows=pv_arrows(board, board.legal_moves[:1]))
    for piece, cell, _ in board.pieces_in_play():
        if board.top_piece(cell) == piece:
            (element,) = elements(root, "data-piece", PIECE_NAMES[piece])
            assert element.find(SVG + "text").text.rstrip("0123456789") == board.name(piece)[1:].rstrip("0123456789")
            assert ("back" in element.get("class").split()) == board.shows_back(piece)
    removed = sorted(PIECE_NAMES[p] for p in range(NUM_PIECES) if board.is_removed(p))
    assert sorted(e.get("data-removed") for e in classed(root, "removed")) == removed


# --- HoneyCombo (issue 27, item 7) --------------------------------------------------------
def test_the_honeycomb_is_neutral_and_light_side_up_while_a_double_turn_is_due():
    """EX-H2's game before and after `nH ~`: the Honeycomb is drawn in its own colour,
    light while a turn is double, and the status line says whose turn it is."""
    from engine.io.svg import FILL, HONEYCOMB_LIGHT

    board = Board.from_game_string("Base+HoneyCombo;InProgress;White[3];wA1 nH-;bA1 -nH;wQ wA1-;bQ -bA1")
    (tile,) = elements(parse(board), "data-piece", "nH")
    assert "neutral" in tile.get("class") and tile.find(SVG + "polygon").get("fill") == FILL[2]
    assert "dark side up" in tile.find(SVG + "title").text
    board.push_uhp("nH ~")
    (tile,) = elements(parse(board), "data-piece", "nH")
    assert tile.find(SVG + "polygon").get("fill") == HONEYCOMB_LIGHT
    assert "light side up: White's turn is a double turn" in tile.find(SVG + "title").text
    assert str(board).splitlines()[0].endswith("Black to move; White's next turn is a double turn")
    board.push_uhp("bG1 -bQ")
    board.push_uhp("wG1 wQ-")
    assert str(board).splitlines()[0].endswith("White to move; the second action of its double turn")


# --- Swarm (issue 27, item 7) -------------------------------------------------------------
def test_a_swarm_hand_holds_both_colours_and_the_bag_is_a_row_of_its_own():
    """After the choices, White places and draws Black's Ant (SW-3): White's hand
    shows it in Black's colour; the bag's row lists every piece still in it, and
    while the draw is due the labels and the status line say so."""
    from engine.io.svg import FILL

    board = Board.from_game_string("Base+Swarm;InProgress;White[1];choose wS1 wS2 wB1;choose bS1 bB1 bB2;wS1")
    assert board.draw_due
    root = parse(board)
    assert [e.text for e in classed(root, "label")] == ["Black", "White to draw", "Bag"]
    assert str(board).splitlines()[0].endswith("White to draw from the bag")
    board.push_uhp("draw bA2")  # any copy names the bug: the lowest is drawn
    root = parse(board)
    check_picture(board, root)
    white = {e.get("data-hand"): e for e in classed(root, "white") if e.get("data-hand")}
    assert white["bA"].get("data-pieces") == "bA1" and white["bA"].find(SVG + "polygon").get("fill") == FILL[1]
    assert white["wS"].get("data-pieces") == "wS2" and white["wS"].find(SVG + "polygon").get("fill") == FILL[0]
    bagged = {e.get("data-bag"): e.get("data-pieces").split() for e in classed(root, "bag") if e.get("data-bag")}
    assert sorted(name for names in bagged.values() for name in names) == sorted(board.bag())
    assert bagged["bA"] == ["bA2", "bA3"] and "bS" in bagged and "wQ" not in bagged and "bQ" not in bagged
    assert str(board).splitlines()[-1] == "In the bag: " + " ".join(board.bag())


def test_any_position_of_a_random_swarm_game_renders_its_hands_and_bag():
    rng = random.Random(27)
    for game_type in ("Base+MLP+Swarm", "Base+HoneyCombo+Swarm"):
        board = Board(game_type)
        while board.ply < 90 and not board.is_game_over():
            board.push(rng.choice(board.legal_moves))
            root = parse(board)
            check_picture(board, root)
            bagged = [name for e in classed(root, "bag") if e.get("data-bag") for name in e.get("data-pieces").split()]
            assert sorted(bagged) == sorted(board.bag())
