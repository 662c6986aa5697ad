"""The plain-Python reference (tests/reference.py) on the fan game types, held to the spec.

The game-type grammar of fan-rules.md §2.1 (canonical printing GT-2, rejections GT-3, the
Venom variants of §2.2), the pieces per side (§2.4) and the stack limit (§2.5); the statuses
each kind of move leaves (§3.2) and Venom's names and move identity (§4.1, ID-1); the perft
vectors of §12; and properties of the reference over seeded random games (§14): no legal move
splits the hive or piles a stack above the limit, every move changes the state (G-4) and gives
a state of its own (ID-1), the statuses keep their shape (§3.2) and name pieces by the face
they show, every move's printed string parses back.
The worked examples of the spec are in test_fan_examples.py. Nothing here imports the engine.
"""

import random
from collections import Counter

import pytest

from .conftest import read_rows
from .reference import (
    BUGS,
    GameType,
    Position,
    bug,
    canonical_piece,
    is_connected,
    move_string,
    parse_game_type,
    perft,
)
from .test_fan_examples import EX_C1, EX_J1, EX_W1, VENOM_PERFT

# fan-rules.md §12, the game types whose bugs the reference plays.
SPEC_PERFT = {
    "Base+Guardians": (4, 96, 1440, 21600),
    "Base+E": (4, 96, 1632, 26592),
    "Base+Dx": (5, 150, 2610, 45414),
    "Base+J": (5, 150, 2610, 45414),
    "Base+Venom": VENOM_PERFT,
    "Base+Venom(Placed)": VENOM_PERFT,
    "Base+Predators": (7, 294, 5880, 117600),  # EX-PR1
    "Base+Vx": (5, 150, 2610, 45414),
    "Base+Wx": (5, 150, 2520, 42336),
    "Base+Fx": (5, 150, 2520, 42336),
    "Base+Nx": (5, 150, 2610, 45414),
    "Base+HoneyCombo": (24, 768, 19200, 408000),  # EX-H1
}
ALL_FAN = "Base+MLP+Guardians+Dx+E+J"


# --- Game types (fan-rules.md §2.1) -----------------------------------------------------
@pytest.mark.parametrize("text,canonical", [
    ("Base+MLP", "Base+MLP"), ("base+plm", "Base+MLP"), ("Base", "Base"),
    ("base+e", "Base+E"), ("BASE+dX", "Base+Dx"), ("Base+guardians", "Base+Guardians"),
    ("Base+E+M", "Base+M+E"), ("Base+J+Dx+E", "Base+Dx+E+J"),
    ("Base+J+PLM+Dx+Guardians+E", ALL_FAN), (" Base+Guardians+LP+J ", "Base+LP+Guardians+J"),
    ("base+venom", "Base+Venom"), ("Base+Venom+PL", "Base+LP+Venom"), ("Base+venom(placed)", "Base+Venom(Placed)"),
    ("Base+VENOM(fixed:yf)+L", "Base+L+Venom(Fixed:FY)"),
    ("Base+LP+Venom(Fixed:CURDYF)", "Base+LP+Venom(Fixed:FDRYUC)"),
    ("Base+Guardians+J+Venom(Fixed: d)+E", "Base+Venom(Fixed:D)+Guardians+E+J"),
    ("Base+Venom(Fixed:CF)+PL", "Base+LP+Venom(Fixed:FC)"),
])
def test_game_type_prints_canonical(text, canonical):
    """GT-3: case-insensitive, segments and official letters in any order; GT-2: printed
    as official letters, modules, then bug tokens alphabetically; GT-1: official unchanged."""
    assert parse_game_type(text).text == canonical


@pytest.mark.parametrize("text,reason", [
    ("Base+E+E", "E is repeated"),
    ("Base+e+Guardians+E", "E is repeated"),
    ("Base+MM", "official letter is repeated"),
    ("Base+M+L", "official letters are one segment"),
    ("Base+Foo", "unknown token"),
    ("Base+X", "unknown token"),
    ("Base+", "not a token"),
    ("Base+E(", "not a token"),
    ("Advanced+E", "does not start with Base"),
    ("Base+Guardians+Vx", "Guardians and Vx are two versions of the Moth"),
    ("Base+Venom+Dx", "Venom and Dx are two versions of the Dragonfly"),
    ("Base+Predators+Nx", "two versions of the Mantis"),
    ("Base+Dx(V2)", r"variant Dx\(V2\) is not implemented"),
    ("Base+J(Literal)", r"variant J\(Literal\) is not implemented"),
    ("Base+Dx(Fast)", "Dx has no variant 'Fast'"),
    ("Base+E(V2)", "E has no variant"),
    ("Base+M(V2)", "unknown token"),
    ("Base+Predators(MantisEver)", r"variant Predators\(MantisEver\) is not implemented"),
    ("Base+Venom+venom", "Venom is repeated"),
    ("Base+Venom+Fx", "Venom and Fx are two versions of the Firefly"),
    ("Base+Wx+Venom", "Venom and Wx are two versions of the Wasp"),
    ("Base+Venom(Fixed:U)", "names U without L"),
    ("Base+L+Venom(Fixed:C)", "names C without P"),
    ("Base+Venom(Fixed:T)", "names T without M"),
    ("Base+Venom(Placed,Fixed:F)", "both Venom variants"),
    ("Base+Venom(Placed,Placed)", "both Venom variants"),
    ("Base+Venom(Fixed:FF)", "each once"),
    ("Base+Venom(Fixed:W)", "F D R Y U T C"),
    ("Base+Venom(Fixed:)", "F D R Y U T C"),
    ("Base+Venom(Fixed)", "Venom has no variant 'Fixed'"),
    ("Base+Venom(Placed:F)", "Venom has no variant"),
    ("Base+Venom(Mixed)", "Venom has no variant 'Mixed'"),
    ("Base+Venom(CentipedeStrict)", r"variant Venom\(CentipedeStrict\) is not implemented"),
    ("Base+P+Venom(Placed,DragonflyOneTurn)", r"variant Venom\(DragonflyOneTurn\) is not implemented"),
])
def test_bad_game_types_say_why(text, reason):
    """GT-3: unknown or repeated tokens, both versions of one bug, variants not played."""
    with pytest.raises(ValueError, match=reason):
        parse_game_type(text)


def test_pieces_per_side():
    """§2.4: one Moth, Butterfly, Dragonfly, Flea and Woodlouse a side, after the
    official pieces in piece order (§4.1); two-letter codes end in a lowercase x."""
    position = Position(ALL_FAN)
    extra = ["wV", "wZ", "wDx", "wE", "wJ"]
    assert position.pieces_of("w") == Position("Base+MLP").pieces_of("w") + extra
    assert len(position.hand["b"]) == 19
    assert all(BUGS[bug(name)].copies == 1 for name in extra)
    assert canonical_piece("BDX") == "bDx" and canonical_piece("wj") == "wJ"
    with pytest.raises(ValueError, match="not a piece of Base"):
        Position("Base").parse("wE")
    with pytest.raises(ValueError, match="not a piece name"):
        canonical_piece("wQQ1")


@pytest.mark.parametrize("game_type,limit", [
    ("Base", 5), ("Base+MLP", 7), ("Base+MLP+Guardians", 11), ("Base+Dx", 7), ("Base+M+Guardians+Dx", 13),
    ("Base+E+J", 5), ("Base+Venom", 11), ("Base+LP+Venom", 11), ("Base+Venom(Placed)", 11),
    ("Base+LP+Venom+Guardians", 15), ("Base+Venom(Fixed:D)", 11), ("Base+Venom(Fixed:FY)", 5),
])
def test_stack_height_limit(game_type, limit):
    """§2.5: 1 + 2 x (Beetle tiles 2, Mosquito 1, Venom's Grasshopper tiles 3, Guardians 2, Dx 1).
    Our reading for Venom(Fixed:...) without D: the Grasshopper tiles never show the Dragonfly,
    so they are not top-capable (the spec gives no such example; an upper bound either way)."""
    assert parse_game_type(game_type).max_height == limit


def test_stack_height_limit_with_the_tick_tile():
    """§2.5's Venom examples with M, which parse_game_type refuses (the Tick is not played):
    Base+MLP+Venom 13, Base+MLP+Venom+Guardians 17 (the Mosquito tile counted once)."""
    assert GameType("MLP", ("Venom",)).max_height == 13
    assert GameType("MLP", ("Venom", "Guardians")).max_height == 17


def test_venom_tiles_and_faces():
    """§2.4: Venom turns the official pieces into tiles (same counts, named by their front in
    hand); §2.2: the faces each tile can show per variant; §4.1: either name of a tile in play."""
    position = Position("Base+LP+Venom")
    assert position.pieces_of("w") == Position("Base+LP").pieces_of("w") and len(position.hand["b"]) == 13
    faces = {code: position.rules.faces(code) for code in "QSBGALP"}
    assert faces == {"Q": ("Q", "W"), "S": ("S", "R"), "B": ("B", "F"), "G": ("G", "D"), "A": ("A", "Y"),
                     "L": ("L", "U"), "P": ("P", "C")}
    assert parse_game_type("Base+Venom(Placed)").faces("Q") == ("Q",)
    assert parse_game_type("Base+Venom(Placed)").faces("B") == ("B", "F")
    fixed = parse_game_type("Base+Venom(Fixed:FY)")
    assert [fixed.faces(c) for c in "QSBGA"] == [("Q",), ("S",), ("F",), ("G",), ("Y",)]
    assert not fixed.flips and not parse_game_type("Base+Venom(Placed)").flips and position.rules.flips
    example = Position.from_example("Base+Venom", "(0,0) wQ · (0,1) bA1+wD1 · (1,0) bW", last=("bQ",), prime="wG1")
    assert "wG1" not in example.hand["w"] and "bQ" not in example.hand["b"] and example.stacks[(0, 1)] == ["bA1", "wD1"]
    assert example.last == {"bW"} and example.prime == "wD1", "statuses by the face shown"
    assert example.cell_of("wG1") == example.cell_of("wD1") == (0, 1) and example.level_of("wG1") == 1
    for board, reason in [
        ("(0,0) wQ · (1,0) wW", "placed twice"), ("(0,0) wG1 · (1,0) wD1", "placed twice"),
        ("(0,0) wU", r"not a piece of Base\+Venom "), ("(0,0) wT", "not a piece"),
    ]:
        with pytest.raises(ValueError, match=reason):
            Position.from_example("Base+Venom", board)
    for game_type, board in [("Base+Venom(Placed)", "(0,0) wW"), ("Base+Venom(Fixed:FY)", "(0,0) wB1"),
                             ("Base+Venom", "(0,0) wE")]:
        with pytest.raises(ValueError, match="not a piece of"):
            Position.from_example(game_type, board)


def test_white_first_entries_in_venom():
    """EX-VN1: White's first entries in Base+Venom, printed as the spec lists them (tile order,
    front face first)."""
    position = Position("Base+Venom")
    first = "wS1;wR1;wB1;wF1;wG1;wD1;wA1;wY1"
    assert sorted(move_string(position, m) for m in position.legal_moves()) == sorted(first.split(";"))
    assert all(dest == (0, 0) for _, dest in position.legal_moves())


def test_example_positions_are_checked():
    """Position.from_example rejects what is not a position of the game type."""
    for board, reason in [
        ("(0,0) wQ · (1,0) wQ", "placed twice"),
        ("(0,0) wE", "not a piece of Base"),
        ("(0,0) wQ · (0,0) bQ", "given twice"),
        ("(0 0) wQ", "not a cell"),
    ]:
        with pytest.raises(ValueError, match=reason):
            Position.from_example("Base", board)
    with pytest.raises(ValueError, match="subset of Last"):
        Position.from_example("Base", "(0,0) wQ · (1,0) bQ", frozen=("wQ",))


def test_throw_and_prefix_notation_are_checked():
    """§4.2: ` ^thrower` must touch both cells; the examples' `(q,r)@L` prefix must be
    where the mover ends (EX-J1's position)."""
    position = Position.from_example("Base+J", EX_J1)
    assert position.parse("wQ -wJ ^wJ") == position.parse("(-1,0)@0 wQ -wJ") == ("wQ", (-1, 0))
    for text in ("wQ -wJ ^bQ", "(-1,0)@1 wQ -wJ", "(0,0) wQ -wJ"):
        with pytest.raises(ValueError):
            position.parse(text)


# --- Statuses (fan-rules.md §3.2) --------------------------------------------------------
def test_statuses_each_kind_of_move_leaves():
    """Placement: Last, Prime and Placed the piece; move: Last and Prime the mover; own
    throw: as the piece's own move (ST-1); enemy throw: also Frozen; Dx carrying: Last both,
    Prime the Dragonfly (DX-4: the cargo not frozen); pass: nothing."""
    j1 = Position.from_example("Base+J", EX_J1)
    cases = [
        (j1, "wE", None),
        (j1, "wS1 -wQ", ({"wS1"}, set(), "wS1", "wS1")),
        (j1, "wJ \\bQ", ({"wJ"}, set(), "wJ", None)),
        (j1, "wQ -wJ", ({"wQ"}, set(), "wQ", None)),  # an own move and an own throw: one state
        (Position.from_example("Base+J", "(0,0) wJ · (1,0) wQ · (-1,0) bA1 · (2,0) bQ"),
         "bA1 \\wJ", ({"bA1"}, {"bA1"}, "bA1", None)),
        (Position.from_example("Base+Dx", "(0,0) wQ · (1,0) bQ · (0,1) bA1+wDx"),
         "wDx -wQ", ({"wDx", "bA1"}, set(), "wDx", None)),
    ]
    for position, text, statuses in cases:
        if statuses is None:
            with pytest.raises(ValueError):
                position.parse(text)
            continue
        child = position.copy()
        child.play(position.parse(text), check=True)
        assert (set(child.last), set(child.frozen), child.prime, child.placed) == statuses, text
    child = j1.copy()
    child.play("pass")
    assert (child.last, child.frozen, child.prime, child.placed) == (frozenset(), frozenset(), None, None)


def test_a_removal_leaves_no_statuses_and_its_pieces_gone():
    """§3.2, PR-1: a removal leaves no statuses; the actor and its target are gone for good,
    in no hand, and part of the state; a Queen tile removed loses at once (§3.8)."""
    kill = Position.from_example("Base+M+Predators", "(0,0) wM · (1,-1) wK · (1,0) bA1 · (2,-1) wQ · (2,0) bQ")
    child = kill.copy()
    child.play(kill.parse("wM xbA1"), check=True)
    assert (child.last, child.frozen, child.prime, child.placed) == (frozenset(), frozenset(), None, None)
    assert child.removed == {"wM", "bA1"} and "wM" not in child.hand["w"] and "bA1" not in child.hand["b"]
    assert (0, 0) not in child.stacks and (1, 0) not in child.stacks and child.result is None
    assert child.signature() != kill.signature()
    jump = Position.from_example("Base+Predators", "(0,0) wQ · (-1,0) wN · (1,0) bS1 · (2,0) bQ",
                                 last=("bQ",), prime="bQ", placed="bQ")
    child = jump.copy()
    child.play(jump.parse("wN xbQ"), check=True)
    assert child.result == "WhiteWins" and child.legal_moves() == set()


def test_statuses_venom_actions_leave():
    """§3.2 for Venom: a flip: Last and Prime the tile by its new face; a sting: Last, Prime and
    Frozen the victim by its new face (bA1 stung becomes bY1, W-2); a swap: Last both, Prime the
    Centipede, nothing frozen, the two pieces trade cells (C-3)."""
    w1 = Position.from_example("Base+L+Venom", EX_W1, last=("bG1",))
    c1 = Position.from_example("Base+P+Venom", EX_C1)
    cases = [
        (w1, "wB1 ~", ({"wF1"}, set(), "wF1", None), ((0, 1), ["bS1", "wF1"])),
        (w1, "wW ~", ({"wQ"}, set(), "wQ", None), ((0, 0), ["wQ"])),
        (w1, "wW ~bA1", ({"bY1"}, {"bY1"}, "bY1", None), ((1, 0), ["bY1"])),
        (w1, "wQ ~BB1", ({"bF1"}, {"bF1"}, "bF1", None), ((-1, 0), ["bF1"])),  # either name of wW's tile
        (c1, "wC =bS1", ({"wC", "bS1"}, set(), "wC", None), ((1, 1), ["wC"])),
    ]
    for position, text, statuses, (cell, stack) in cases:
        move = position.parse(text)
        child = position.copy()
        child.play(move, check=True)
        assert (set(child.last), set(child.frozen), child.prime, child.placed) == statuses, text
        assert child.stacks[cell] == stack, text
    child = c1.copy()
    child.play(c1.parse("wC =bS1"))
    assert child.stacks[(-1, 0)] == ["bS1"]


def test_venom_placement_by_face():
    """VN-2, §4.2: `wD2 -wQ` places tile G2 Dragonfly side up when it is the lowest Grasshopper
    tile in hand; Placed = Last = Prime = wD2; the hand loses tile G2."""
    position = Position.from_example("Base+Venom", "(0,0) wQ · (1,0) bQ · (-1,1) wG1")
    move = position.parse("wD2 -wQ")
    assert move == ("wD2", (-1, 0)) and move in position.legal_moves()
    child = position.copy()
    child.play(move)
    assert child.stacks[(-1, 0)] == ["wD2"] and "wG2" not in child.hand["w"]
    assert (child.last, child.prime, child.placed) == ({"wD2"}, "wD2", "wD2")
    assert position.parse("wG2 -wQ") != move and position.parse("wG2 -wQ") in position.legal_moves()
    assert position.parse("wD3 -wQ") not in position.legal_moves()


def test_venom_names_and_identity():
    """§4.1, §4.2, ID-1: either name of a tile in play parses to its move, printed by the current
    name; a flip, a sting and a swap print as the spec writes them and parse back; a flipped tile
    is in Last under its new name, so its owner's opponent cannot sting it and its owner cannot flip
    it back next turn; after a sting the opponent's Fly targets the victim (Y-1, A.6)."""
    w1 = Position.from_example("Base+L+Venom", EX_W1, last=("bG1",))
    assert w1.parse("wB1 ~") == w1.parse("wf1 ~") == ("wB1", "~")
    assert w1.parse("wW ~bA1") == w1.parse("wQ ~by1") == ("wW", "~", "bA1")
    assert move_string(w1, ("wW", "~", "bA1")) == "wW ~bA1" and move_string(w1, ("wB1", "~")) == "wB1 ~"
    c1 = Position.from_example("Base+P+Venom", EX_C1)
    assert c1.parse("wP =bS1") == ("wC", "=", "bS1") and move_string(c1, ("wC", "=", "bS1")) == "wC =bS1"
    with pytest.raises(ValueError, match="not in play"):
        c1.parse("wC =bA2")
    # A tile flipped by its owner: in Last by its new face, so not stung during the next turn.
    board = "(0,0) wW · (1,0) bA1 · (2,0) bQ · (-1,0) wA1 · (3,0) bY2"
    position = Position.from_example("Base+Venom", board, to_move="b")
    position.play(position.parse("bA1 ~"), check=True)
    assert position.stacks[(1, 0)] == ["bY1"] and position.last == {"bY1"}
    assert not any(len(m) == 3 for m in position.legal_moves()), "bY1 is in Last: no sting"
    # A sting: the victim is Frozen (no move, no flip) and Prime, the Fly's target (Y-1, A.6).
    position = Position.from_example("Base+Venom", board)
    position.play(position.parse("wW ~bA1"), check=True)
    assert (position.stacks[(1, 0)], position.prime, position.frozen) == (["bY1"], "bY1", {"bY1"})
    assert not any(m[0] == "bY1" for m in position.legal_moves())
    assert {m[1] for m in position.legal_moves() if m[0] == "bY2"} == {(2, -1), (1, -1), (0, 1), (1, 1), "~"}
    with pytest.raises(ValueError, match="placed twice"):
        Position.from_example("Base+Venom", board + " · (4,0) bY1")


def test_own_move_and_own_throw_to_one_cell_are_one_move():
    """EX-J1, ID-2 and ST-1: `wQ -wJ` is both wQ's slide and wJ's throw, one move."""
    position = Position.from_example("Base+J", EX_J1)
    ways = {(a.kind, a.actor) for a in position.actions() if a.move == ("wQ", (-1, 0))}
    assert ways == {("move", "wQ"), ("throw", "wJ")}


def test_a_frozen_piece_does_nothing_and_a_piece_in_last_still_moves():
    """§3.3: Frozen: no move, no throw of it, no ability; Last: it may move."""
    board = "(0,0) wP · (1,0) wQ · (2,0) bQ · (-1,0) wA1"
    free = Position.from_example("Base+P", board)
    last = Position.from_example("Base+P", board, last=("wA1",))
    frozen = Position.from_example("Base+P", board, last=("wA1", "wP"), frozen=("wA1", "wP"))
    ant = {m for m in free.legal_moves() if m[0] == "wA1"}
    assert len(ant) == 9 and {m for m in last.legal_moves() if m[0] == "wA1"} == ant
    assert any(a.kind == "throw" and a.actor == "wP" for a in free.actions())
    # wA1 and wP frozen, wQ pinned: only placements are left.
    moves = frozen.legal_moves()
    assert moves and all(not frozen.in_play(piece) for piece, _ in moves)


# --- Perft (fan-rules.md §12) ------------------------------------------------------------
@pytest.mark.parametrize(
    "game_type,depth",
    [(t, d) for t in SPEC_PERFT for d in (1, 2, 3)] + [pytest.param(t, 4, marks=pytest.mark.slow) for t in SPEC_PERFT],
)
def test_perft_from_start_matches_the_spec(game_type, depth):
    assert perft(Position(game_type), depth) == SPEC_PERFT[game_type][depth - 1]


# --- Properties (fan-rules.md §14) ---------------------------------------------------------
def move_kind(position, move):
    """What a legal move is, for counting what the random games exercised."""
    if move == "pass":
        return "pass"
    if len(move) == 3:
        if move[1] == "x" and bug(move[0]) == "Q":
            return "to hand"
        return {"~": "sting", "=": "swap", "x": "remove", "!": "wasp sting"}.get(move[1], "control")
    if move[1] == "~":
        return "flip"
    piece, dest = move
    if not position.in_play(piece):
        return "place on top" if dest in position.stacks else "place"
    if colour_of(piece) != position.to_move:
        return "enemy throw"
    if position.dragonfly_cargo(piece, dest):
        return "carry"
    return f"move {bug(piece)}"


def colour_of(piece):
    return piece[0]


def check_position(position, kinds):
    """Every property of one position and each of its legal moves."""
    assert position.frozen <= position.last and len(position.last) <= 2
    moves = position.legal_moves()
    assert ("pass" in moves) == (moves == {"pass"})
    before = position.signature()
    limit = position.rules.max_height
    children = set()
    for move in moves:
        kinds[move_kind(position, move)] += 1
        child = position.copy()
        child.play(move)
        assert is_connected(child.stacks), f"{move} splits the hive"
        assert max(len(s) for s in child.stacks.values()) <= limit, move
        assert child.signature() != before, f"{move} changes nothing (G-4)"
        on_board = {p for stack in child.stacks.values() for p in stack}
        assert child.last | {child.prime} - {None} <= on_board, f"{move}: statuses by the faces shown"
        children.add(child.signature())
        if move != "pass":
            text = move_string(position, move)
            assert position.parse(text) == move, f"{text} does not parse back to {move}"
    assert len(children) == len(moves), "two moves give one state (ID-1)"
    return moves


def random_move(rng, moves):
    """A seeded random choice: a piece with a move, then one of its moves (so that rare
    movers are played as often as the Ants)."""
    moves = sorted(moves, key=str)
    pieces = sorted({m[0] for m in moves if m != "pass"}) or ["pass"]
    piece = rng.choice(pieces)
    return rng.choice([m for m in moves if m == piece or m[0] == piece])


def random_game(game_type, seed, plies, kinds):
    """A seeded random game with every position checked."""
    rng = random.Random(f"{game_type}/{seed}")
    position = Position(game_type)
    for _ in range(plies):
        moves = check_position(position, kinds)
        if not moves:
            return
        position.play(random_move(rng, moves))


FAN_TYPES = [
    "Base+E", "Base+J", "Base+Dx", "Base+Guardians", "Base+M+Guardians+Dx", ALL_FAN,
    "Base+Venom", "Base+LP+Venom", "Base+LP+Venom+Guardians", "Base+Venom(Placed)", "Base+LP+Venom(Fixed:FDRYUC)",
    "Base+LP+Venom+E+J", "Base+Predators", "Base+MLP+Predators+Guardians", "Base+LP+Venom+Predators",
    "Base+M+Venom", "Base+MLP+Venom", "Base+MP+Venom+Predators", "Base+Vx", "Base+M+Venom+Vx",
    "Base+Wx", "Base+P+Fx", "Base+MP+Fx+Wx", "Base+Nx", "Base+M+Nx", "Base+M+Venom+Nx",
]
# Venom's new kinds of move; the Centipede has no move of its own (its swap is counted).
VENOM_KINDS = ("flip", "sting", "swap", "control", "move W", "move F", "move D", "move R", "move Y", "move U", "move T")
PREDATOR_KINDS = ("remove", "move K")


def test_random_games_keep_the_rules_properties():
    """One Hive, the height limit, G-4, ID-1, statuses and notation round trips over random
    games of the fan types, and those games do exercise the new kinds of move."""
    kinds = Counter()
    for game_type in FAN_TYPES:
        random_game(game_type, 0, 60, kinds)
    fan_kinds = ("place on top", "enemy throw", "carry", "move V", "move Z", "move Dx", "move E", "move J", "move Vx",
                 "move Wx", "move Fx", "move Nx", "wasp sting", "to hand")
    for kind in fan_kinds + VENOM_KINDS + PREDATOR_KINDS:
        assert kinds[kind] > 0, f"the random games never offered a {kind}: {dict(kinds)}"


@pytest.mark.slow
@pytest.mark.parametrize("game_type", FAN_TYPES)
def test_many_random_games_keep_the_rules_properties(game_type):
    """30 games of up to 120 plies per game type (`pytest -m slow tests/test_reference_fan.py`:
    about 3 min of CPU, 13 min on the shared 2-core machine)."""
    kinds = Counter()
    for seed in range(100, 130):
        random_game(game_type, seed, 120, kinds)
    assert sum(kinds.values()) > 10_000


# --- The perft table (tests/data/perft_fan.tsv) -------------------------------------------
def midgame(game_type, seed):
    """The GameString after 20 + 4 x seed seeded random plies of the reference (None if the
    game ended first), its moves printed by reference.move_string."""
    rng = random.Random(f"mid/{game_type}/{seed}")
    position = Position(game_type)
    texts = []
    for _ in range(20 + 4 * seed):
        moves = position.legal_moves()
        if not moves:
            return None
        move = random_move(rng, moves)
        texts.append(move_string(position, move))
        position.play(move)
    if position.result:
        return None
    side = "White" if position.to_move == "w" else "Black"
    return f"{position.game_type};InProgress;{side}[{position.turn}];" + ";".join(texts)


PERFT_ROWS = [(name, text, int(depth), int(count)) for name, text, depth, count in read_rows("perft_fan.tsv")]


def perft_position(text):
    """A row's position: a GameTypeString is the start, a GameString is replayed."""
    return Position.from_game_string(text) if ";" in text else Position(text)


@pytest.mark.parametrize(
    "name,text,depth,count",
    [row for row in PERFT_ROWS if row[2] <= (3 if ";" not in row[1] else 1)]
    + [pytest.param(*row, marks=pytest.mark.slow) for row in PERFT_ROWS if row[2] > (3 if ";" not in row[1] else 1)],
    ids=lambda v: v if isinstance(v, str) and ";" not in v else None,
)
def test_reference_reproduces_the_perft_table(name, text, depth, count):
    """The table the engine is held to; the reference made it (see its header) and
    reproduces it: from the start to depth 3 and the mid-game rows at depth 1 by default,
    everything under `-m slow` (about 20 min of CPU)."""
    assert perft(perft_position(text), depth) == count


# Venom's rows beside SPEC_PERFT's: with swaps (Base+LP), its richest type, and Fixed.
# With the Tick (Base+M), and Base+MLP+Venom, EX-VN1's second vector.
VENOM_TYPES = ["Base+LP+Venom", "Base+LP+Venom+Guardians+E+J", "Base+LP+Venom(Fixed:FDRYUC)", "Base+M+Venom",
               "Base+MLP+Venom"]
PREDATOR_TYPES = ["Base+MLP+Predators+Guardians+Dx+E+J", "Base+LP+Venom+Predators", "Base+MP+Venom+Predators"]
# The S004 Moth with the Mosquito it keeps on the ground (MQ-4), with Venom's Tick, and in
# the largest type it can join; the S004 Firefly beside the Pillbug whose throws its
# commands meet (EX-ID1), with the Wasp and the Mosquito, and every S004 bug together.
S004_TYPES = ["Base+M+Vx", "Base+M+Venom+Vx", "Base+MLP+Predators+Dx+E+J+Vx", "Base+P+Fx", "Base+MP+Fx+Wx",
              "Base+MLP+Predators+Dx+E+Fx+J+Vx+Wx", "Base+M+Nx", "Base+MLP+Guardians+Dx+E+Fx+J+Nx+Wx"]
# The Honeycomb with the official bugs, with the Guardians placed on it, with the S004
# Wasp's obligation binding a double turn's first action, and with the S004 Moth that
# crosses it and the Mantis that takes pieces beside it.
HONEYCOMB_TYPES = ["Base+MLP+HoneyCombo", "Base+Guardians+HoneyCombo", "Base+P+HoneyCombo+Wx", "Base+HoneyCombo+Nx+Vx"]
# Swarm: §12's two vectors, and with HoneyCombo, whose double turns take draws between
# their actions.
SWARM_TYPES = ["Base+Swarm", "Base+MLP+Swarm", "Base+MLP+HoneyCombo+Swarm"]
COMBINATIONS = [ALL_FAN, "Base+Guardians+Dx+E+J", "Base+M+E", "Base+M+J", "Base+M+Dx", "Base+P+Dx", *VENOM_TYPES,
                *PREDATOR_TYPES, *S004_TYPES, *HONEYCOMB_TYPES, *SWARM_TYPES]

# The mid-game rows of the table: (game type, seed of `midgame`, deepest depth). Every game
# type of the table has one to depth 4, at a seed picked for the reference's cost: it spends
# about 0.5-0.8 ms of CPU a node, so a depth-4 row costs its depth-3 count in half
# milliseconds (120,000-180,000 nodes here, 1-2 minutes each; seeds 0 and 1 of the biggest
# type have a million).
MIDGAME_ROWS = [
    ("Base+E", 0, 3), ("Base+E", 1, 4), ("Base+J", 0, 4), ("Base+J", 1, 3),
    ("Base+Dx", 0, 3), ("Base+Dx", 1, 3), ("Base+Dx", 3, 4), ("Base+Guardians", 0, 4), ("Base+Guardians", 1, 3),
    ("Base+M+Guardians+Dx", 0, 4), ("Base+M+Guardians+Dx", 1, 3),
    (ALL_FAN, 0, 3), (ALL_FAN, 1, 3), (ALL_FAN, 15, 4),
    ("Base+Guardians+Dx+E+J", 10, 4), ("Base+M+E", 1, 4), ("Base+M+J", 8, 4), ("Base+M+Dx", 0, 4), ("Base+P+Dx", 6, 4),
    # Venom's flips make its positions wide: its depth-3 counts run to millions, so its
    # depth-4 rows are at seeds of a small one and its richest type stops at 3.
    ("Base+Venom", 0, 3), ("Base+Venom", 3, 4), ("Base+LP+Venom", 1, 3), ("Base+LP+Venom", 10, 4),
    ("Base+LP+Venom+Guardians+E+J", 6, 3), ("Base+LP+Venom+Guardians+E+J", 10, 3),
    ("Base+Venom(Placed)", 3, 4), ("Base+LP+Venom(Fixed:FDRYUC)", 11, 4),
    ("Base+Predators", 0, 3), ("Base+Predators", 4, 4), ("Base+MLP+Predators+Guardians+Dx+E+J", 11, 3),
    ("Base+LP+Venom+Predators", 9, 3), ("Base+LP+Venom+Predators", 10, 4),
    # With the Tick: seeds whose first two plies hold mind control (and removals).
    ("Base+M+Venom", 4, 4), ("Base+MLP+Venom", 4, 3), ("Base+MLP+Venom", 9, 3),
    ("Base+MP+Venom+Predators", 7, 4), ("Base+MP+Venom+Predators", 10, 3),
    # The S004 Moth: seeds with both Moths in play but Base+M+Vx 0's.
    ("Base+Vx", 1, 4), ("Base+Vx", 2, 3), ("Base+M+Vx", 0, 3), ("Base+M+Vx", 1, 4),
    ("Base+M+Venom+Vx", 5, 3), ("Base+M+Venom+Vx", 11, 4),
    # The S004 Wasp and Firefly: seeds with a sting or a command among the first moves.
    ("Base+Wx", 0, 4), ("Base+Wx", 5, 3), ("Base+Fx", 7, 4), ("Base+Fx", 8, 3), ("Base+P+Fx", 0, 3),
    ("Base+P+Fx", 4, 4), ("Base+MP+Fx+Wx", 5, 3), ("Base+MP+Fx+Wx", 7, 3),
    # The S004 Mantis: seeds with a removal among the first moves.
    ("Base+Nx", 0, 4), ("Base+Nx", 8, 3), ("Base+M+Nx", 7, 4), ("Base+M+Nx", 1, 3),
    # HoneyCombo: seeds with the Honeycomb light side up, or between the two actions of
    # a double turn (Base+MLP+HoneyCombo 0 and 3, Base+P+HoneyCombo+Wx 0).
    ("Base+HoneyCombo", 2, 4), ("Base+HoneyCombo", 4, 3), ("Base+MLP+HoneyCombo", 3, 4),
    ("Base+MLP+HoneyCombo", 0, 3), ("Base+P+HoneyCombo+Wx", 0, 3), ("Base+P+HoneyCombo+Wx", 3, 4),
    # Swarm: seeds with steals among the moves played, and seeds where a draw is due
    # (Base+Swarm 3, Base+MLP+Swarm 0 and 8, Base+MLP+HoneyCombo+Swarm 3 and 5).
    ("Base+Swarm", 2, 4), ("Base+Swarm", 3, 4), ("Base+Swarm", 4, 4), ("Base+MLP+Swarm", 0, 4),
    ("Base+MLP+Swarm", 3, 4), ("Base+MLP+Swarm", 8, 5), ("Base+MLP+HoneyCombo+Swarm", 1, 4),
    ("Base+MLP+HoneyCombo+Swarm", 3, 4), ("Base+MLP+HoneyCombo+Swarm", 5, 4),
]


def table_rows(start_depth=5, combination_depth=4):
    """The table's positions in its order: (name, game type or GameString, deepest depth)."""
    rows = [(f"{t}_start", t, start_depth) for t in SPEC_PERFT]
    rows += [(f"{t}_start", t, combination_depth) for t in COMBINATIONS]
    rows += [(f"{t}_mid{20 + 4 * seed}", midgame(t, seed), depth) for t, seed, depth in MIDGAME_ROWS]
    return [row for row in rows if row[1] is not None]


def table_lines(row):
    """One position's lines of the table, depths 1 to its deepest (a worker's job)."""
    name, text, depth = row
    position = perft_position(text)
    return [f"{name}\t{text}\t{d}\t{perft(position, d)}" for d in range(1, depth + 1)]


def print_perft_table(argv):
    """`python -m tests.test_reference_fan [--jobs N] [NAME ...]`: the rows of
    tests/data/perft_fan.tsv (only those of the positions named, if any), computed by N
    processes (1 by default), printed in the table's order. About 20 minutes of CPU for
    the whole table; run it under `nice`."""
    import argparse
    from multiprocessing import Pool

    parser = argparse.ArgumentParser(prog="python -m tests.test_reference_fan", description=print_perft_table.__doc__)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("names", nargs="*", help="positions to compute, e.g. Base+E_mid20 (default: all)")
    args = parser.parse_args(argv)
    rows = table_rows()
    known = {name for name, _, _ in rows}
    unknown = [n for n in args.names if n not in known]
    if unknown or args.jobs < 1:
        parser.error(f"no such position: {', '.join(unknown)}" if unknown else "--jobs is at least 1")
    rows = [row for row in rows if not args.names or row[0] in args.names]
    with Pool(args.jobs) as pool:
        for lines in pool.imap(table_lines, rows):  # in the table's order, each as soon as it and those before are done
            print("\n".join(lines), flush=True)

if __name__ == "__main__":
    import sys

    print_perft_table(sys.argv[1:])
