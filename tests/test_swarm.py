"""Swarm (fan-rules.md §11): hands chosen by `choose`, draws from the bag after
each placement, steals, and pieces of the other colour placed by their own
colour's rules; against the spec's example and vectors and the reference."""

import io
import random

import pytest

from engine.game import BLACK, WHITE, Board, axial
from engine.protocol.uhp import Session
from engine.rules.errors import IllegalMoveError
from engine.search.search import Searcher

from .reference import BLACK as BLACK_LETTER
from .reference import Position, perft

EX_S1 = ("Base+Swarm;InProgress;White[2];choose wS1 wB1 wA1;choose bG1 bG2 bA1;wA1;draw bS1;"
         "bG1 wA1-;draw wG1")


@pytest.mark.parametrize("game_type, counts", [
    ("Base+Swarm", [18, 324, 684, 4916]),
    ("Base+MLP+Swarm", [61, 3721, 9455, 110080]),
])
def test_perft_from_the_start_counts_choices_and_draws(game_type, counts):
    """§11 EX-S1 and §12: choose and draw entries are branches (ID-3)."""
    board = Board(game_type)
    assert [board.perft(depth) for depth in range(1, 5)] == counts
    assert [perft(Position(game_type), depth) for depth in range(1, 4)] == counts[:3]


def test_the_reference_counts_depth_four():
    assert perft(Position("Base+Swarm"), 4) == 4916


def test_ex_s1_the_other_colours_piece_goes_by_its_colour():
    """EX-S1: White holds wQ, wS1, wB1 and bS1; bS1 goes on a cell touching bG1
    and not wA1 (SW-2), White's own pieces beside wA1."""
    board = Board.from_game_string(EX_S1)
    assert set(board.hand(WHITE)) == {"wQ", "wS1", "wB1", "bS1"}
    assert set(board.hand(BLACK)) == {"bQ", "bG2", "bA1", "wG1"}
    assert board.game_string().split(";")[2] == "White[2]" and not board.draw_due
    cells = {axial(m.dest) for m in board.legal_moves if m.piece_name == "bS1"}
    assert cells == {(2, 0), (2, -1), (1, 1)}  # bG1 is on (1, 0), wA1 on (0, 0)
    position = Position.from_game_string(EX_S1)
    assert {m[1] for m in position.legal_moves() if m[0] == "bS1"} == cells
    # Pieces of the other colour are never moved by the placer once in play (SW-2).
    board.push_uhp("bS1 bG1-")
    assert board.draw_due and board.game_string().split(";")[2] == "White[2]"


def test_a_draw_takes_the_lowest_copy_and_every_bug_of_the_bag_once():
    board = Board.from_game_string(EX_S1)
    board.push_uhp("wS1 -wA1")
    assert board.draw_due and {m.kind for m in board.legal_moves} == {"draw"}
    draws = sorted(str(m) for m in board.legal_moves)
    assert draws == ["draw bA2", "draw bB1", "draw bG3", "draw bS2", "draw wA2", "draw wB2", "draw wG2",
                     "draw wS2"]
    assert board.bag_kinds() == ["wS2", "wB2", "wG2 x2", "wA2 x2", "bS2", "bB1 x2", "bG3", "bA2 x2"]
    move = board.parse_uhp("draw wA3")  # any copy names the bug: the lowest in the bag goes
    assert str(move) == "draw wA2"
    board.push(move)
    assert "wA2" in board.hand(WHITE) and board.game_string().endswith(";wS1 -wA1;draw wA2")
    assert board.game_string().split(";")[2] == "Black[2]"


def test_steals_need_the_queen_and_never_take_one():
    board = Board.from_game_string(EX_S1)
    assert not [m for m in board.legal_moves if m.kind == "steal"]
    with pytest.raises(IllegalMoveError, match="until you've played your Queen Bee"):
        board.parse_uhp("steal bA1")
    board.push_uhp("wQ -wA1")
    board.push_uhp("draw bS2")
    board.push_uhp("bQ bG1-")
    board.push_uhp("draw bB1")
    steals = sorted(str(m) for m in board.legal_moves if m.kind == "steal")
    assert steals == ["steal bA1", "steal bB1", "steal bG2", "steal wG1"]
    with pytest.raises(IllegalMoveError, match="Queens are never stolen"):
        board.parse_uhp("steal bQ")
    key = board.key
    board.push_uhp("steal wG1")  # a whole turn (SW-4): no draw follows, Black to move
    assert "wG1" in board.hand(WHITE) and not board.draw_due
    assert board.game_string().split(";")[2] == "Black[3]" and board.key == board.computed_key()
    board.pop()
    assert board.key == key


@pytest.mark.parametrize("text, reason", [
    ("draw bS2", "No draw is due"),
    ("choose wS1 wS2 wA1", "chosen at the start"),
    ("wS1 wA1", "You can.t place that piece there"),
    ("bS1 -wA1", "You can't place that piece there"),
    ("steal bQ", "Queens are never stolen"),
])
def test_refusals_say_why(text, reason):
    board = Board.from_game_string(EX_S1)
    game_string = board.game_string()
    with pytest.raises(IllegalMoveError, match=reason):
        board.parse_uhp(text)
    assert board.game_string() == game_string


def test_the_setup_and_a_due_draw_take_nothing_else():
    board = Board("Base+Swarm")
    with pytest.raises(IllegalMoveError, match="begins with the choice of hands"):
        board.parse_uhp("wQ")
    with pytest.raises(IllegalMoveError, match="Queen is always in hand"):
        board.parse_uhp("choose wQ wS1 wA1")
    with pytest.raises(IllegalMoveError, match="White chooses three pieces of its own colour"):
        board.parse_uhp("choose bS1 bA1 bA2")
    with pytest.raises(IllegalMoveError, match="has 2 Spider tiles"):
        board.parse_uhp("choose wS1 wS2 wS1")
    with pytest.raises(IllegalMoveError, match="no choose in Base\\+E"):
        Board("Base+E").parse_uhp("choose wS1 wA1 wA2")
    board.push_uhp("choose wA3 wA2 wA1")  # any order and copies name the same bugs
    assert str(board.peek()) == "choose wA1 wA2 wA3"
    assert board.game_string().split(";")[2] == "Black[1]"
    board.push_uhp("choose bS1 bS2 bB1")
    board.push_uhp("wA1")
    with pytest.raises(IllegalMoveError, match="A draw is due"):
        board.parse_uhp("bS1 wA1-")


def place(board, name):
    """Play the first legal placement of `name`."""
    board.push(next(m for m in board.legal_moves if m.kind == "place" and m.piece_name == name))


def draw(board):
    board.push(next(m for m in board.legal_moves if m.kind == "draw"))


def test_a_double_turns_draw_comes_between_its_actions():
    """HC-4 with SW-3: the draw after the first action comes before the second;
    the TurnString stays until the second is played."""
    board = Board("Base+HoneyCombo+Swarm")
    board.push_uhp("choose wS1 wB1 wA1")
    board.push_uhp("choose bS1 bB1 bA1")
    for name in ("wS1", "bS1", "wQ", "bQ"):
        place(board, name)
        draw(board)
    board.push_uhp("nH ~")
    place(board, "bA1")
    draw(board)
    assert board.double_turn == WHITE and board.game_string().split(";")[2] == "White[4]"
    place(board, "wA1")
    assert board.draw_due and board.game_string().split(";")[2] == "White[4]"
    draw(board)
    assert board.second_action_due and board.game_string().split(";")[2] == "White[4]"
    place(board, "wB1")
    draw(board)
    assert not board.second_action_due and board.double_turn is None
    assert board.game_string().split(";")[2] == "Black[4]" and board.key == board.computed_key()
    position = Position.from_game_string(board.game_string())
    assert position.to_move == BLACK_LETTER and position.light is None and not position.second


def test_random_games_agree_with_the_reference_and_keys_hold():
    """Seeded random games of Swarm types: the reference's moves and hands at
    every entry, and the incremental key the computed one."""
    from .test_reference import play_and_compare

    for game_type in ("Base+Swarm", "Base+MLP+Venom+Swarm", "Base+Predators+Guardians+Swarm+E"):
        assert sum(play_and_compare(game_type, seed, 160) for seed in range(3)) > 150
    rng = random.Random(3)
    board = Board("Base+MLP+HoneyCombo+Swarm+Wx")
    while board.legal_moves and board.ply < 200:
        board.push(rng.choice(board.legal_moves))
        assert board.key == board.computed_key(), board.game_string()


def test_the_search_weighs_draws_and_refuses_to_pick_one():
    board = Board.from_game_string(EX_S1)
    searcher = Searcher()
    result = searcher.search(board, depth=2)
    assert result.move in board.legal_moves
    board.push(result.move)
    if board.draw_due:
        with pytest.raises(ValueError, match="draw is due"):
            searcher.search(board, depth=1)


def test_the_evaluation_counts_a_held_piece_for_its_holder():
    """A piece of either colour in a side's hand is that side's to place (SW-2):
    while the bag holds pieces it counts W_HELD_WHILE_DRAWING for its holder (a
    draw refills a hand), so a steal moves one from side to side; a piece in the
    bag counts for nobody; once the bag is empty, the hands count by bug."""
    from engine.rules.board import AWAY_HAND
    from engine.rules.bugs import COLOURED_PIECES, NUM_BUGS, PIECES
    from engine.search.evaluate import W_HELD_WHILE_DRAWING, W_IN_HAND, board_features

    board = Board.from_game_string(EX_S1)
    for text in ("wQ -wA1", "draw bS2", "bQ bG1-", "draw bB1"):
        board.push_uhp(text)
    held = board_features(board)
    assert held[W_HELD_WHILE_DRAWING] == len(board.hand(WHITE)) - len(board.hand(BLACK))
    assert not held[W_IN_HAND:W_IN_HAND + NUM_BUGS].any()
    board.push_uhp("steal wG1")  # White takes wG1, which Black drew, from Black's hand
    assert board_features(board)[W_HELD_WHILE_DRAWING] == held[W_HELD_WHILE_DRAWING] + 2

    # The bag emptied into the owners' hands (a position built directly): by bug and holder.
    board.state.away[[p for p in range(COLOURED_PIECES) if board.in_bag(p)]] = AWAY_HAND
    expected = [0] * NUM_BUGS
    for piece in range(COLOURED_PIECES):
        for color, sign in ((WHITE, 1), (BLACK, -1)):
            if board.in_hand(piece, color):
                expected[PIECES[piece][1]] += sign
    features = board_features(board)
    assert features[W_HELD_WHILE_DRAWING] == 0 and features[W_IN_HAND:W_IN_HAND + NUM_BUGS].tolist() == expected
    assert any(PIECES[p][0] != 0 and board.in_hand(p, WHITE) for p in range(COLOURED_PIECES))  # bS1, bS2 White's


# From an arena game (2026-12-08): Black's Queen in danger, a depth-1 search whose
# Queen-in-danger extensions began anew below every draw and did not end.
EXTENDED_THROUGH_DRAWS = ('Base+Swarm;InProgress;Black[9];choose wG1 wG2 wA1;choose bB1 bG1 bA1;wG1;draw wB1;bA1 wG1\\;draw wS1;'
                          'wQ wG1/;draw wA2;wS1 \\wQ;draw bS1;wS1 wQ\\;bB1 bA1\\;draw bG2;wG2 wS1/;draw bG3;bQ /bA1;draw bA2;wG2 /'
                          'bQ;bB1 bA1;wB1 wG2\\;draw wG3;bA2 bB1\\;draw wA3;wB1 bQ\\;bA2 wQ/;wA1 wG2\\;draw wB2;bB1 wG1;wA1 -bQ'
                          '')


def test_extensions_through_draws_are_bounded():
    board = Board.from_game_string(EXTENDED_THROUGH_DRAWS)
    result = Searcher().search(board, depth=1)
    assert result.move in board.legal_moves and result.nodes < 10_000


def session(*lines):
    out = io.StringIO()
    uhp = Session(out)
    for line in lines:
        uhp.handle(line)
    return out.getvalue().split("ok\n")[:-1]


def test_a_uhp_client_drives_a_swarm_game():
    """README's recipe: the client sends both choices, and a draw after each
    placement; bestmove answers err while a draw is due."""
    answers = session("options set FanBugs True", "newgame Base+Swarm", "validmoves", "play choose wS1 wB1 wA1",
                      "play choose bG1 bG2 bA1", "bestmove depth 1", "play wA1", "bestmove depth 1", "validmoves",
                      "play draw bS2", "undo 2")
    assert answers[1] == "Base+Swarm;NotStarted;White[1]\n"
    assert len(answers[2].strip().split(";")) == 18
    assert answers[5].strip() in {"wS1", "wB1", "wA1"}
    assert answers[7].startswith("err A draw is due")
    assert answers[8].strip() == "draw wS2;draw wB2;draw wG1;draw wA2;draw bS1;draw bB1;draw bG3;draw bA2"
    assert answers[9].endswith(";wA1;draw bS1\n") and "Black[1]" in answers[9]
    assert answers[10] == "Base+Swarm;InProgress;White[1];choose wS1 wB1 wA1;choose bG1 bG2 bA1\n"
