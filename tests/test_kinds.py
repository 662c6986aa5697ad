"""Tests generated from the table of move kinds (engine/rules/kinds.py): one case per
row, so that a new kind is tested by adding its row.

Every kind round-trips through its MoveString and through its integer; every
played kind is made and unmade by the kernels with the whole record and key
restored; every other kind is refused, by the kernels loudly and by Board with
the table's reason, leaving the state as it was.
"""

import random
from collections import Counter

import pytest

from engine.rules.board import compute_key, make_move, unmake_move
from engine.rules.bugs import NUM_PIECES
from engine.rules.constants import INFO_KEY, INFO_PLY, UNDO_MOVE
from engine.game import Board, Move
from engine.rules.hexgrid import ORIGIN
from engine.rules.kinds import FORM_CONTROL, FORM_REFERENCE, KINDS, KINDS_OF_FORM, KIND_NAMES, PLAYED_KINDS, SIGN_OF_FORM
from engine.rules.moves import (
    KIND_PASS,
    encode_full,
    move_dest,
    move_face,
    move_kind,
    move_other,
    move_piece,
    move_slot,
)
from engine.rules.notation import format_move_text, parse_move_text

from .conftest import read_nokamute_cases
from .test_table import assert_restored, field_views, snapshot

ROWS = range(1, len(KINDS))  # every kind but none
CODEC_FIELDS = {"piece", "dest", "other", "face"}
# A game type where every played kind of arrival occurs in random games.
VENOM_TYPE = "Base+MLP+Venom+Predators+Guardians+E+J"  # the richest with Venom: flips, stings, swaps, control
RICH_TYPE = "Base+MLP+Predators+Guardians+Dx+E+J"
S004_TYPE = "Base+MP+Fx+Wx"  # the S004 Wasp's stings, the Queen's stings to hand, the Firefly's commands
SWARM_TYPE = "Base+MLP+HoneyCombo+Swarm"  # choices, draws (between a double turn's actions too), steals


def row_id(index):
    return KIND_NAMES[index]


@pytest.mark.parametrize("index", ROWS, ids=row_id)
def test_row_is_well_formed(index):
    kind = KINDS[index]
    assert set(kind.fields.split()) <= CODEC_FIELDS, kind.fields
    assert index in KINDS_OF_FORM[kind.form]
    assert KIND_NAMES.count(kind.name) == 1
    assert kind.meaning
    if index in PLAYED_KINDS and index != KIND_PASS:
        assert kind.slots >= 0, "a played kind has identity slots (moves.move_slot)"


@pytest.mark.parametrize("index", ROWS, ids=row_id)
def test_example_round_trips_through_its_string(index):
    """The row's MoveString parses to its form and prints back unchanged, also
    from another case and spacing."""
    kind = KINDS[index]
    parsed = parse_move_text(kind.example)
    assert format_move_text(parsed) == kind.example
    # Control wraps an inner entry, whose form the parse keeps (NO-1).
    assert (parsed.controller >= 0) == (kind.form == FORM_CONTROL)
    assert parsed.form == kind.form or kind.form == FORM_CONTROL
    if kind.form in SIGN_OF_FORM:
        assert parsed.target >= 0
    shouted = "  " + "  ".join(kind.example.upper().split()) + " "
    assert format_move_text(parse_move_text(shouted.replace("X", "x"))) == kind.example


@pytest.mark.parametrize("index", [i for i in ROWS if KINDS[i].form not in (FORM_REFERENCE, FORM_CONTROL)], ids=row_id)
def test_a_kind_naming_only_pieces_prints_its_string_from_its_integer(index):
    """The code built from the example's pieces prints the example, with no
    position needed (a code alone names the pieces by their fronts), and names
    those pieces in its fields."""
    kind = KINDS[index]
    parsed = parse_move_text(kind.example)
    pieces = parsed.chosen or (parsed.piece, parsed.target)
    if kind.name == "sting":  # the victim's move, naming its stinger (`other`)
        pieces = (parsed.target, parsed.piece)
    if kind.name == "choose":
        code = encode_full(index, pieces[0], pieces[1], pieces[2], 0)
    else:
        code = encode_full(index, max(pieces[0], 0), 0, pieces[1], 0)
    move = Move(code)
    assert str(move) == format_move_text(parsed._replace(face=0))
    assert move.dest == (-1 if "dest" not in kind.fields or kind.name == "choose" else 0)
    assert move.other == (-1 if "other" not in kind.fields else pieces[-1])
    assert move.chosen == (tuple(pieces) if kind.name == "choose" else ())


@pytest.mark.parametrize("index", ROWS, ids=row_id)
def test_kind_round_trips_through_its_integer(index):
    """Every value of the fields the row uses comes back from the code, and the
    Move of it names the kind."""
    rng = random.Random(index)
    used = set(KINDS[index].fields.split())
    for _ in range(200):
        piece = rng.randrange(NUM_PIECES) if "piece" in used else 0
        dest = rng.randrange(1024) if "dest" in used else 0
        other = rng.randrange(NUM_PIECES) if "other" in used else -1
        face = rng.randrange(2) if "face" in used else 0
        code = encode_full(index, piece, dest, other, face)
        assert (move_kind(code), move_piece(code), move_dest(code), move_other(code), move_face(code)) == (
            index, piece, dest, other, face)
        assert Move(code).kind == KINDS[index].name


def exercise(board, move, seen):
    """Make and unmake `move` on the kernels: the key is the recomputed one, and
    the record comes back field by field."""
    state = board.state
    views = field_views(state)
    seen[move.kind] += 1
    before = snapshot(views)
    make_move(state, move)
    assert state.info[INFO_KEY] == compute_key(state), f"{board.game_string()}: key after {move!r}"
    unmake_move(state)
    assert_restored(views, before, f"{board.game_string()}: {move.kind} {move!r}")


def test_every_played_kind_is_made_and_unmade():
    """Over seeded random games of a rich game type, every legal move of the
    rarer kinds and a tenth of the places and moves; and the forced pass."""
    seen = Counter()
    for game_type, seed in [(t, seed) for t in (RICH_TYPE, VENOM_TYPE, S004_TYPE, SWARM_TYPE) for seed in range(6)]:
        rng = random.Random(f"{game_type}/{seed}")
        board = Board(game_type)
        while board.legal_moves and board.ply < 120:
            for move in board.legal_moves:
                if move.kind not in ("place", "move") or rng.random() < 0.1:
                    exercise(board, move, seen)
            board.push(rng.choice(board.legal_moves))
    board = Board.from_game_string(next(gs for title, gs, _ in read_nokamute_cases() if title == "Pass"))
    exercise(board, board.legal_moves[0], seen)
    missing = {KIND_NAMES[index] for index in PLAYED_KINDS} - set(seen)
    assert not missing, f"played kinds no game made: {missing} ({dict(seen)})"


def test_kind_none_is_refused_by_the_kernels():
    """A move of kind none (a forged int, an empty table slot) is refused by
    make_move before it changes anything, and by unmake_move in a record."""
    board = Board(RICH_TYPE)
    board.push_uhp("wS1")
    state = board.state
    views = field_views(state)
    before = snapshot(views)
    forged = encode_full(0, 0, ORIGIN, 1, 0)
    with pytest.raises(ValueError, match="does not play"):
        make_move(state, forged)
    assert_restored(views, before, "refused kind none")
    assert move_slot(forged) == -1
    recorded = state.undo[state.info[INFO_PLY] - 1, UNDO_MOVE]
    state.undo[state.info[INFO_PLY] - 1, UNDO_MOVE] = forged
    with pytest.raises(ValueError, match="kernel"):
        unmake_move(state)
    state.undo[state.info[INFO_PLY] - 1, UNDO_MOVE] = recorded
    assert_restored(views, before, "refused undo of kind none")
