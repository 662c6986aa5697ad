"""The engine's move generator against the plain-Python reference (tests/reference.py).

A differential property test: seeded random games of all 8 game types, the two
legal-move sets compared at every ply. The reference is itself held to the data
(nokamute's legal moves in tests/data/validmoves_random.tsv and the perft counts
of tests/data/perft_startpos.tsv), so that a disagreement points at one side.
"""

import random
from functools import lru_cache

import pytest

from engine.rules.bugs import NUM_PIECES, fan_game_types
from engine.rules.constants import (
    INFO_EARLIER_CARRIED, INFO_EARLIER_FROZEN, INFO_EARLIER_MOVED, INFO_FROZEN, INFO_HONEYCOMB, INFO_LAST_CARRIED,
    INFO_LAST_MOVED, INFO_OBLIGED, INFO_OBLIGER, INFO_PENDING, INFO_PHASE, INFO_PLACED, INFO_STINGS_USED, PHASE_SECOND,
)
from engine.game import BLACK, WHITE, Board, axial
from engine.rules.notation import GAME_TYPES, piece_name

from .conftest import read_rows
from .reference import Position, move_string, perft


def reference_move(move, board):
    """THE adapter from an engine Move of `board` (before it is played) to the
    reference's form: 'pass'; (piece name, (q, r)) for a placement, move or
    throw, the name the piece shows after it; (tile name, "~") for a flip;
    (stinger, "~", victim) for a Wasp Queen's sting (the engine's victim is its
    piece), (centipede, "=", target) for a Centipede's swap, (predator, "x",
    prey) for a removal or a Queen's sting to hand, (wasp, "!", target) for an
    S004 Wasp's sting, (piece, (q, r), "@") for a Tick's controlled movement,
    ("choose", a, b, c), ("draw", piece) and ("steal", piece) for Swarm's entries.
    Every comparison of the two
    generators goes through this one function, so a change of the Move class is
    made here only."""
    faces = board.state.face
    return _reference_move(move, int(faces[move.piece]) if move.piece >= 0 else 0,
                           int(faces[move.other]) if move.other >= 0 else 0)


@lru_cache(maxsize=None)
def _reference_move(move, face, other_face):
    """reference_move, cached by the code and the faces it reads (Move's
    properties call compiled functions, slow from Python one by one)."""
    kind = move.kind
    if kind == "pass":
        return "pass"
    if kind == "flip":
        return piece_name(move.piece, face), "~"
    if kind == "sting":
        return piece_name(move.other, other_face), "~", piece_name(move.piece, face)
    if kind == "swap":
        return piece_name(move.piece, face), "=", piece_name(move.other, other_face)
    if kind in ("remove", "to hand"):
        return piece_name(move.piece, face), "x", piece_name(move.other, other_face)
    if kind == "wasp sting":
        return piece_name(move.piece, face), "!", piece_name(move.other, other_face)
    if kind == "control":
        return piece_name(move.piece, face), axial(move.dest), "@"
    if kind == "choose":
        return (kind, *(piece_name(piece) for piece in move.chosen))
    if kind in ("draw", "steal"):
        return kind, piece_name(move.piece)
    return piece_name(move.piece, move.face if kind == "place" else face), axial(move.dest)


def engine_moves(board):
    """The engine's legal moves in the reference's form."""
    return {reference_move(m, board) for m in board.legal_moves}


def assert_same_moves(board, position):
    """The two generators agree on the legal moves and on the game's state; a
    failure names the GameString and the moves each one misses."""
    ours = engine_moves(board)
    expected = position.legal_moves()
    if ours != expected:
        missing = sorted(f"{move_string(position, m)} {m}" for m in expected - ours)
        extra = sorted(f"{move_string(position, m)} {m}" for m in ours - expected)
        pytest.fail(
            f"{board.game_string()}\n"
            f" missing (the reference's, not the engine's): {missing}\n"
            f" extra (the engine's, not the reference's): {extra}"
        )
    state = board.game_string().split(";")[1]
    assert (position.result or "InProgress") == state or (state == "NotStarted" and position.ply == 0), (
        f"{board.game_string()}: the reference says {position.result or 'InProgress'}"
    )


def choose(rng, moves, by_piece, board):
    """A random move: uniform over the moves, or (by_piece) over the pieces that
    have a move and then over that piece's moves, so that the rarer movers (a
    beetle on top, a pillbug's throw) are played about as often as the ants."""
    moves = sorted(moves)
    if not by_piece:
        return rng.choice(moves)
    pieces = sorted({reference_move(m, board)[0] for m in moves})
    piece = rng.choice(pieces)
    return rng.choice([m for m in moves if reference_move(m, board)[0] == piece])


def engine_statuses(board):
    """The engine's `Last`, `Frozen` (fan-rules.md §3.2) as sets of names, `Placed`,
    `Oblig` (the stung piece and its Wasp, §9.6), the colours whose Queen has stung,
    the pieces in an S004 Mantis's prison (§9.5), and HoneyCombo's: the colour whose
    turn is double, whether its second action is due and the Last and Frozen its
    first action made (§10, ST-2), and Swarm's hands, bag and due draw (§11)."""
    info = board.state.info

    def names(*slots):
        return {board.name(int(info[i])) for i in slots if info[i] >= 0}

    last = names(INFO_LAST_MOVED, INFO_LAST_CARRIED, INFO_EARLIER_MOVED, INFO_EARLIER_CARRIED)
    frozen = names(INFO_FROZEN, INFO_EARLIER_FROZEN)
    placed = board.name(int(info[INFO_PLACED])) if info[INFO_PLACED] >= 0 else None
    obliged = None if info[INFO_OBLIGED] < 0 else tuple(board.name(int(info[i])) for i in (INFO_OBLIGED, INFO_OBLIGER))
    stings_used = frozenset(c for i, c in enumerate("wb") if int(info[INFO_STINGS_USED]) >> i & 1)
    prison = frozenset(piece_name(p) for p in range(NUM_PIECES) if board.jailer(p) >= 0)
    light = None if info[INFO_HONEYCOMB] < 0 else "wb"[int(info[INFO_HONEYCOMB])]
    second = info[INFO_PHASE] == PHASE_SECOND
    pending = INFO_PENDING - INFO_LAST_MOVED
    earlier = ((names(pending + INFO_LAST_MOVED, pending + INFO_LAST_CARRIED), names(pending + INFO_FROZEN))
               if second else None)
    hands = tuple(frozenset(board.hand(color)) for color in (WHITE, BLACK))
    return last, frozen, placed, obliged, stings_used, prison, light, second, earlier, hands, frozenset(board.bag()), \
        board.draw_due


def reference_statuses(position):
    """The reference's statuses, as engine_statuses gives the engine's."""
    pending = position.pending
    earlier = None if pending is None else (set(pending[0]), set(pending[1]))
    hands = tuple(frozenset(position.hand[color]) for color in "wb")
    return (set(position.last), set(position.frozen), position.placed, position.obliged, position.stings_used,
            position.prison, position.light, position.second, earlier, hands, frozenset(position.bag),
            position.draw_due is not None)


def play_and_compare(game_type, seed, max_plies, by_piece=None):
    """Play one seeded random game with the engine, keep the reference in step
    by applying the same moves, compare the moves and the statuses (`Last`,
    `Frozen`) at every ply; the number of positions. Moves are drawn by piece
    (choose) on odd seeds unless `by_piece` says."""
    rng = random.Random(f"{game_type}/{seed}")
    by_piece = seed % 2 == 1 if by_piece is None else by_piece
    board = Board(game_type)
    position = Position(game_type)
    compared = 0
    while True:
        assert_same_moves(board, position)
        assert engine_statuses(board) == reference_statuses(position), board.game_string()
        compared += 1
        moves = board.legal_moves
        if not moves or board.ply >= max_plies:
            return compared
        move = choose(rng, moves, by_piece, board)
        position.play(reference_move(move, board))
        board.push(move)


@pytest.mark.parametrize("game_type", GAME_TYPES)
def test_random_games_agree_with_the_reference(game_type):
    """About 1,400 positions per game type: 8 games of up to 200 plies (in all 8
    types 11,388 positions, of which 6,290 hold a stack; 13 games end with a Queen
    surrounded). The official rules are settled; -m slow plays 160 games more."""
    positions = sum(play_and_compare(game_type, seed, 200) for seed in range(8))
    assert positions > 500


@pytest.mark.slow
@pytest.mark.parametrize("game_type", GAME_TYPES)
def test_many_random_games_agree_with_the_reference(game_type):
    """About fifteen times the default run: 160 other games of up to 300 plies
    per game type (7 minutes on the 2-core machine)."""
    positions = sum(play_and_compare(game_type, seed, 300) for seed in range(1000, 1160))
    assert positions > 10_000


def test_a_finished_game_agrees():
    """A game won by surrounding the black Queen: no moves on either side, and the
    same result (rules.md, "End of the game")."""
    game_string = (
        "Base;WhiteWins;Black[8];wS1;bS1 wS1-;wQ -wS1;bQ bS1/;wG1 -wQ;bG1 \\bQ;wG1 bQ\\;bG2 bQ/;wA1 wQ\\;"
        "bA1 bG2/;wA1 bG2\\;bA1 \\bG2;wQ \\wS1;bA1 bG2/;wQ /bG1"
    )
    board = Board.from_game_string(game_string)
    position = Position.from_game_string(game_string)
    assert position.result == "WhiteWins" and position.legal_moves() == set()
    assert_same_moves(board, position)


# --- The reference held to the data --------------------------------------------------
RANDOM_ROWS = read_rows("validmoves_random.tsv")


@pytest.mark.parametrize("start", range(0, len(RANDOM_ROWS), 250))
def test_reference_matches_nokamute_random_positions(start):
    """nokamute's legal moves in 1,500 random positions, resolved by the
    reference's own reading of the MoveStrings."""
    for game_string, count, move_strings in RANDOM_ROWS[start : start + 250]:
        fields = game_string.split(";")
        position = Position(fields[0])
        for text in fields[3:]:
            position.play(position.parse(text))
        expected = {position.parse(text) for text in move_strings.split(";")}
        assert len(expected) == int(count)
        got = position.legal_moves()
        missing = sorted(move_string(position, m) for m in expected - got)
        extra = sorted(move_string(position, m) for m in got - expected)
        assert not missing and not extra, f"{game_string}\n missing {missing}\n extra {extra}"


STARTPOS = {(game_type, int(depth)): int(count) for game_type, depth, count in read_rows("perft_startpos.tsv")}


@pytest.mark.parametrize(
    "game_type,depth",
    [(t, 3) for t in GAME_TYPES] + [("Base", 4), pytest.param("Base+MLP", 4, marks=pytest.mark.slow)],
)
def test_reference_perft_from_start(game_type, depth):
    assert perft(Position(game_type), depth) == STARTPOS[game_type, depth]


# --- The fan game types (fan-rules.md §14) -------------------------------------------
FAN_GAME_TYPES = fan_game_types()


def fan_tokens(game_type):
    """The fan tokens of a GameTypeString (its segments after the official letters)."""
    segments = game_type.split("+")[1:]
    return segments[1:] if segments and segments[0] in ("M", "L", "P", "ML", "MP", "LP", "MLP") else segments


# The default run: every type of one or two fan tokens (with each set of official
# letters: 584) and a seeded sample of 96 of the others; -m slow plays them all.
DEFAULT_FAN_TYPES = [t for t in FAN_GAME_TYPES if len(fan_tokens(t)) <= 2]
DEFAULT_FAN_TYPES += random.Random(27).sample([t for t in FAN_GAME_TYPES if len(fan_tokens(t)) > 2], 96)


@pytest.mark.parametrize("game_type", DEFAULT_FAN_TYPES)
def test_random_fan_games_agree_with_the_reference(game_type):
    """A game of up to 100 plies in each type of DEFAULT_FAN_TYPES (584 types,
    about 1.5 minutes on the 2-core machine); another game when one ends early (a
    Mantis takes a Queen placed on the first turn, PR-2)."""
    compared = 0
    for seed in range(5):
        compared += play_and_compare(game_type, seed, 100, by_piece=True)
        if compared > 20:
            break
    assert compared > 20


@pytest.mark.slow
@pytest.mark.parametrize("game_type", FAN_GAME_TYPES)
def test_many_random_fan_games_agree_with_the_reference(game_type):
    """Every fan game type (2,584), three other games of up to 200 plies each."""
    assert sum(play_and_compare(game_type, seed, 200, by_piece=True) for seed in range(1000, 1003)) > 60
