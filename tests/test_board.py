"""Make/unmake and Zobrist keys over random games."""

import random

import numpy as np
import pytest

from engine.rules.constants import INFO_LAST_MOVED
from engine.game import Board
from engine.rules.notation import GAME_TYPES


def snapshot(board):
    s = board.state
    return (s.height.copy(), s.stack.copy(), s.piece_cell.copy(), s.piece_level.copy(), s.info[:6].copy())


def assert_same(a, b):
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("game_type", GAME_TYPES)
def test_unmake_restores_every_array_and_key(game_type):
    rng = random.Random(game_type)
    for _ in range(4):
        board = Board(game_type)
        history = [snapshot(board)]
        for _ in range(rng.randrange(20, 120)):
            moves = board.legal_moves
            if not moves:
                break
            for move in moves[:: max(1, len(moves) // 8)]:  # try several, keep none
                before = snapshot(board)
                board.push(move)
                assert board.key == board.computed_key()
                board.pop()
                assert_same(snapshot(board), before)
            board.push(rng.choice(moves))
            assert board.key == board.computed_key()
            history.append(snapshot(board))
        while board.ply:
            assert_same(snapshot(board), history[board.ply])
            board.pop()
        assert_same(snapshot(board), history[0])


def test_key_ignores_which_copy_of_a_bug_stands_where():
    """Two positions that differ only in which ant copy stands where share a key."""
    board = Board.from_game_string("Base;InProgress;White[3];wA1;bA1 wA1-;wA2 -wA1;bA2 bA1-")
    key = board.computed_key()
    s = board.state
    a1, a2 = 8, 9  # wA1, wA2
    c1, c2 = s.piece_cell[a1], s.piece_cell[a2]
    s.piece_cell[a1], s.piece_cell[a2] = c2, c1
    s.stack[c1, 0], s.stack[c2, 0] = a2, a1
    assert board.computed_key() == key
    board.push_uhp("wQ -wA1")
    assert board.key != key


def test_side_to_move_and_last_moved_piece_are_in_the_key():
    board = Board("Base+P")
    keys = set()
    for text in ["wP", "bP wP-", "wQ -wP", "bQ bP-"]:
        board.push_uhp(text)
        keys.add(board.key)
    assert len(keys) == 4
    board.push_uhp("wA1 -wQ")
    with_last = board.key
    assert board.key == board.computed_key()
    board.state.info[INFO_LAST_MOVED] = -1  # forget the last-moved piece
    assert board.computed_key() != with_last


def test_every_field_of_the_state_is_position_table_or_scratch():
    """copy_position copies POSITION_FIELDS by name: a new field must be put in one
    of the three groups, and in copy_position if it holds the position."""
    from engine.rules.board import POSITION_FIELDS, SCRATCH_FIELDS, STATE_FIELDS, TABLE_FIELDS

    assert POSITION_FIELDS == ("height", "stack", "piece_cell", "piece_level", "face", "away", "around", "tops", "info",
                               "undo")
    assert sorted(POSITION_FIELDS + SCRATCH_FIELDS + TABLE_FIELDS) == sorted(name for name, _, _ in STATE_FIELDS)


@pytest.mark.parametrize("game_type", ["Base", "Base+MLP"])
def test_copy_position_into_a_used_record_plays_like_the_original(game_type):
    from engine.rules.board import POSITION_FIELDS, copy_position
    from engine.rules.constants import INFO_STAMP

    rng = random.Random(f"copy {game_type}")
    used = Board("Base+MLP")  # a record whose scratch has seen another game
    for _ in range(60):
        moves = used.legal_moves
        if not moves:
            break
        used.push(rng.choice(moves))
    board = Board(game_type)
    for _ in range(rng.randrange(20, 50)):
        moves = board.legal_moves
        if not moves:
            break
        board.push(rng.choice(moves))
    target = used.state
    copy_position(target, board.state)
    for name in POSITION_FIELDS:
        mine, theirs = getattr(target, name), getattr(board.state, name)
        if name == "undo":
            mine, theirs = mine[: board.ply], theirs[: board.ply]
        if name == "info":
            mine, theirs = np.delete(mine, INFO_STAMP), np.delete(theirs, INFO_STAMP)  # the larger of the two
        np.testing.assert_array_equal(mine, theirs, err_msg=name)
    copy = Board.__new__(Board)
    copy._adopt(target)
    copy._move_strings, copy._buffer = list(board.game_string().split(";")[3:]), np.empty_like(board._buffer)
    assert sorted(copy.legal_moves) == sorted(board.legal_moves)
    assert copy.perft(2) == board.perft(2)
    while board.ply:
        assert copy.pop() == board.pop()
        assert copy.key == board.key and sorted(copy.legal_moves) == sorted(board.legal_moves)


def test_the_state_layout_is_declared_once():
    """The info, undo and work areas come from their declarations: make_move
    saves the statuses and the rest it changes in one run, resets the statuses,
    and a new state starts from the declared initial values."""
    from engine.rules import constants
    from engine.rules.board import new_state

    statuses = [name for name in dir(constants) if name.startswith("INFO_")
                and isinstance(getattr(constants, name), int) and getattr(constants, name) < constants.INFO_STATUSES]
    assert {"INFO_LAST_MOVED", "INFO_LAST_CARRIED", "INFO_FROZEN"} <= set(statuses)
    assert constants.INFO_STATUSES <= constants.INFO_SAVED <= constants.INFO_PLY < constants.INFO_SIZE
    assert constants.INFO_KEY < constants.INFO_SAVED and constants.INFO_RESULT < constants.INFO_SAVED
    assert constants.UNDO_INFO + constants.INFO_SAVED == constants.UNDO_PHASED
    # HoneyCombo's area, saved after it in its game types only (§10).
    assert constants.INFO_SAVED <= constants.INFO_PHASED < constants.INFO_PLY
    assert constants.UNDO_PHASED + constants.INFO_PHASED_SIZE == constants.UNDO_SIZE
    assert (constants.INFO_INITIAL[: constants.INFO_STATUSES] == -1).all()
    state = new_state(expansions=3, flags=1)
    expected = constants.INFO_INITIAL.copy()
    expected[[constants.INFO_EXPANSIONS, constants.INFO_FLAGS]] = 3, 1
    assert state.info.tolist() == expected.tolist()
    board = Board("Base+MLP")
    board.push_uhp("wS1")
    record = board.state.undo[0]
    assert record[constants.UNDO_INFO : constants.UNDO_INFO + constants.INFO_SAVED].tolist() == (
        constants.INFO_INITIAL[: constants.INFO_SAVED].tolist())
    work = [getattr(constants, name) for name in dir(constants) if name.startswith("WORK_") and name != "WORK_SIZE"]
    assert len(set(work)) == len(work) and max(work) < constants.WORK_SIZE
