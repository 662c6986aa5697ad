"""What Board reports about a position: the outcome and why, a Queen's filled
neighbours, the cells to place on, the pieces in play."""

import warnings

import pytest

from engine.rules.constants import IN_PROGRESS, WHITE_WINS
from engine.rules.errors import IllegalMoveError
from engine.game import (
    BLACK,
    BOTH_QUEENS_SURROUNDED,
    PLY_LIMIT,
    QUEEN_SURROUNDED,
    REPETITION,
    WHITE,
    Board,
    Move,
    Outcome,
    axial,
    side_color,
    side_index,
)
from engine.rules.bugs import PIECE_NAMES
from engine.rules.notation import piece_name

from .conftest import read_nokamute_cases

NOKAMUTE = {title: game_string for title, game_string, _ in read_nokamute_cases()}
# White moves its Ant into the last cell around its own Queen (a random game).
WHITE_SUICIDE = ("Base;BlackWins;Black[10];wG1;bG1 \\wG1;wQ wG1\\;bA1 \\bG1;wS1 wQ/;bG2 bA1/;wA1 /wG1;bQ -bG2;"
                 "wB1 wQ\\;bG3 -bQ;wA2 wB1\\;bB1 /bA1;wA2 bG3\\;bA2 \\bG2;wA3 wS1-;bA3 bG2\\;wG2 wA1\\;bA3 bA2/;"
                 "wA2 wS1\\")


@pytest.mark.parametrize("game_string,repetition_draw,outcome,result", [
    (NOKAMUTE["White wins"], False, Outcome(WHITE, QUEEN_SURROUNDED), "1-0"),
    (NOKAMUTE["Black suicide"], False, Outcome(WHITE, QUEEN_SURROUNDED), "1-0"),
    (WHITE_SUICIDE, False, Outcome(BLACK, QUEEN_SURROUNDED), "0-1"),
    (NOKAMUTE["Draw"], False, Outcome(None, BOTH_QUEENS_SURROUNDED), "1/2-1/2"),
    (NOKAMUTE["Draw by threefold repetition"], True, Outcome(None, REPETITION), "1/2-1/2"),
], ids=["white wins", "black suicide", "white suicide", "both queens", "repetition"])
def test_the_outcome_of_a_finished_game(game_string, repetition_draw, outcome, result):
    board = Board.from_game_string(game_string, repetition_draw=repetition_draw)
    assert board.game_string().split(";")[1] == game_string.split(";")[1]
    assert board.outcome() == outcome
    assert board.outcome().result() == result
    assert board.outcome(max_plies=1) == outcome  # the rules come before the adjudication


def test_a_game_in_progress_has_no_outcome_until_the_ply_limit():
    board = Board.from_game_string(NOKAMUTE["Draw by threefold repetition"])  # no repetition rule
    assert board.outcome() is None
    assert board.outcome(max_plies=board.ply + 1) is None
    assert board.outcome(max_plies=board.ply) == Outcome(None, PLY_LIMIT)
    assert Board().outcome(max_plies=0).result() == "1/2-1/2"


def test_a_caller_may_adjudicate_with_its_own_termination():
    assert Outcome(BLACK, "time forfeit").result() == "0-1"


def test_queen_neighbours_count_the_filled_cells_around_each_queen():
    board = Board.from_game_string(NOKAMUTE["White wins"])
    assert (board.queen_neighbours(WHITE), board.queen_neighbours(BLACK)) == (4, 6)
    board = Board.from_game_string("Base;InProgress;White[2];wS1;bS1 wS1-")
    assert (board.queen_neighbours(WHITE), board.queen_neighbours(BLACK)) == (None, None)
    board.push_uhp("wQ -wS1")
    assert board.queen_neighbours(WHITE) == 1


def test_placement_cells_for_either_side():
    board = Board("Base")
    assert [axial(cell) for cell in board.placement_cells(WHITE)] == [(0, 0)]
    board.push_uhp("wS1")
    assert len(board.placement_cells(BLACK)) == 6
    board.push_uhp("bS1 wS1-")
    # wS1 at the origin, bS1 east of it: each side may place on the three cells
    # on its own side that touch no enemy piece.
    white, black = (sorted(axial(cell) for cell in board.placement_cells(color)) for color in (WHITE, BLACK))
    assert len(white) == len(black) == 3
    assert all(q <= 0 for q, _ in white) and all(q >= 1 for q, _ in black)


def test_pieces_in_play_with_their_cells_and_levels():
    board = Board.from_game_string("Base;InProgress;Black[4];wS1;bS1 wS1-;wB1 -wS1;bQ bS1-;wQ wB1\\;bA1 bQ-;wB1 wS1")
    assert [(piece_name(piece), axial(cell), level) for piece, cell, level in board.pieces_in_play()] == [
        ("wQ", (-1, 1), 0), ("wS1", (0, 0), 0), ("wB1", (0, 0), 1), ("bQ", (2, 0), 0), ("bS1", (1, 0), 0),
        ("bA1", (3, 0), 0)]


# Black's Pillbug (bP) has just thrown White's Pillbug from (0, 0) over itself onto
# (1, -2). White may not move it on this turn, though it could slide to either *
# (rules.md, "Pillbug"). Drawn by tests/reference.draw:
#                  .     .
#         .     *     wP    *
#      .    bS1    bP    wQ    .
#   .     bQ    .     .    wB1    .
#      .     .           .     .
THROWN = "Base+P;InProgress;White[5];wP;bP \\wP;wQ wP\\;bS1 -bP;wQ wP/;bQ /bS1;wB1 wQ\\;wP \\wQ"
FOURTH_TURN = "Base;InProgress;White[4];wS1;bS1 wS1-;wB1 \\wS1;bB1 bS1/;wG1 /wS1;bG1 bS1\\"
PILLBUG_MOVED_IT = "You can't move that piece because the opponent's pillbug moved it last turn."


@pytest.mark.parametrize("game_string,move_string,reason", [
    (THROWN, "wP \\bP", PILLBUG_MOVED_IT),
    (THROWN, "wP wQ/", PILLBUG_MOVED_IT),
    (FOURTH_TURN, "wB1 wS1", "You must play your Queen Bee on or before your fourth turn."),
    (FOURTH_TURN, "wS2 /wG1", "You must play your Queen Bee on or before your fourth turn."),
    ("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-", "wQ bQ-", "You can't move that piece there."),
    ("Base;InProgress;White[2];wS1;bS1 wS1-", "wQ bS1-", "You can't place that piece there."),
    ("Base;NotStarted;White[1]", "wQ", "You can't play your Queen Bee on your first turn."),
    ("Base;InProgress;Black[1];wS1", "bS2 wS1-",
     "When there are multiple pieces of the same bug type, you must play the pieces in order."),
], ids=["thrown", "thrown, other cell", "fourth turn, a move", "fourth turn, a placement", "too far",
        "next to the enemy", "Queen first", "copies in order"])
def test_illegal_moves_beyond_mzingas_file_say_why(game_string, move_string, reason):
    """The reasons Mzinga's invalid-move file does not exercise (test_movegen.py
    checks that file), read off the generator's own rules."""
    board = Board.from_game_string(game_string)
    with pytest.raises(IllegalMoveError) as error:
        board.parse_uhp(move_string)
    assert str(error.value) == reason


def test_a_thrown_piece_has_no_move_and_nothing_else_holds_it():
    board = Board.from_game_string(THROWN)
    thrown = board.last_moved
    assert piece_name(thrown) == "wP" and not board.is_game_over()
    assert [m for m in board.legal_moves if m.piece == thrown] == []
    assert (thrown, 0) in [(p, level) for p, _, level in board.pieces_in_play()]  # alone on the ground
    # One ply on (White places, Black moves its Queen), it moves again.
    board.push_uhp("wA1 wB1\\")
    board.push_uhp("bQ -bS1")
    assert {board.uhp(m) for m in board.legal_moves if m.piece == thrown} >= {"wP \\bP", "wP wQ/"}


def test_the_queen_may_come_first_when_allowed():
    board = Board("Base", queen_first=True)
    assert board.parse_uhp("wQ").kind == "place"
    with pytest.raises(IllegalMoveError, match="first turn"):
        Board("Base").parse_uhp("wQ")


def long_game(plies, seed=1):
    """A Base game `plies` plies long that no move has ended: random moves, each
    taken back and replaced when it would end the game."""
    import random

    board = Board("Base")
    rng = random.Random(seed)
    while board.ply < plies:
        moves = board.legal_moves
        rng.shuffle(moves)
        for move in moves:
            board.push(move)
            if not board.is_game_over():
                break
            board.pop()
    return board


def test_a_game_may_last_max_game_plies_and_the_protocol_says_so():
    import io

    from engine.rules.constants import MAX_GAME_PLIES
    from engine.protocol.uhp import Session

    board = long_game(MAX_GAME_PLIES - 1)
    out = io.StringIO()
    session = Session(out)
    session.handle("newgame " + board.game_string())
    session.handle("bestmove depth 3")  # its principal variation runs past the limit
    move = out.getvalue().splitlines()[-2]
    board.push_uhp(move)
    assert board.ply == MAX_GAME_PLIES
    with pytest.raises(IllegalMoveError, match=f"at most {MAX_GAME_PLIES} plies"):
        board.push(board.legal_moves[0])
    session.handle("play " + move)
    session.handle("play " + board.uhp(board.legal_moves[0]))
    assert out.getvalue().splitlines()[-2] == f"invalidmove A game may last at most {MAX_GAME_PLIES} plies."


# --- The python-chess shape: turn, peek, pieces by name, equality, errors -------------
OPENING = "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-"


def test_turn_peek_and_pop_name_the_moves():
    board = Board.from_game_string(OPENING)
    assert (board.turn, board.turn_number) == (WHITE, 3)
    assert str(board.peek()) == "bQ bS1-" and repr(board.peek()) == "Move(bQ bS1-)"
    assert [str(move) for move in board.move_history] == ["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-"]
    played = board.push_uhp("WA1 /WQ")
    assert str(played) == "wA1 /wQ" and board.peek() == played and board.turn == BLACK
    assert str(board.pop()) == "wA1 /wQ" and board.turn == WHITE
    with pytest.raises(IndexError, match="no moves"):
        Board().peek()
    with pytest.raises(IndexError, match="no moves"):
        Board().pop()


def test_colours_are_python_chess_bools_so_turn_is_true_for_white():
    """Issue 29: WHITE was 0, so `if board.turn:` was true for Black."""
    assert WHITE is True and BLACK is False
    board = Board.from_game_string(OPENING)
    assert board.turn is WHITE and board.side_to_move == 0
    board.push_uhp("wA1 /wQ")
    assert board.turn is BLACK and board.side_to_move == 1
    assert [side_index(color) for color in (WHITE, BLACK)] == [0, 1] and [side_color(0), side_color(1)] == [WHITE, BLACK]
    assert Board.from_game_string(NOKAMUTE["White wins"]).outcome().winner is WHITE
    assert Board.from_game_string(WHITE_SUICIDE).outcome().winner is BLACK
    assert Board.from_stacks("Base", {(0, 0): ["wQ"], (1, 0): ["bQ"]}, to_move=BLACK).game_string() == "Base;InProgress;Black[5]"


def test_the_old_colours_0_and_1_are_read_with_a_deprecation_warning():
    board = Board.from_game_string(NOKAMUTE["White wins"])
    for old, color in ((0, WHITE), (1, BLACK)):
        with pytest.warns(DeprecationWarning, match="colours are WHITE \\(True\\) and BLACK \\(False\\)") as caught:
            assert board.hand(old) == board.hand(color)
            assert board.queen_neighbours(old) == board.queen_neighbours(color)
            assert board.placement_cells(old) == board.placement_cells(color)
            assert Outcome(old, QUEEN_SURROUNDED) == Outcome(color, QUEEN_SURROUNDED)
        assert {warning.filename for warning in caught} == {__file__}  # the caller's line, not the engine's
    with pytest.warns(DeprecationWarning):
        assert Board.from_stacks("Base", {(0, 0): ["wQ"]}, to_move=1).turn is BLACK


def test_is_game_over_and_result_are_methods_and_the_old_properties_warn():
    """Issue 29: python-chess has `is_game_over()` and `result()`, Board had
    properties; read without the call they still give the old values, warning."""
    playing, won = Board.from_game_string(OPENING), Board.from_game_string(NOKAMUTE["White wins"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert (playing.is_game_over(), playing.result()) == (False, "*")
        assert (won.is_game_over(), won.result()) == (True, "1-0")
    with pytest.warns(DeprecationWarning, match="board.is_game_over\\(\\), as python-chess's"):
        assert not playing.is_game_over
    with pytest.warns(DeprecationWarning):
        assert won.is_game_over and won.is_game_over == True  # noqa: E712
    with pytest.warns(DeprecationWarning, match="board.result\\(\\)"):
        assert won.result == WHITE_WINS and playing.result == IN_PROGRESS and int(won.result) == WHITE_WINS


def test_a_listed_move_prints_as_the_board_names_it_even_after_the_board_moves_on():
    board = Board.from_game_string(NOKAMUTE["White wins"]).copy()
    board.pop()
    moves = board.legal_moves
    names = [board.uhp(move) for move in moves]
    board.push(moves[0])
    assert [str(move) for move in moves] == names
    assert repr(moves[1]) == f"Move({names[1]})"
    assert [str(move) for move in Board().legal_moves] == ["wS1", "wB1", "wG1", "wA1"]


def test_a_move_built_from_its_code_alone_shows_piece_and_place():
    move = Board("Base").legal_moves[0]
    bare = type(move)(int(move))
    assert bare == move and hash(bare) == hash(move)
    assert str(bare) == f"{piece_name(move.piece)} to (0, 0)" and str(bare.__class__.place(0, move.dest)) == "wQ to (0, 0)"
    assert bare.piece_name == piece_name(move.piece)


def test_pieces_by_name():
    board = Board.from_game_string("Base;InProgress;Black[4];wS1;bS1 wS1-;wB1 -wS1;bQ bS1-;wQ wB1\\;bA1 bQ-;wB1 wS1")
    assert board.locate("wB1") == board.locate("WS1") == (0, 0) and board.locate("wA1") is None
    assert board.piece_at((0, 0)) == "wB1" and board.stack_at((0, 0)) == ("wS1", "wB1")
    assert board.piece_at((5, 5)) is None and board.stack_at((5, 5)) == ()
    assert board.stacks() == {(0, 0): ("wS1", "wB1"), (1, 0): ("bS1",), (2, 0): ("bQ",), (3, 0): ("bA1",),
                              (-1, 1): ("wQ",)}
    assert board.hand(WHITE) == ["wS2", "wB2", "wG1", "wG2", "wG3", "wA1", "wA2", "wA3"]
    assert board.hand(BLACK)[:3] == ["bS2", "bB1", "bB2"]
    assert Board("Base+MLP").hand(BLACK)[-3:] == ["bM", "bL", "bP"]


def test_boards_are_equal_and_hash_alike_by_position_not_by_history():
    head = "Base;InProgress;White[1];wS1;bS1 wS1-;wQ -wS1;bQ bS1-"
    one = Board.from_game_string(head + ";wG1 -wQ;bG1 bQ-;wA1 /wQ;bA1 bG1-;wB1 \\wQ")
    two = Board.from_game_string(head + ";wA1 /wQ;bG1 bQ-;wG1 -wQ;bA1 bG1-;wB1 \\wQ")
    assert one.move_history != two.move_history
    assert one == two and hash(one) == hash(two) and len({one, two, one.copy()}) == 1
    assert one != Board.from_game_string(one.game_string(), repetition_draw=True)  # another rule set
    assert one != Board.from_game_string(head + ";wG1 -wQ;bG1 bQ-;wA1 /wQ;bA1 bG1-")  # another ply
    one.pop()
    assert one != two and one.copy() == one


def test_swapped_copies_of_a_bug_share_a_key_but_not_equality():
    one = Board.from_game_string("Base;InProgress;White[3];wA1;bA1 wA1-;wA2 -wA1;bA2 bA1-")
    two = one.copy()
    s = two.state
    c1, c2 = s.piece_cell[8], s.piece_cell[9]  # wA1, wA2
    s.piece_cell[8], s.piece_cell[9] = c2, c1
    s.stack[c1, 0], s.stack[c2, 0] = 9, 8
    assert two.computed_key() == one.key and two != one


@pytest.mark.parametrize("call, error, message", [
    (lambda b: b.push("wS1"), TypeError, r"push\(\) takes a Move, not the string 'wS1'.*push_uhp\('wS1'\)"),
    (lambda b: b.push(None), TypeError, "push\\(\\) takes a Move, not NoneType"),
    (lambda b: b.push(1.5), TypeError, "not float"),
    (lambda b: b.push(True), TypeError, "not bool"),
    (lambda b: b.push(12345), IllegalMoveError, "."),
    (lambda b: b.is_legal("wS1"), TypeError, "is_legal"),
    (lambda b: b.uhp([1]), TypeError, "uhp\\(\\) takes a Move, not list"),
    (lambda b: b.parse_uhp(3), TypeError, "MoveString"),
    (lambda b: b.push_uhp(None), TypeError, "MoveString"),
    (lambda b: b.perft("3"), TypeError, "depth"),
    (lambda b: b.perft(-1), ValueError, "0 or more"),
    (lambda b: b.hand("w"), TypeError, "WHITE \\(True\\) or BLACK \\(False\\)"),
    (lambda b: b.hand(2), ValueError, "WHITE \\(True\\) or BLACK \\(False\\), not 2"),
    (lambda b: b.piece_at("a1"), TypeError, "axial \\(q, r\\)"),
    (lambda b: b.stack_at((0, 0.5)), TypeError, "axial \\(q, r\\)"),
    (lambda b: b.locate(3), TypeError, "'wS1'"),
    (lambda b: b.locate("wX"), ValueError, "Unknown piece 'wX'"),
    (lambda b: b.locate("wZ"), ValueError, "wZ is not a piece of Base"),
    (lambda b: Board(None), TypeError, "GameTypeString"),
    (lambda b: Board("Base+X"), ValueError, "Unknown game type"),
    (lambda b: Board.from_game_string(None), TypeError, "GameString is a string"),
], ids=lambda x: x if isinstance(x, str) else "")
def test_wrong_arguments_get_a_clear_error(call, error, message):
    with pytest.raises(error, match=message):
        call(Board("Base"))


def test_the_library_takes_axial_places_and_names_where_a_user_would_pass_them():
    """Issue 29, item 8: Move.place/move take a piece name and an axial pair,
    cell_of takes the pair axial() returns, move_stack is python-chess's name,
    and a wrong argument is a TypeError that says what is wanted."""
    from engine.game import cell_of

    board = Board("Base")
    assert Move.place("wS1", (0, 0)) == Move.place(PIECE_NAMES.index("wS1"), cell_of(0, 0))
    assert board.push(Move.place("wS1", (0, 0))) == board.move_stack[-1] == board.move_history[-1]
    assert cell_of(axial(cell_of(3, -2))) == cell_of(3, -2) and axial(cell_of((3, -2))) == (3, -2)
    assert str(Move.move("bB1", (1, 0))) == "bB1 to (1, 0)"
    for piece, dest in (("wS1", "0,0"), (2.5, (0, 0)), (True, (0, 0)), ("wS1", (0.5, 1))):
        with pytest.raises(TypeError, match="a (piece|destination|place)"):
            Move.place(piece, dest)
