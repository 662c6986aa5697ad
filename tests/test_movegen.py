"""Legal-move sets against the reference data, compared by resolved move
(piece, destination cell; the height follows from the cell), never by string."""

import pytest

from engine.rules.errors import IllegalMoveError
from engine.game import PASS, Board

from .conftest import read_mzinga, read_nokamute_cases, read_rows


def resolve_all(board, move_strings):
    """Moves named by a ';'-separated list of MoveStrings, resolved on `board`."""
    return {board.parse_uhp(text) for text in move_strings.split(";") if text}


def assert_same_moves(board, expected):
    ours = set(board.legal_moves)
    missing = sorted(board.uhp(m) for m in expected - ours)
    extra = sorted(board.uhp(m) for m in ours - expected)
    assert not missing and not extra, f"{board.game_string()}\n missing {missing}\n extra {extra}"


def _expected_moves(board, move_strings):
    """Reference moves resolved one by one: a string our rules reject is a miss."""
    resolved = set()
    for text in move_strings.split(";"):
        try:
            resolved.add(board.parse_uhp(text))
        except IllegalMoveError as error:
            pytest.fail(f"{board.game_string()}: reference move '{text}' rejected: {error}")
    return resolved


RANDOM_ROWS = read_rows("validmoves_random.tsv")


@pytest.mark.parametrize("start", range(0, len(RANDOM_ROWS), 100))
def test_validmoves_random_positions(start):
    """nokamute's legal moves in 1,500 random positions of all 8 game types."""
    for game_string, count, move_strings in RANDOM_ROWS[start : start + 100]:
        board = Board.from_game_string(game_string)
        expected = _expected_moves(board, move_strings)
        assert len(expected) == int(count)
        assert_same_moves(board, expected)


@pytest.mark.parametrize("game_string,move_strings", [row for _, row in read_mzinga("Board_ValidMovesFromRealGamesTest.csv")])
def test_validmoves_real_games(game_string, move_strings):
    """Mzinga's World Championship positions: same set, and the same strings,
    since we print references as MzingaEngine does."""
    board = Board.from_game_string(game_string)
    assert_same_moves(board, _expected_moves(board, move_strings))
    assert sorted(board.uhp(m) for m in board.legal_moves) == sorted(move_strings.split(";"))


PER_BUG_FILES = [
    "Board_ValidMovesForBeetleTest.csv",
    "Board_ValidMovesForGrasshopperTest.csv",
    "Board_ValidMovesForLadybugTest.csv",
    "Board_ValidMovesForMosquitoTest.csv",
    "Board_ValidMovesForPillbugTest.csv",
    "Board_ValidMovesForQueenBeeTest.csv",
    "Board_ValidMovesForSoldierAntTest.csv",
    "Board_ValidMovesForSpiderTest.csv",
]


@pytest.mark.parametrize(
    "game_string,move_strings",
    [row for name in PER_BUG_FILES for _, row in read_mzinga(name)],
)
def test_mzinga_per_bug_moves_are_legal(game_string, move_strings):
    board = Board.from_game_string(game_string)
    assert _expected_moves(board, move_strings) <= set(board.legal_moves)


@pytest.mark.parametrize("rule,row", read_mzinga("Board_InvalidMovesByRuleTest.csv"))
def test_mzinga_invalid_moves_are_rejected(rule, row):
    """Every move of Mzinga's invalid-move file is rejected, with Mzinga's reason,
    and the game is left as it was."""
    game_string, move_string = row
    board = Board.from_game_string(game_string)
    with pytest.raises(IllegalMoveError) as error:
        board.parse_uhp(move_string)
    assert str(error.value) == rule
    assert board.game_string().split(";")[3:] == game_string.split(";")[3:]


@pytest.mark.parametrize("title,game_string,move_strings", read_nokamute_cases())
def test_nokamute_uhp_cases(title, game_string, move_strings):
    repetition = title == "Draw by threefold repetition"
    board = Board.from_game_string(game_string, repetition_draw=repetition)
    assert board.game_string().split(";")[1] == game_string.split(";")[1]
    if board.is_game_over():
        assert board.legal_moves == []
    else:
        assert_same_moves(board, _expected_moves(board, move_strings))


def test_threefold_repetition_is_not_a_draw_by_default():
    game_string = next(gs for title, gs, _ in read_nokamute_cases() if title == "Draw by threefold repetition")
    board = Board.from_game_string(game_string)
    assert not board.is_game_over()


def test_forced_pass_is_the_only_move():
    game_string = next(gs for title, gs, _ in read_nokamute_cases() if title == "Pass")
    board = Board.from_game_string(game_string)
    assert board.legal_moves == [PASS]
    board.push_uhp("pass")
    assert board.game_string().endswith(";pass")


def test_the_seen_stamps_come_round_without_losing_moves():
    """`seen` keeps 31 bits of the stamps (movegen.SEEN_MASK): across the wrap the
    generator still gives every move once, as before it."""
    from engine.rules.constants import INFO_STAMP
    from engine.rules.movegen import SEEN_MASK

    board = Board.from_game_string(next(gs for title, gs, _ in read_nokamute_cases() if title != "Pass"))
    expected = sorted(board.legal_moves)
    assert expected
    board.state.info[INFO_STAMP] = SEEN_MASK - 3
    for _ in range(6):  # generations on both sides of the wrap
        assert sorted(board.legal_moves) == expected
    assert board.state.info[INFO_STAMP] > SEEN_MASK
