"""UHP strings: parsing, printing, equivalent references, and clear rejections."""

import pytest

from engine.rules.errors import IllegalMoveError, NotationError
from engine.game import PASS, Board
from engine.rules.hexgrid import neighbor
from engine.rules.notation import (
    GAME_TYPES,
    format_game_type,
    format_turn,
    normalize_move_string,
    parse_game_string,
    parse_game_type,
    parse_move_text,
    parse_piece,
    piece_name,
)

from .conftest import read_nokamute_cases, read_rows


@pytest.mark.parametrize("text,canonical", [
    ("Base", "Base"), ("base", "Base"), ("Base+M", "Base+M"), ("Base+PLM", "Base+MLP"),
    ("BASE+lp", "Base+LP"), ("Base+PM", "Base+MP"), (" Base+LM ", "Base+ML"),
])
def test_game_type_any_letter_order_prints_canonical(text, canonical):
    assert format_game_type(parse_game_type(text)) == canonical


def test_all_eight_game_types_round_trip():
    assert len(set(GAME_TYPES)) == 8
    for game_type in GAME_TYPES:
        assert format_game_type(parse_game_type(game_type)) == game_type


@pytest.mark.parametrize("text", ["", "Base+", "Base+X", "Base+MM", "Advanced", "Base+M+L", "Base MLP"])
def test_bad_game_types_are_rejected(text):
    with pytest.raises(NotationError, match="game type"):
        parse_game_type(text)


@pytest.mark.parametrize("plies,turn", [(0, "White[1]"), (1, "Black[1]"), (2, "White[2]"), (7, "Black[4]")])
def test_turn_string(plies, turn):
    assert format_turn(plies) == turn


@pytest.mark.parametrize("text", [
    "Base", "Base;InProgress", "Base;Running;White[1]", "Base;InProgress;Red[1]",
    "Base;InProgress;White[x]", "Base;InProgress;White[1];;wS1", "Foo;NotStarted;White[1]",
])
def test_bad_game_strings_are_rejected(text):
    with pytest.raises(NotationError):
        parse_game_string(text)


@pytest.mark.parametrize("text,normal", [
    ("WB1 -WA1", "wB1 -wA1"), ("wq  wS1\\", "wQ wS1\\"), (" PASS ", "pass"), ("bm", "bM"),
    ("wB1 bQ", "wB1 bQ"), ("wA2 /bG3", "wA2 /bG3"), ("wS1 bS2/", "wS1 bS2/"),
])
def test_move_strings_normalize_to_canonical_case(text, normal):
    assert normalize_move_string(text) == normal


@pytest.mark.parametrize("text", [
    "", "wX1", "wQ1", "wS3", "wA", "wS1 -bQ-", "wS1 bQ wG1", "wS1 *bQ", "w", "wS1 bQ+", "hello world",
])
def test_malformed_move_strings_are_rejected_with_a_reason(text):
    with pytest.raises(NotationError) as error:
        parse_move_text(text)
    assert str(error.value)


def test_game_string_round_trip_over_random_positions():
    """Loading a GameString and printing it again gives the same moves in the
    same notation, and re-printing every move with our references reloads to
    the same position."""
    for game_string, _, _ in read_rows("validmoves_random.tsv")[::25]:
        board = Board.from_game_string(game_string)
        assert board.game_string().split(";")[3:] == game_string.split(";")[3:]
        replay = Board(board.game_type)
        for move in board.move_history:
            replay.push(move)
        reloaded = Board.from_game_string(replay.game_string())
        assert reloaded == board
        assert reloaded.key == board.key
        assert eval(repr(board)) == board


def test_every_reference_naming_the_destination_is_the_same_move():
    """wS1 can reach the cell east of bS1 by naming any piece next to that cell,
    with the mark that points from that piece to the cell, or itself."""
    board = Board.from_game_string("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-")
    move = board.parse_uhp("wQ \\wS1")
    # The cell north-west of wS1 is also north-east of wQ and west of... nothing else.
    assert board.parse_uhp("wQ wQ/") == move
    assert board.parse_uhp("WQ \\WS1") == move
    assert move in board.legal_moves


def test_reference_to_the_moving_piece_is_resolved_before_it_moves():
    board = Board.from_game_string("Base;InProgress;White[3];wG1;bG1 wG1-;wQ -wG1;bQ bG1-")
    assert board.parse_uhp("wQ wQ\\") == board.parse_uhp("wQ /wG1")


def test_beetle_climb_uses_the_bare_name_of_the_top_piece():
    game_string = next(gs for title, gs, _ in read_nokamute_cases() if title == "Beetle moves")
    board = Board.from_game_string(game_string)
    climb = board.parse_uhp("wB1 bB1")
    assert climb in board.legal_moves
    assert board.uhp(climb) == "wB1 bB1"
    # The same cell written as a ground cell next to any of its neighbours is refused.
    target = board.piece_cell(parse_piece("bB1"))
    for direction, mark in enumerate(["\\", "/", "-", "\\", "/", "-"]):
        reference = board.top_piece(neighbor(target, (direction + 3) % 6))
        if reference < 0:
            continue
        text = f"wB1 {mark}{piece_name(reference)}" if direction in (0, 4, 5) else f"wB1 {piece_name(reference)}{mark}"
        with pytest.raises(IllegalMoveError, match="already exists"):
            board.parse_uhp(text)
    board.push(climb)
    with pytest.raises(IllegalMoveError, match="already exists"):
        board.parse_uhp("bB2 bB1")  # bB1 is covered now: its top is taken


def test_reference_in_hand_is_an_invalid_move():
    board = Board.from_game_string("Base;InProgress;White[2];wS1;bS1 wS1-")
    with pytest.raises(IllegalMoveError, match="not in play"):
        board.parse_uhp("wQ bQ-")


def test_a_piece_alone_names_the_origin_after_the_first_move_too():
    """uhp.md's example session: `play wQ` on turn 2 is refused because the
    origin is taken; once the origin is empty the usual placement rule speaks."""
    board = Board.from_game_string("Base;InProgress;White[2];wS1;bS1 wS1-")
    with pytest.raises(IllegalMoveError, match="already exists at that position"):
        board.parse_uhp("wQ")
    board = Board.from_game_string(
        "Base+LP;InProgress;Black[10];wS1;bB1 wS1\\;wS2 -wS1;bL /bB1;wQ /wS2;bB2 bL\\;wQ wS2\\;bQ bB1-;wL wS1/;"
        "bA1 /bL;wB1 -wS2;bG1 bA1\\;wL bB1\\;bA1 -wB1;wL /wQ;bG2 \\bA1;wS1 \\wB1;bA2 -bG2;wG1 \\wS2"
    )  # wS1 has left the origin; bA1 can run there
    move = board.parse_uhp("bA1")
    assert move in board.legal_moves
    assert board.parse_uhp(board.uhp(move)) == move


def test_a_piece_alone_on_the_taken_origin_is_told_to_name_a_reference_piece():
    """Issue 29: `play wQ` after the first move said only that the place is
    taken. It keeps uhp.md's reason and says how a later move is written, with
    a legal one as the example; a reference that names a taken place (or a
    piece that cannot be placed) gets MzingaEngine's reason alone."""
    board = Board.from_game_string("Base+MLP;InProgress;White[2];wG1;bL /wG1")
    with pytest.raises(IllegalMoveError) as refused:
        board.parse_uhp("wQ")
    assert str(refused.value) == (
        "You can't move there because a piece already exists at that position. Only the first piece is "
        "played by its name alone; after it a MoveString names a reference piece, as 'wQ \\wG1'."
    )
    with pytest.raises(IllegalMoveError) as refused:
        board.parse_uhp("wQ bL/")  # the place of wG1
    assert str(refused.value) == "You can't move there because a piece already exists at that position."
    with pytest.raises(IllegalMoveError) as refused:
        board.parse_uhp("bQ")
    assert str(refused.value) == "It's not that player's turn."


def test_pass_is_parsed_in_any_case_but_only_legal_when_forced():
    board = Board("Base")
    with pytest.raises(IllegalMoveError, match="valid moves"):
        board.parse_uhp("PASS")
    assert board.uhp(PASS) == "pass"


def test_loading_a_bad_game_string_names_the_move():
    with pytest.raises(IllegalMoveError, match=r"Move 2 'wQ wS1-'"):
        Board.from_game_string("Base;InProgress;White[2];wS1;wQ wS1-")
    with pytest.raises(NotationError, match=r"Move 1 'wZ'"):
        Board.from_game_string("Base;InProgress;White[1];wZ")


def test_queen_on_the_first_turn_needs_the_option():
    game = "Base;InProgress;White[2];wQ;bQ wQ-"
    with pytest.raises(IllegalMoveError, match="first turn"):
        Board.from_game_string(game)
    board = Board.from_game_string(game, queen_first=True)
    assert board.ply == 2
    assert any(board.uhp(m).startswith("wQ ") for m in board.legal_moves)


def test_state_and_turn_fields_are_recomputed():
    board = Board.from_game_string("Base;NotStarted;Black[1];wS1")
    assert board.game_string() == "Base;InProgress;Black[1];wS1"
    board = Board.from_game_string("base+mlp;notstarted;white[1]")
    assert board.game_string() == "Base+MLP;NotStarted;White[1]"
