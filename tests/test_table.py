"""Tests generated from the tables: one row of the table of bugs (bugs.py) or one
kind of the move codec (moves.py) per case, so that a new row or kind is tested
by adding it.

The table's promises: every piece id has a name that parses back, the copies of
each row, the game types and the bugs each enables, the capabilities line, the
movement bits naming real kernels. The codec's: every kind round-trips with every
piece and its extra fields. The capacities derived in constants.py really bound
what random games produce. And make/unmake restores the whole state record for
every kind of move that occurs, with the incremental neighbour sets and Zobrist
key equal to a recomputation from scratch.
"""

import random
from collections import Counter
from functools import lru_cache

import numpy as np
import pytest

from engine import info_lines
from engine.rules import bugs, movegen
from engine.rules.board import compute_key, make_move, unmake_move
from engine.rules.bugs import (
    BUGS,
    CAPABILITIES,
    CLIMBERS,
    COLOR_LETTERS,
    EXPANSION_LETTERS,
    MOVEMENT_NAMES,
    NUM_BUGS,
    NUM_PIECES,
    PIECE_NAMES,
    PIECES,
    PIECES_PER_SIDE,
    THROWERS,
    FAN_TOKENS,
    PLACE_AWAY_FROM_QUEENS,
    PLACE_BESIDE_OWN,
    fan_game_types,
    game_types,
)
from engine.rules.constants import (
    IN_PROGRESS,
    INFO_KEY,
    INFO_PLY,
    INFO_RESULT,
    INFO_PINNED_PASS,
    INFO_PLACEABLE,
    INFO_STAMP,
    MAX_HEIGHT,
    MAX_MOVES,
    MAX_NODES,
    MAX_REACH,
    NUM_KINDS,
    ZOBRIST_LAST_MOVED,
    ZOBRIST_PIECE,
)
from engine.rules.errors import IllegalMoveError, NotationError
from engine.game import PASS, Board, Move
from engine.rules.hexgrid import CELL_MASK, DIRECTION_DQ_DR, GRID_SIZE, NUM_CELLS, ORIGIN
from engine.rules.kinds import KIND_NAMES, PLAYED_KINDS, SLOTS_SWARM
from engine.rules.kinds import KINDS as KINDS_TABLE
from engine.rules.moves import (
    FACE_BITS,
    KIND_NONE,
    KIND_PASS,
    MOVE_BITS,
    NO_MOVE,
    NUM_SLOTS,
    PASS_MOVE,
    encode,
    encode_full,
    move_dest,
    move_face,
    move_kind,
    move_other,
    move_piece,
    move_slot,
)
from engine.rules.notation import format_game_type, parse_face_piece, parse_game_type, parse_piece, piece_name

from .conftest import read_nokamute_cases

OFFICIAL_TYPES = game_types()
# The official types and a spread of the fan ones: each token alone, with the
# official letters, and all together.
FAN_TYPES = ("Base+Guardians", "Base+Dx", "Base+E", "Base+J", "Base+MLP+Guardians+Dx+E+J", "Base+MP+Dx+J",
             "Base+ML+Guardians+E")
GAME_TYPES = OFFICIAL_TYPES + FAN_TYPES


def largest_type_with(bug):
    """The fan game type with the most tokens of those that have `bug` (no one
    type has every row: two versions of one bug never meet, GT-3), without Swarm,
    whose hands begin with a choice (§11)."""
    return max((t for t in fan_game_types() if BUGS.index(bug) in bugs_of(t) and "Swarm" not in t),
               key=lambda t: len(t.split("+")))
KINDS = range(len(KIND_NAMES))


def row_id(bug):
    return bug.letter


def bugs_of(game_type):
    """Indices of the rows a game type enables, read from its letters and tokens."""
    segments = game_type.split("+")[1:]
    letters = set(segments[0]) if segments and segments[0] not in FAN_TOKENS else set()
    return {index for index, bug in enumerate(BUGS)
            if not bug.expansion or bug.expansion in letters or bug.expansion in segments}


def is_fan(bug):
    return bug.expansion in FAN_TOKENS


# --- Piece ids and names ---------------------------------------------------------
@pytest.mark.parametrize("piece", range(NUM_PIECES), ids=PIECE_NAMES)
def test_piece_names_round_trip(piece):
    color, bug, copy = PIECES[piece]
    name = piece_name(piece)
    assert name == COLOR_LETTERS[color] + BUGS[bug].letter + (str(copy) if copy else "")
    for text in (name, name.upper(), name.lower()):
        assert parse_piece(text) == piece


def test_venom_faces_are_the_backs_of_the_official_tiles():
    """A face row (fan-rules.md §6.0) has no copies of its own: it is the back of
    exactly one row with copies, and its name is that row's with its letter."""
    faces = [bug for bug in BUGS if bug.copies == 0 and not bug.flags & bugs.NEUTRAL]
    assert faces and all(bug.expansion == "Venom" for bug in faces)
    for face in faces:
        fronts = [bug for bug in BUGS if bug.back == face.letter]
        assert len(fronts) == 1 and fronts[0].copies >= 1 and fronts[0].expansion not in FAN_TOKENS
    for piece, (color, bug, copy) in enumerate(PIECES):
        back = bugs.BUG_BACK[bug]
        if back >= 0:
            name = COLOR_LETTERS[color] + BUGS[back].letter + (str(copy) if copy else "")
            assert bugs.PIECE_BACK_NAMES[piece] == name and parse_face_piece(name) == (piece, 1)


@pytest.mark.parametrize("bug", [bug for bug in BUGS if bug.copies], ids=row_id)
def test_copies_per_side_match_the_row(bug):
    index = BUGS.index(bug)
    for color in (0, 1):
        ids = [p for p, (c, b, _) in enumerate(PIECES) if c == color and b == index]
        assert len(ids) == bug.copies
        assert ids == list(range(ids[0], ids[0] + bug.copies)), "a bug's copies have consecutive ids"
        assert ids[0] == color * PIECES_PER_SIDE + bugs.BUG_FIRST_ID[index]
        letter = COLOR_LETTERS[color] + bug.letter
        expected = [letter] if bug.copies == 1 else [f"{letter}{k}" for k in range(1, bug.copies + 1)]
        assert [piece_name(p) for p in ids] == expected
        with pytest.raises(NotationError):  # one copy more than the row has
            parse_piece(f"{letter}{bug.copies + 1}")
    # On the board: the largest game type with it puts exactly the row's copies in hand,
    # and places them lowest copy first (the first piece of a game goes by the
    # usual rule, or the S004 Wasp's and Firefly's, which only keeps them from the
    # Queens: the others are never first).
    board = Board(largest_type_with(bug), queen_first=True)
    offered = {m.piece for m in board.legal_moves}
    first = [bugs.BUG_FIRST_ID[index]] if bug.placement in (PLACE_BESIDE_OWN, PLACE_AWAY_FROM_QUEENS) else []
    assert [p for p in offered if PIECES[p][1] == index] == first


def test_the_table_is_consistent():
    letters = [bug.letter for bug in BUGS]
    # One capital, or a capital and x for a second version of a bug (fan-rules.md §4.1).
    assert len(set(letters)) == NUM_BUGS and all(x[0].isupper() and x[1:] in ("", "x") for x in letters)
    assert len({bug.name for bug in BUGS}) == NUM_BUGS
    assert sum(1 for bug in BUGS if bug.flags & bugs.ROYAL) == 1
    neutral = [bug for bug in BUGS if bug.flags & bugs.NEUTRAL]  # one piece each, no side's (the Honeycomb)
    assert all(bug.copies >= 1 or any(front.back == bug.letter for front in BUGS) for bug in BUGS if bug not in neutral)
    assert all(bug.copies == 0 for bug in neutral)
    assert len(PIECES) == NUM_PIECES == 2 * sum(bug.copies for bug in BUGS) + len(neutral)
    assert len(set(PIECE_NAMES)) == NUM_PIECES and PIECE_NAMES[bugs.HONEYCOMB_ID] == "nH"
    assert bugs.QUEEN_ID == tuple(PIECE_NAMES.index(c + BUGS[bugs.QUEEN].letter) for c in "wb")


@pytest.mark.parametrize("bug", BUGS, ids=row_id)
def test_movement_bits_name_known_kernels(bug):
    """Each movement bit of a row is one of MOVEMENT_NAMES, and each name is a
    kernel of movegen.py; abilities and flags are known bits too."""
    # The Centipede moves by its swap only, the Mantis never (N-1): it preys; the
    # Honeycomb never moves, and is flipped by either side (HC-4).
    assert bug.movement or bug.abilities & (bugs.SWAP | bugs.PREY_ON_PLACED) or bug.flags & bugs.NEUTRAL, \
        "every bug acts somehow"
    known = 0
    for bit, name in MOVEMENT_NAMES.items():
        assert bit & (bit - 1) == 0, f"{name} is one bit"
        kernel = getattr(movegen, name.replace(" ", "_"), None)
        assert kernel is not None and hasattr(kernel, "py_func"), f"no kernel movegen.{name.replace(' ', '_')}"
        known |= bit
    assert len(set(MOVEMENT_NAMES.values())) == len(MOVEMENT_NAMES)
    assert bug.movement & ~known == 0, f"{bug.name} has an unknown movement bit"
    assert bug.abilities & ~(bugs.LENT_ABILITIES | bugs.CONTROL | bugs.COMMAND | bugs.OBLIGE) == 0
    assert bug.flags & ~(bugs.ROYAL | bugs.RESTS_ON_TOP | bugs.COPIES_NEIGHBOURS | bugs.LOCKS | bugs.IMMUNE
                         | bugs.SHIELDS | bugs.NEUTRAL) == 0


# --- Game types and capabilities ------------------------------------------------------
def test_game_types_are_every_set_of_expansions_once():
    assert GAME_TYPES[0] == "Base"
    assert len(set(OFFICIAL_TYPES)) == len(OFFICIAL_TYPES) == 2 ** len(EXPANSION_LETTERS)
    assert {parse_game_type(t) for t in OFFICIAL_TYPES} == set(range(2 ** len(EXPANSION_LETTERS)))


@pytest.mark.parametrize("game_type", GAME_TYPES)
def test_game_type_parses_prints_and_enables_its_bugs(game_type):
    bits = parse_game_type(game_type)
    assert format_game_type(bits) == game_type
    segments = game_type.split("+")[1:]
    if segments:  # any order, any case
        shuffled = [x.lower() if x in FAN_TOKENS else x[::-1].lower() for x in segments[::-1]]
        assert parse_game_type("+".join(["bASE"] + shuffled)) == bits
    board = Board(game_type, queen_first=True)
    assert board.game_type == game_type
    assert board.game_string() == f"{game_type};NotStarted;White[1]"
    enabled = bugs_of(game_type)
    usual = {index for index in enabled if BUGS[index].placement == PLACE_BESIDE_OWN}
    assert {PIECES[m.piece][1] for m in board.legal_moves} == usual
    first = board.push(board.legal_moves[0])
    assert {PIECES[m.piece][1] for m in board.legal_moves} == usual
    fan_game = any(segment in FAN_TOKENS for segment in game_type.split("+"))
    for index, bug in enumerate(BUGS):
        if index not in enabled and bug.copies:  # a face row is a back, named only with Venom
            move = f"b{bug.letter}{'1' if bug.copies > 1 else ''} {piece_name(first.piece)}-"
            if is_fan(bug) and not fan_game:  # an official game does not know their names
                with pytest.raises(NotationError, match="Unknown piece"):
                    board.parse_uhp(move)
                continue
            with pytest.raises(IllegalMoveError, match="That piece is not enabled in this game."):
                board.parse_uhp(move)


def test_capabilities_name_exactly_the_expansion_bugs():
    names = [bug.name for bug in BUGS if bug.expansion and not is_fan(bug)]
    assert CAPABILITIES.split(";") == names
    assert info_lines()[1] == CAPABILITIES
    assert {bug.expansion for bug in BUGS if bug.expansion and not is_fan(bug)} == set(EXPANSION_LETTERS)
    # With FanBugs on, the fan tokens follow in canonical order (fan-rules.md FB-2).
    tokens = [token for token in FAN_TOKENS if token in bugs.RULES_ONLY or any(bug.expansion == token for bug in BUGS)]
    assert info_lines(fan=True)[1] == ";".join([CAPABILITIES] + tokens)


# --- The move codec ---------------------------------------------------------------------
EDGE_CELLS = {0, 1, ORIGIN, CELL_MASK, GRID_SIZE, NUM_CELLS - GRID_SIZE}
SAMPLE_CELLS = sorted(EDGE_CELLS | set(random.Random(10).sample(range(NUM_CELLS), 8)))


@pytest.mark.parametrize("kind", KINDS, ids=KIND_NAMES)
def test_codec_round_trips_every_kind(kind):
    codes, fields = set(), set()
    for piece in range(NUM_PIECES):
        for dest in SAMPLE_CELLS:
            code = encode(kind, piece, dest)
            assert (move_kind(code), move_piece(code), move_dest(code), move_other(code), move_face(code)) == (
                kind, piece, dest, -1, 0)
            for other in (-1, 0, piece, NUM_PIECES - 1):
                for face in range(1 << FACE_BITS):
                    full = encode_full(kind, piece, dest, other, face)
                    assert 0 <= full < (1 << MOVE_BITS) <= 2**31, "a move is a non-negative int32"
                    assert (move_kind(full), move_piece(full), move_dest(full), move_other(full),
                            move_face(full)) == (kind, piece, dest, other, face)
                    codes.add(full)
                    fields.add((piece, dest, other, face))
            assert encode_full(kind, piece, dest, -1, 0) == code
            assert Move(code).kind == KIND_NAMES[kind]
    assert len(codes) == len(fields), "distinct fields, distinct codes"
    if kind != KIND_NONE:
        assert NO_MOVE not in codes, "no move of a kind is 'no move'"


@pytest.mark.parametrize("kind", KINDS, ids=KIND_NAMES)
def test_identity_slots_are_within_the_tables(kind):
    """A played kind's moves have slots below NUM_SLOTS, one per piece and
    destination whatever the other fields (Swarm's entries: one per set of
    pieces named); none, pass and unplayed kinds none."""
    swarm = KINDS_TABLE[kind].slots == SLOTS_SWARM
    slots = set()
    for piece in range(NUM_PIECES):
        for dest in range(NUM_CELLS):
            slot = move_slot(encode_full(kind, piece, dest, NUM_PIECES - 1, 1))
            if kind in (KIND_NONE, KIND_PASS) or kind not in PLAYED_KINDS:
                assert slot == -1
            elif not swarm:  # (Swarm's dest field holds a piece: below)
                assert 0 <= slot < NUM_SLOTS
                # The face only where the kind has one (a placement's back is another move).
                face = 1 if "face" in KINDS_TABLE[kind].fields.split() else 0
                assert slot == move_slot(encode_full(kind, piece, dest, -1, face)), "the slot is the piece and destination"
                slots.add(slot)
    if swarm:
        named = [(a, b, c) for a in range(0, NUM_PIECES, 7) for b in range(NUM_PIECES) for c in (0, 9, NUM_PIECES - 1)]
        if "other" not in KINDS_TABLE[kind].fields:  # a draw or a steal names one piece
            named = [(a, 0, -1) for a in range(NUM_PIECES)]
        swarm_slots = {move_slot(encode_full(kind, *pieces, 0)) for pieces in named}
        assert len(swarm_slots) == len(named) and all(0 <= slot < NUM_SLOTS for slot in swarm_slots)
    elif kind in PLAYED_KINDS and kind != KIND_PASS:
        assert len(slots) == NUM_PIECES * NUM_CELLS, "every piece and destination has its own slot"


def test_pass_and_no_move():
    assert move_kind(PASS_MOVE) == KIND_PASS and PASS_MOVE != NO_MOVE and PASS.is_pass
    assert move_kind(NO_MOVE) == KIND_NONE
    assert Move.place(3, ORIGIN).kind == "place" and Move.move(3, ORIGIN).kind == "move"


# --- Random games -----------------------------------------------------------------------
@lru_cache(maxsize=None)
def decode(move):
    """(kind name, piece, destination) of a move code, through the codec (cached:
    a call into a kernel costs more than the tests' own work)."""
    return KIND_NAMES[move_kind(move)], int(move_piece(move)), int(move_dest(move))


def choose(rng, moves):
    """A random move: over the pieces that have one, then over that piece's
    moves, so that rarer movers (throws, beetles on top) get played."""
    if len(moves) == 1:
        return moves[0]
    piece = rng.choice(sorted({decode(m)[1] for m in moves}))
    return rng.choice([m for m in moves if decode(m)[1] == piece])


def random_game(game_type, seed, max_plies):
    """Yield a Board at each ply of a seeded random game (the same object, moved on)."""
    rng = random.Random(f"{game_type}/{seed}")
    board = Board(game_type, queen_first=seed % 3 == 0)
    while True:
        yield board
        moves = board.legal_moves
        if not moves or board.ply >= max_plies:
            return
        board.push(choose(rng, moves))


def kind_of(side, move):
    """The kind of a legal move of `side`, checked against what it does: a throw
    (a kind of its own, fan-rules.md ST-1) moves an opponent's piece, and a move
    one of the side's own."""
    kind, piece, _ = decode(move)
    if kind in ("move", "throw"):
        assert (PIECES[piece][0] == side) == (kind == "move"), (kind, PIECE_NAMES[piece])
    return kind


def empty_cells_next_to(occupied):
    """The empty cells touching a set of cells, in plain Python on the fold."""
    return {(cell + dq + GRID_SIZE * dr) % NUM_CELLS for cell in occupied for dq, dr in DIRECTION_DQ_DR} - occupied


@pytest.mark.parametrize("game_type", GAME_TYPES)
def test_capacities_bound_random_positions(game_type):
    """MAX_MOVES, MAX_REACH, MAX_HEIGHT, MAX_NODES and the placeable-piece slots
    (one per bug) hold what random games produce, with the reasons constants.py
    gives: at most 2n + 4 empty cells touch a hive of n cells."""
    assert MAX_HEIGHT >= 1 + CLIMBERS and MAX_NODES >= NUM_PIECES
    assert MAX_MOVES >= (PIECES_PER_SIDE + 6 * THROWERS + NUM_BUGS) * MAX_REACH
    assert ZOBRIST_PIECE.shape == (NUM_KINDS, NUM_CELLS) and ZOBRIST_LAST_MOVED.shape == (NUM_CELLS + 1,)
    most = Counter()
    for seed in range(6):
        for board in random_game(game_type, seed, 150):
            s = board.state
            moves = board.legal_moves
            occupied = {int(c) for c in np.flatnonzero(s.height)}
            rim = empty_cells_next_to(occupied)
            decoded = [decode(m) for m in moves]
            per_piece = Counter(piece for _, piece, _ in decoded)
            placed = {piece for kind, piece, _ in decoded if kind == "place"}
            cells = {dest for kind, piece, dest in decoded if kind == "place" and s.height[dest] == 0}
            most["moves"] = max(most["moves"], len(moves))
            most["height"] = max(most["height"], int(s.height.max()))
            assert len(moves) <= MAX_MOVES
            assert len(rim) <= 2 * len(occupied) + 4 <= MAX_REACH
            assert max(per_piece.values(), default=0) <= MAX_REACH
            assert cells <= rim | ({ORIGIN} if not occupied else set()), "ground placements touch the hive"
            assert len(placed) <= NUM_BUGS
            assert s.height.max() <= 1 + CLIMBERS
            assert sum(1 for p in range(NUM_PIECES) if s.piece_cell[p] >= 0 and s.piece_level[p] == 0) <= MAX_NODES
    assert most["moves"] > 20 and most["height"] >= 2, f"the games were too tame to test anything: {dict(most)}"


# --- The state record --------------------------------------------------------------------
RESTORED_FIELDS = ("height", "stack", "piece_cell", "piece_level", "around", "tops", "info")


def field_views(state):
    """The record's fields as arrays (views into it: reading a field of a numpy
    record costs microseconds, so the hot loops read the views)."""
    return {name: getattr(state, name) for name in RESTORED_FIELDS + ("undo",)}


def snapshot(views, with_stamp=True):
    """Copies of the fields a move may change, plus the undo records of the plies
    played. info[INFO_STAMP] and info[INFO_PINNED_PASS] are the generator's
    scratch: make/unmake leave them alone, but each generation of moves
    advances them."""
    fields = {name: views[name].copy() for name in RESTORED_FIELDS}
    fields["undo"] = views["undo"][: views["info"][INFO_PLY]].copy()
    if not with_stamp:
        fields["info"][INFO_STAMP] = 0
        fields["info"][INFO_PINNED_PASS] = 0
    return fields


def assert_restored(views, before, what, with_stamp=True):
    after = snapshot(views, with_stamp)
    for name, array in before.items():
        assert np.array_equal(after[name], array), f"{what}: unmake did not restore {name}"


def recomputed_neighbour_sets(height, stack):
    """`around` and `tops` from `height` and `stack` alone, in plain Python: bit d
    of a cell is set when its neighbour in direction d is occupied (around), or
    topped by a piece of that colour (tops). Cells not listed are 0."""
    around, tops = {}, ({}, {})
    for cell, h in enumerate(height.tolist()):
        if not h:
            continue
        top_colour = PIECES[int(stack[cell, h - 1])][0]
        for d, (dq, dr) in enumerate(DIRECTION_DQ_DR):
            # `cell` is the neighbour in direction d of the cell one step back.
            viewer = (cell - dq - GRID_SIZE * dr) % NUM_CELLS
            around[viewer] = around.get(viewer, 0) | 1 << d
            tops[top_colour][viewer] = tops[top_colour].get(viewer, 0) | 1 << d
    return around, tops


def nonzero_cells(array):
    return {int(c): int(array[c]) for c in np.flatnonzero(array)}


def assert_consistent(state, what):
    """The incremental parts of the state equal their recomputation: neighbour
    sets, the Zobrist key, and the piece arrays against the stacks."""
    height, stack, tops = state.height, state.stack, state.tops
    piece_cell, piece_level = state.piece_cell.tolist(), state.piece_level.tolist()
    around, recomputed_tops = recomputed_neighbour_sets(height, stack)
    assert nonzero_cells(state.around) == around, f"{what}: around"
    for colour in (0, 1):
        assert nonzero_cells(tops[colour]) == recomputed_tops[colour], f"{what}: tops[{colour}]"
    assert state.info[INFO_KEY] == compute_key(state), f"{what}: incremental key != compute_key"
    # Cells each colour may place on: empty, touching its top pieces and none of the other's.
    for colour in (0, 1):
        placeable = sum(
            1 for cell in recomputed_tops[colour] if height[cell] == 0 and cell not in recomputed_tops[1 - colour]
        )
        assert state.info[INFO_PLACEABLE + colour] == placeable, f"{what}: placeable cells of colour {colour}"
    in_stacks = {}
    for cell in np.flatnonzero(height).tolist():
        row = stack[cell].tolist()
        h = int(height[cell])
        assert min(row[:h]) >= 0 and row[h:] == [-1] * (MAX_HEIGHT - h), f"{what}: stack row {cell} {row}"
        for level, piece in enumerate(row[:h]):
            in_stacks[piece] = (cell, level)
    assert {p: (c, lv) for p, (c, lv) in enumerate(zip(piece_cell, piece_level)) if c >= 0} == in_stacks, what
    assert all(level == 0 for c, level in zip(piece_cell, piece_level) if c < 0), f"{what}: a piece in hand has a level"
    assert (stack[height == 0] == -1).all(), f"{what}: an empty cell holds a piece id"


def exercise_make_unmake(board, seen, all_moves=False):
    """Make and unmake the position's moves (every move of the rarer kinds, a
    spread of the rest) on the kernels, checking the record and key each time."""
    state = board.state
    views = field_views(state)
    info = views["info"]
    side = board.side_to_move
    moves = board.legal_moves
    common = [m for m in moves if kind_of(side, m) in ("place", "move")]
    rare = [m for m in moves if kind_of(side, m) not in ("place", "move")]
    tried = rare + (common if all_moves else common[:: max(1, len(common) // 10)])
    for move in tried:
        kind = kind_of(side, move)
        seen[kind] += 1
        before = snapshot(views)
        make_move(state, move)
        assert info[INFO_PLY] == before["info"][INFO_PLY] + 1
        assert info[INFO_KEY] == compute_key(state), f"{board.game_string()}: key after {kind} {move!r}"
        if info[INFO_RESULT] != IN_PROGRESS:
            seen["game-ending " + kind] += 1
        unmake_move(state)
        assert_restored(views, before, f"{board.game_string()}: {kind} {move!r}")


@pytest.mark.parametrize("game_type", GAME_TYPES)
def test_make_unmake_restores_the_state_record(game_type):
    """Over seeded random games: every move tried is made and unmade on the
    kernels and the record comes back field by field; the position after each
    played move is consistent; and taking the whole game back retraces it."""
    seen = Counter()
    for seed in range(4):
        history = []
        game = random_game(game_type, seed, 160)
        for board in game:
            assert_consistent(board.state, board.game_string())
            history.append(snapshot(field_views(board.state), with_stamp=False))
            exercise_make_unmake(board, seen, all_moves=seed == 0 and board.ply % 4 == 0)
        while board.ply:
            board.pop()
            what = f"{game_type} seed {seed} popped to ply {board.ply}"
            assert_restored(field_views(board.state), history[board.ply], what, with_stamp=False)
            assert_consistent(board.state, f"{game_type} seed {seed} ply {board.ply}")
    assert seen["place"] and seen["move"], dict(seen)
    if "P" in game_type or "J" in game_type.split("+"):
        assert seen["throw"], f"no throw in the random games of {game_type}: {dict(seen)}"


def test_make_unmake_restores_the_state_record_for_a_pass():
    game_string = next(gs for title, gs, _ in read_nokamute_cases() if title == "Pass")
    board = Board.from_game_string(game_string)
    assert board.legal_moves == [PASS]
    seen = Counter()
    exercise_make_unmake(board, seen)
    assert seen == {"pass": 1}
    key = board.key
    board.push(PASS)
    assert_consistent(board.state, "after pass")
    assert board.key != key and board.last_moved == -1


# Every piece that may rest on top of the hive (4 Beetles, 2 Mosquitoes) on one
# Spider: the tallest stack the table allows, 1 + CLIMBERS (a cooperative game,
# found by a greedy search that maximises the stack; bM climbs last).
TALLEST_STACK = (
    r"Base+M;InProgress;White[42];wS1;bM \wS1;wB1 wS1\;bB1 bM/;wM /wS1;bB2 -bB1;wQ wB1/;bQ /bB2;wB1 wS1;"
    r"bB2 bM;wM wB1;bB2 wM;wB2 wQ\;bB1 \wQ;wB2 bB2\;bB1 bB2;wB2 bB1;bG1 /bQ;wG1 wQ\;bG2 -bG1;wG2 wQ/;"
    r"bG3 bG1\;wG3 wG1\;bA1 \bG2;wG2 wB2\;bA2 bG3\;wA1 wG2\;bA2 wG3/;wG2 \bM;bA1 \bA2;wA1 /bG3;bA2 /bG2;"
    r"wS2 wB2\;bS1 \bG2;wA1 /bA2;bA3 -bQ;wA1 \bA1;bA1 bG2\;wA2 wG3/;bG2 /bA2;wA1 bG2\;bS2 \bA3;wA2 \bS2;"
    r"bS1 \wA2;wA1 /bA3;bG3 \bS1;wA1 wG2/;bG3 bG1\;wA1 -wG2;bA3 -bG2;wA3 wG3\;bA3 -bA2;wA3 \bA3;bG3 bS2\;"
    r"wS2 wG3\;bG3 \bS1;wA3 /wA2;bA3 wG3/;wA3 bA3-;bG2 -bG1;wA3 /bG3;bA1 wS2-;wG2 wB2\;bA2 wA2/;wA3 \bA2;"
    r"bA2 bA3-;wA3 /bG3;bA1 \bA2;wG2 \bM;bA1 wA3\;wA3 /bG2;bA2 wS2-;wA3 bA3/;bA1 -wA3;wA3 /wG3;bA1 \wQ;"
    r"wA3 wS2\;bA2 /wG3;wA3 wG2/;bA1 /bA2;wA3 bQ\;bM wB2"
)


def climber_row(piece):
    """Whether a piece's row lets it rest on top of the hive."""
    return bool(BUGS[PIECES[piece][1]].flags & bugs.RESTS_ON_TOP)


OFFICIAL_CLIMBERS = 2 * sum(bug.copies for bug in BUGS if bug.flags & bugs.RESTS_ON_TOP and not is_fan(bug))


def assert_every_move_keeps_the_piles_within_bounds(board):
    """Make and unmake every move of a position with the tallest stack: the
    record comes back, and no pile grows past 1 + CLIMBERS."""
    s = board.state
    seen = Counter()
    exercise_make_unmake(board, seen, all_moves=True)
    assert seen["move"] > 0
    for move in board.legal_moves:
        make_move(s, move)
        assert s.height.max() <= 1 + CLIMBERS
        unmake_move(s)


def test_the_tallest_stack_fits_the_state():
    board = Board.from_game_string(TALLEST_STACK)
    s = board.state
    cell = int(np.argmax(s.height))
    pile = [int(p) for p in s.stack[cell, : s.height[cell]]]
    assert len(pile) == 1 + OFFICIAL_CLIMBERS <= MAX_HEIGHT, "a climber bug was added: this position needs it too"
    assert [climber_row(p) for p in pile] == [False] + [True] * OFFICIAL_CLIMBERS
    assert_consistent(s, "the tallest stack")
    assert_every_move_keeps_the_piles_within_bounds(board)
    while board.ply:
        board.pop()
    assert_consistent(s, "the tallest stack taken back")
    assert not s.height.any() and (s.stack == -1).all()


def test_the_tallest_fan_stack_fits_the_state():
    """Every piece that may rest on top in the game type with most of them, on
    one Spider (built directly: fan-rules.md §2.5's bound), with the Queens
    beside it."""
    def climbers_of(game_type):
        return [name for piece, name in enumerate(PIECE_NAMES)
                if climber_row(piece) and PIECES[piece][1] in bugs_of(game_type)]

    tallest = max(fan_game_types(), key=lambda t: len(climbers_of(t)))
    climbers = climbers_of(tallest)
    # CLIMBERS also counts the Grasshopper tiles, whose Dragonfly face rests on top
    # with Venom, which never meets Dx, and the S004 Moth, which never meets the
    # Guardians: no game type reaches it.
    assert len(climbers) == CLIMBERS - 2 * 3 - 2 and 1 + CLIMBERS <= MAX_HEIGHT, "a climber bug was added: add it here too"
    board = Board.from_stacks(tallest, {(0, 0): ["wS1"] + climbers, (1, 0): ["wQ"], (-1, 0): ["bQ"]})
    s = board.state
    assert_consistent(s, "the tallest fan stack")
    assert_every_move_keeps_the_piles_within_bounds(board)
