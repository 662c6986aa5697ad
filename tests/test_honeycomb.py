"""HoneyCombo (fan-rules.md §10): the neutral Honeycomb and the double turn it gives.

The spec's examples (EX-H1, EX-H2) against the engine and the plain-Python reference,
and positions of ours: what the Honeycomb allows and refuses (HC-3, HC-4, IM-2), the
statuses of a double turn (ST-2, HC-5), make/unmake over the new entries, and the
search treating the second action as the same side's (a side that moves twice is not
a colour change). The differential test (test_reference.py) plays every HoneyCombo
game type against the reference as well.
"""

import random

import pytest

from engine.game import Board, axial
from engine.rules.board import compute_key
from engine.colors import WHITE
from engine.rules.bugs import HONEYCOMB_ID
from engine.rules.constants import INFO_HONEYCOMB, INFO_KEY, INFO_PHASE, PHASE_SECOND
from engine.rules.errors import IllegalMoveError
from engine.search.search import MATE, Searcher

from .reference import Position
from .test_fan import session_answers
from .test_reference import engine_moves, engine_statuses, reference_statuses

# EX-H2 (one line in the spec): White is between the two actions of its fourth turn.
EX_H2 = ("Base+HoneyCombo;InProgress;White[4];wA1 nH-;bA1 -nH;wQ wA1-;bQ -bA1;nH ~;bG1 -bQ;wG1 wQ-")


def both(game_string):
    """The engine's board and the reference's position of one GameString."""
    return Board.from_game_string(game_string), Position.from_game_string(game_string)


def test_ex_h1_perft_from_the_start():
    board = Board("Base+HoneyCombo")
    assert [board.perft(depth) for depth in (1, 2, 3, 4)] == [24, 768, 19200, 408000]


def test_ex_h1_white_places_by_the_honeycomb_and_black_anywhere_by_the_hive():
    """G-6 with the Honeycomb (HC-3): White's first piece on one of its six
    neighbours, Black's on the 8 cells touching wA1 or nH, 4 bugs each."""
    board, position = both("Base+HoneyCombo;NotStarted;White[1]")
    assert {str(m) for m in board.legal_moves if m.piece == board.parse_uhp("wA1 nH-").piece} == {
        "wA1 nH-", "wA1 nH/", "wA1 \\nH", "wA1 -nH", "wA1 /nH", "wA1 nH\\"}
    board, position = both("Base+HoneyCombo;InProgress;Black[1];wA1 nH-")
    moves = engine_moves(board)
    assert moves == position.legal_moves() and len(moves) == 32
    assert {cell for _, cell in moves} == {(0, -1), (1, -1), (-1, 0), (-1, 1), (0, 1), (2, -1), (2, 0), (1, 1)}


def test_ex_h2_the_double_turn_is_two_entries_of_one_turn():
    board, position = both(EX_H2)
    assert board.game_string().split(";")[2] == "White[4]" and position.turn == 4 and position.second
    assert board.state.info[INFO_PHASE] == PHASE_SECOND and board.state.info[INFO_HONEYCOMB] == 0
    assert engine_moves(board) == position.legal_moves()
    board.push_uhp("wG2 wG1-")
    position.play(position.parse("wG2 wG1-"), check=True)
    assert board.game_string().split(";")[2] == "Black[4]"
    assert board.state.info[INFO_HONEYCOMB] == -1 and position.light is None  # dark again
    assert engine_statuses(board) == reference_statuses(position)
    assert engine_statuses(board)[0] == {"wG1", "wG2"}  # ST-2: both actions' Last
    assert engine_moves(board) == position.legal_moves()


def test_the_flip_is_the_side_to_move_s_once_its_queen_is_in_play():
    board = Board.from_game_string("Base+HoneyCombo;InProgress;White[2];wA1 nH-;bA1 -nH")
    with pytest.raises(IllegalMoveError, match="until you've played your Queen Bee"):
        board.parse_uhp("nH ~")
    board.push_uhp("wQ wA1-")
    board.push_uhp("bQ -bA1")
    board.push_uhp("nH ~")
    assert board.state.info[INFO_HONEYCOMB] == 0  # light side up: White's next turn is double
    with pytest.raises(IllegalMoveError, match="light side up: White's next turn is a double turn"):
        board.parse_uhp("nH ~")


def test_a_covered_honeycomb_does_not_flip_and_a_beetle_leaves_it():
    board = Board.from_stacks("Base+HoneyCombo", {(0, 0): ["nH", "wB1"], (1, 0): ["wQ"], (-1, 0): ["bQ"]})
    assert all(m.piece != HONEYCOMB_ID for m in board.legal_moves)
    with pytest.raises(IllegalMoveError, match="covered"):
        board.parse_uhp("nH ~")
    assert {"wB1 bQ", "wB1 \\nH"} <= {str(m) for m in board.legal_moves}  # the Beetle steps off it


def test_the_honeycomb_is_never_thrown_and_friendly_to_both():
    """IM-2: a Pillbug next to the lone Honeycomb throws other pieces only; HC-3:
    Black places beside the Honeycomb where no white piece is next to the cell."""
    game = "Base+P+HoneyCombo;InProgress;White[3];wP nH-;bA1 -nH;wQ wP-;bQ -bA1"
    board, position = both(game)
    assert engine_moves(board) == position.legal_moves()
    assert all(m.piece != HONEYCOMB_ID for m in board.legal_moves if m.kind != "flip")
    board.push_uhp("wA1 wQ-")
    position.play(position.parse("wA1 wQ-"), check=True)
    black_cells = {cell for piece, cell in engine_moves(board) if piece == "bS1"}
    assert {(0, -1), (-1, 1)} <= black_cells and not {(0, 1), (1, -1)} & black_cells
    assert engine_moves(board) == position.legal_moves()


def test_a_double_turn_that_ends_the_game_has_no_second_action():
    """HC-4: the end of the game is checked after each action."""
    stacks = {(0, 0): ["nH"], (1, 0): ["wQ"], (2, 0): ["bQ"], (2, -1): ["bA1"], (3, -1): ["bA2"], (1, 1): ["wA1"],
              (3, 0): ["wA2"], (0, 1): ["wA3"]}
    board = Board.from_stacks("Base+HoneyCombo", stacks, honeycomb=WHITE)
    board.push_uhp("wA3 bQ\\")
    assert board.outcome() is not None and board.legal_moves == []


@pytest.mark.parametrize("game_type", ["Base+MLP+Venom+Predators+Guardians+HoneyCombo+E+J",
                                       "Base+MLP+HoneyCombo+Dx+E+Fx+J+Nx+Vx+Wx"])
def test_random_games_keep_the_honeycomb_and_the_undo_whole(game_type):
    """In seeded random games with every bug the Honeycomb stays on the origin's
    ground and only its flip names it (IM-2); each entry's make/unmake restores
    the key, which is also the one computed from scratch."""
    rng = random.Random(game_type)
    for _ in range(4):
        board = Board(game_type)
        while not board.is_game_over() and board.ply < 120:
            moves = board.legal_moves
            assert all(m.piece != HONEYCOMB_ID and m.other != HONEYCOMB_ID for m in moves if m.kind != "flip")
            before = int(board.state.info[INFO_KEY])
            move = rng.choice(moves)
            board.push(move)
            assert int(board.state.info[INFO_KEY]) == compute_key(board.state), board.game_string()
            board.pop()
            assert int(board.state.info[INFO_KEY]) == before
            board.push(move)
            assert axial(int(board.state.piece_cell[HONEYCOMB_ID])) == (0, 0)
            assert int(board.state.piece_level[HONEYCOMB_ID]) == 0


def test_the_search_plays_both_actions_of_a_winning_double_turn():
    """bQ has two empty neighbours and White two free Ants: with a double turn
    White surrounds her in one turn. The search must score the first action's
    child as White's own (no change of colour), so it finds the win at depth 2."""
    stacks = {(0, 0): ["nH"], (1, 0): ["wQ"], (2, 0): ["bQ"], (2, -1): ["bA1"], (3, -1): ["bA2"], (1, 1): ["wA1"],
              (0, 1): ["wA2"], (-1, 0): ["wA3"]}
    board = Board.from_stacks("Base+HoneyCombo", stacks, honeycomb=WHITE)
    searcher = Searcher()
    result = searcher.search(board, depth=2)
    assert result.score == MATE - 2  # the win two entries away, found from White's side
    board.push(result.move)
    assert board.turn == WHITE  # the second action is White's too
    board.push(searcher.search(board, depth=1).move)
    assert board.game_string().split(";")[1] == "WhiteWins"


def test_a_uhp_client_plays_both_actions_of_a_double_turn():
    """The TurnString stays White[4] between the two actions; bestmove answers
    each action; `nH ~` is refused during the double turn with its reason, and
    `undo 1` takes back one entry."""
    answers = session_answers("options set FanBugs True", f"newgame {EX_H2}", "bestmove depth 2", "play nH ~",
                              "play wG2 wG1-", "undo 1", "play wG2 wG1-", "play nH ~")
    best = answers[2].strip()
    assert Board.from_game_string(EX_H2).parse_uhp(best)  # a legal second action
    assert answers[3].startswith("invalidmove The Honeycomb is light side up for this double turn of yours")
    assert answers[4].split(";")[2] == "Black[4]" and answers[5].split(";")[2] == "White[4]"
    assert answers[7].strip().endswith("wG2 wG1-;nH ~") and answers[7].split(";")[2] == "White[5]"
