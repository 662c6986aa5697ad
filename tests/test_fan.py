"""The fan pieces' ground (fan-rules.md §2-§4) on the engine: game types, the
FanBugs option, statuses, and properties of every kind of move they bring.

The spec's worked examples run in test_fan_examples.py; the differential test
against the reference generator in test_reference.py.
"""

import io
import random
import re

import pytest

from engine.rules.bugs import BUG_OF_LETTER, BUGS, EXPANSION_BIT, NUM_PIECES, PIECE_NAMES, FAN_CAPABILITIES, RESTS_ON_TOP, fan_game_types, game_types
from engine.rules.board import compute_key, make_move, unmake_move
from engine.rules.constants import (
    BUG_BACKS, INFO_FROZEN, INFO_KEY, INFO_LAST_CARRIED, INFO_LAST_MOVED, INFO_PLY, INFO_RESULT, PIECE_BUG, PIECE_COLOR,
)
from engine.rules.movegen import is_covered, locking_scorpion
from engine.rules.errors import IllegalMoveError, NotationError
from engine.search.evaluate import (
    DEFAULT_WEIGHTS, W_LOCKED_BY_SCORPION, W_MOVABLE, W_QUEEN_CAN_SLIDE, W_QUEEN_STING_READY, W_STUCK, W_ON_ENEMY_QUEEN, W_STINK_BUG_BY_OWN_QUEEN, W_PILLBUG_NEXT_TO_OWN_QUEEN, W_QUEEN_FILLED, board_features,
)
from engine.game import BLACK, QUEEN_REMOVED, WHITE, Board
from engine.rules.hexgrid import axial
from engine.rules.notation import format_game_type, parse_game_type
from engine.search.search import Searcher
from engine.protocol.uhp import Session

from .conftest import read_rows
from .test_fan_examples import FAN_EXAMPLES, MORE_FAN_POSITIONS, position_of
from .test_reference import assert_same_moves, engine_statuses, reference_move, reference_statuses

FAN_TYPES = fan_game_types()
# One of each size of token set, with and without the official letters.
SAMPLE_TYPES = ("Base+E", "Base+J", "Base+Dx", "Base+Guardians", "Base+MLP+E", "Base+MP+J", "Base+M+Dx",
                "Base+ML+Guardians", "Base+MLP+Guardians+Dx+E+J", "Base+P+Guardians+J", "Base+M+Dx+E",
                "Base+M+Predators", "Base+LP+Venom+Predators+Guardians", "Base+MLP+Venom+Predators", "Base+M+Vx",
                "Base+MP+Fx+Wx", "Base+Predators+Dx+Fx")


def max_height(game_type):
    """fan-rules.md §2.5: the ground piece and two of each bug that rests on top."""
    bits = parse_game_type(game_type)
    enabled = [bug for bug in BUGS if not bug.expansion or bits & EXPANSION_BIT[bug.expansion]]
    return 1 + 2 * sum(bug.copies for bug in enabled if bug.flags & RESTS_ON_TOP)


# --- Game types (§2.1) --------------------------------------------------------------
def test_every_fan_game_type_prints_canonically_and_the_official_ones_are_unchanged():
    # 287 sets of the tokens other than Venom (511, less the 128 with both
    # Guardians and Vx and the 128 with both Predators and Nx, plus the 32 with
    # all four) with each official type; Venom with each allowed set of
    # Predators, Guardians, E, J, Nx, Vx (64 - 16 - 16 + 4); each with or
    # without HoneyCombo and Swarm, which also come alone and together.
    assert len(FAN_TYPES) == 8 * (4 * (287 + 36) + 3) and not set(FAN_TYPES) & set(game_types())
    for game_type in FAN_TYPES + game_types():
        assert format_game_type(parse_game_type(game_type)) == game_type


@pytest.mark.parametrize("text, canonical", [
    ("base+j+e+dx+guardians+lpm", "Base+MLP+Guardians+Dx+E+J"),
    ("Base+E+MLP", "Base+MLP+E"),
    ("BASE+GUARDIANS+dx", "Base+Guardians+Dx"),
    ("Base+PL+j", "Base+LP+J"),
])
def test_tokens_and_letters_come_in_any_order_and_case(text, canonical):
    assert format_game_type(parse_game_type(text)) == canonical


@pytest.mark.parametrize("text, reason", [
    ("Base+E+e", "E is named twice"),
    ("Base+M+L", "go in one segment"),
    ("Base+Venom(Placed,Fixed:F)", "one variant"),
    ("Base+Venom(Fixed:U)", "needs L"),
    ("Base+L+Venom(Fixed:UU)", "at most once"),
    ("Base+E(Placed)", "variant 'Placed' of E"),
    ("Base+Guardians+Vx", "two versions of one bug"),
    ("Base+Dx(V2)", "variant 'V2' of Dx"),
    ("Base+J(Literal)", "variant 'Literal' of J"),
    ("Base+Q", "neither official letters"),
    ("Base+", "not a letter or a token"),
    ("Hive+E", "starts with Base"),
])
def test_bad_fan_game_types_say_what_is_wrong(text, reason):
    with pytest.raises(NotationError, match=reason):
        parse_game_type(text)


def test_the_stack_height_limits_of_the_spec():
    assert [max_height(t) for t in ("Base+MLP", "Base+MLP+Guardians", "Base+Dx", "Base+M+Dx")] == [7, 11, 7, 9]


# --- The FanBugs option (§2.3) ------------------------------------------------------
def session_answers(*lines):
    out = io.StringIO()
    session = Session(out)
    for line in lines:
        session.handle(line)
    return out.getvalue().split("ok\n")[:-1]


def test_fan_game_types_need_the_option_and_info_names_them_once_it_is_on():
    answers = session_answers("info", "newgame Base+E", "options set FanBugs True", "info", "newgame base+e+mlp")
    assert answers[0].splitlines()[1] == "Mosquito;Ladybug;Pillbug"
    assert answers[1].startswith("err Base+E is a fan game type") and "options set FanBugs True" in answers[1]
    assert answers[3].splitlines()[1] == FAN_CAPABILITIES == "Mosquito;Ladybug;Pillbug;Venom;Predators;Guardians;HoneyCombo;Swarm;Dx;E;Fx;J;Nx;Vx;Wx"
    assert answers[4] == "Base+MLP+E;NotStarted;White[1]\n"


def test_official_answers_stay_the_same_with_the_option_off():
    answers = session_answers("newgame Base+X", "newgame Base+M+L", "newgame Base", "play wZ", "options get FanBugs")
    assert answers[0] == "err Unknown game type 'Base+X'; expected Base or Base+ with M, L, P.\n"
    assert answers[1] == "err Unknown game type 'Base+M+L'; expected Base or Base+ with M, L, P.\n"
    assert answers[3] == "invalidmove Unknown piece 'wZ'.\n"
    assert answers[4] == "FanBugs;bool;False;False\n"


def test_turning_the_option_off_does_not_end_a_fan_game():
    answers = session_answers("options set FanBugs True", "newgame Base+E", "play wS1", "options set FanBugs False",
                              "play bS1 wS1-", "newgame Base+E")
    assert answers[4] == "Base+E;InProgress;White[2];wS1;bS1 wS1-\n"
    assert answers[5].startswith("err Base+E is a fan game type")


# --- Properties of random fan games (§14) -----------------------------------------
def hive_is_connected(board):
    cells = {axial(cell) for _, cell, _ in board.pieces_in_play()}
    if not cells:
        return True
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        q, r = todo.pop()
        for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)):
            n = (q + dq, r + dr)
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == cells


# What make/unmake must restore (the whole record is checked in test_table.py).
RESTORED = ("height", "stack", "piece_cell", "piece_level", "around", "tops")
STATUSES = [INFO_LAST_MOVED, INFO_LAST_CARRIED, INFO_FROZEN, INFO_RESULT, INFO_PLY]


def random_game(game_type, seed, plies):
    """The boards of a random game (a copy after each ply), moves by the engine."""
    rng = random.Random(seed)
    board = Board(game_type)
    for _ in range(plies):
        moves = board.legal_moves
        if not moves:
            break
        yield board
        board.push(rng.choice(moves))


@pytest.mark.parametrize("game_type", SAMPLE_TYPES)
def test_every_move_of_random_fan_games_keeps_the_rules_invariants(game_type):
    """Each move parses back from its string; made on the kernels it keeps the
    hive whole, the piles within §2.5 and the key equal to one from scratch;
    unmade it restores the record (the whole record: test_table.py)."""
    limit = max_height(game_type)
    for seed in range(2):
        for board in random_game(game_type, seed, 80):
            if board.ply % 3:
                continue
            s = board.state
            key = board.key
            before = {f: getattr(s, f).copy() for f in RESTORED}
            statuses = s.info[STATUSES].copy()
            for move in board.legal_moves:
                text = board.uhp(move)
                assert board.parse_uhp(text) == move, f"{text} does not parse back in {board.game_string()}"
                make_move(s, move)
                assert s.info[INFO_KEY] == compute_key(s), f"key after {text} in {board.game_string()}"
                assert hive_is_connected(board), f"{text} splits the hive in {board.game_string()}"
                assert s.height.max() <= limit, f"{text} piles too high in {board.game_string()}"
                unmake_move(s)
                assert s.info[INFO_KEY] == key
            assert all((getattr(s, f) == before[f]).all() for f in RESTORED)
            assert (s.info[STATUSES] == statuses).all()


# --- The spec's examples and the perft table, on the engine ---------------------------
def engine_board(position):
    """The engine's board of a reference position built from a spec example."""
    # Last is the mover first (the Dragonfly before its cargo, `Prime`).
    last = sorted(position.last, key=lambda name: name != position.prime and name[1:] != "Dx")
    frozen = next(iter(position.frozen), None)
    to_move = WHITE if position.to_move == "w" else BLACK
    return Board.from_stacks(position.game_type, position.stacks, to_move=to_move, turn=position.turn,
                             last=last, frozen=frozen, placed=position.placed, obliged=position.obliged,
                             stings_used=[WHITE if c == "w" else BLACK for c in position.stings_used],
                             prison=position.prison)


def engine_plays(example):
    """Whether the engine holds the example's position: its game type is one hexbee
    plays, and its `Prime` is the first of its `Last`,
    as in every state play reaches (§3.2; the engine keeps no `Prime` of its own)."""
    try:
        parse_game_type(example.game_type)
    except NotationError:
        return False
    statuses = dict(example.statuses)
    return "prime" not in statuses or statuses["prime"] in statuses.get("last", ())


EXAMPLE_ROWS = [e for e in FAN_EXAMPLES + MORE_FAN_POSITIONS if e.kind != "perft" and engine_plays(e)]


@pytest.mark.parametrize("example", EXAMPLE_ROWS, ids=[e.name for e in EXAMPLE_ROWS])
def test_the_engine_plays_each_example_as_the_reference(example):
    """Every move of the example's position, not only those of its piece: the
    reference gives exactly the spec's set (test_fan_examples.py), and the engine
    exactly the reference's moves, results and statuses."""
    position = position_of(example)
    board = engine_board(position)
    assert_same_moves(board, position)
    for move in board.legal_moves:
        child = position.copy()
        child.play(reference_move(move, board))
        board.push(move)
        assert_same_moves(board, child)
        assert engine_statuses(board) == reference_statuses(child), board.uhp(move)
        board.pop()


PERFT_FAN = [(name, text, int(depth), int(count)) for name, text, depth, count in read_rows("perft_fan.tsv")]


@pytest.mark.parametrize("name, text, depth, count", [row for row in PERFT_FAN if row[2] <= 4],
                         ids=[f"{row[0]}-{row[2]}" for row in PERFT_FAN if row[2] <= 4])
def test_engine_perft_equals_the_fan_table(name, text, depth, count):
    board = Board.from_game_string(text) if ";" in text else Board(text)
    assert board.perft(depth) == count


# --- Notation and the reasons of refusals (§4) --------------------------------------
EX_J1_STACKS = {(0, 0): ["wJ"], (-1, 1): ["wQ"], (1, 0): ["bA1"], (2, 0): ["bQ"], (0, 1): ["bS1", "bB1"]}


def test_a_throw_may_name_its_thrower_and_a_wrong_one_is_refused():
    board = Board.from_stacks("Base+J", EX_J1_STACKS)
    own = board.parse_uhp("wQ -wJ")
    assert board.parse_uhp("wQ -wJ ^wJ") == own and board.parse_uhp("WQ -WJ ^WJ") == own  # ST-1: one move
    assert board.uhp(board.parse_uhp("wQ \\bA1 ^wJ")) == "wQ \\bA1"  # printed without the thrower (NO-5)
    with pytest.raises(IllegalMoveError, match="wJ can't throw wQ there."):
        board.parse_uhp("wQ /bB1 ^wJ")  # wQ's own slide, not a throw of wJ's
    with pytest.raises(IllegalMoveError, match="bA1 can't throw wQ there."):
        board.parse_uhp("wQ -wJ ^bA1")
    with pytest.raises(NotationError):
        board.parse_uhp("wQ -wJ ^")
    board.push_uhp("wQ -wJ ^wJ")
    assert board.game_string().endswith(";wQ -wJ ^wJ") and board.move_history == [own]


# EX-T3: wT (pinned) beside bP and bQ, bA1 beside bP.
EX_T3_STACKS = {(0, 0): ["wT"], (-1, 0): ["wQ"], (1, 0): ["bP"], (1, -1): ["bQ"], (1, 1): ["bA1"]}


def test_a_tick_controls_by_at_and_a_controlled_throw_is_a_throw():
    board = Board.from_stacks("Base+MP+Venom", EX_T3_STACKS)
    control = board.parse_uhp("bQ bP/ @wT")
    throw = board.parse_uhp("bQ bP/ ^bP @wT")
    assert control.kind == "control" and throw.kind == "throw" and control != throw  # ID-2: two states
    assert board.uhp(control) == "bQ bP/ @wT" and board.uhp(throw) == "bQ bP/"  # NO-5: no @ where none is needed
    assert board.parse_uhp("bQ bP/") == throw and board.parse_uhp("BQ BP/ @WM") == control  # either face of the tile
    with pytest.raises(IllegalMoveError, match="wQ controls nothing"):
        board.parse_uhp("bQ bP/ @wQ")
    with pytest.raises(IllegalMoveError, match="wT can't make bA1 move there"):
        board.parse_uhp("bA1 -wQ @wT")
    with pytest.raises(IllegalMoveError, match="bP can't throw bQ there"):
        board.parse_uhp("bQ -wQ ^bP @wT")
    board.push(control)
    assert board.state.info[INFO_FROZEN] == -1 and board.state.info[INFO_LAST_MOVED] == control.piece  # T4


def test_a_controlled_sting_is_the_own_one_and_a_controlled_kill_can_lose_the_game():
    stacks = {(0, 0): ["wT"], (0, 1): ["wW"], (1, 0): ["bW"], (1, 1): ["bS1"]}
    board = Board.from_stacks("Base+M+Venom", stacks)
    own = board.parse_uhp("wW ~bS1")
    assert board.parse_uhp("bW ~bS1 @wT") == own and board.uhp(own) == "wW ~bS1"  # one state (ID-1, NO-5)
    assert [m for m in board.legal_moves if m.kind == "sting" and m.piece == own.piece] == [own]
    stacks = {(-1, 0): ["wQ"], (0, 0): ["wT"], (1, 0): ["bK"], (0, 1): ["bA1"], (1, 1): ["bQ"]}
    board = Board.from_stacks("Base+M+Venom+Predators", stacks)
    with pytest.raises(IllegalMoveError, match=re.escape("bK is not yours: only your Tick makes it act (@wT).")):
        board.parse_uhp("bK xbQ")
    board.push_uhp("bK xbQ @wT")
    assert board.outcome() == (WHITE, QUEEN_REMOVED) and board.game_string().endswith(";bK xbQ @wT")


# EX-VN2's board (Base+L+Venom, Last = {wA2}) as stacks.
EX_VN2_STACKS = {(0, 0): ["wQ"], (1, 0): ["bQ"], (2, -1): ["bR1"], (3, -1): ["wA1"], (2, 0): ["wU"],
                 (0, 1): ["bA1", "wB1"], (-1, 1): ["bS2", "wD1"], (0, -1): ["wS2", "bB1"], (-1, 0): ["wG2"],
                 (-2, 0): ["wS1"], (1, 1): ["wA2"]}


@pytest.mark.parametrize("flip, reason", [
    ("wA1 ~", "The Scorpion bR1 at (2, -1) locks wA1: it cannot flip."),
    ("wS2 ~", "wS2 is covered and cannot flip."),
    ("wD1 ~", "wD1 is on top of the hive, where only a Beetle or Mosquito tile may flip."),
    ("wA2 ~", "wA2 was acted on by the last turn and cannot flip on this one."),
    ("wA3 ~", "wA3 is not in play: a tile in hand chooses its face when it is placed."),
])
def test_a_refused_flip_says_which_rule_of_vn3_forbids_it(flip, reason):
    """EX-VN2's 'Not:' list, each with its reason (issue 26, item 5)."""
    board = Board.from_stacks("Base+L+Venom", EX_VN2_STACKS, last=["wA2"])
    with pytest.raises(IllegalMoveError, match=re.escape(reason)):
        board.parse_uhp(flip)
    assert board.is_locked(PIECE_NAMES.index("wA1")) and not board.is_locked(PIECE_NAMES.index("wL"))  # wU, the Ladybug tile


def test_no_flip_in_a_venom_variant_and_none_for_a_predator():
    board = Board.from_stacks("Base+Venom(Placed)", {(0, 0): ["wQ"], (1, 0): ["bQ"], (-1, 0): ["wR1"]})
    with pytest.raises(IllegalMoveError, match=re.escape("no flip turns in Base+Venom(Placed)")):
        board.parse_uhp("wR1 ~")
    assert board.shows_back(PIECE_NAMES.index("wS1")) and not board.shows_back(PIECE_NAMES.index("wQ"))
    scorpion, spider, queen = (BUG_OF_LETTER[letter] for letter in "RSQ")
    assert [board.face_bug(PIECE_NAMES.index(name)) for name in ("wS1", "wQ", "wS2")] == [scorpion, queen, spider]
    board = Board.from_stacks("Base+Venom+Predators", {(0, 0): ["wQ"], (1, 0): ["bQ"], (-1, 0): ["wK"]})
    with pytest.raises(IllegalMoveError, match="wK has no back to flip to"):
        board.parse_uhp("wK ~")


def test_an_official_game_knows_no_thrower_suffix():
    board = Board.from_game_string("Base+P;InProgress;White[3];wP;bS1 wP-;wQ -wP;bQ bS1-")
    with pytest.raises(NotationError, match="Unrecognized move"):
        board.parse_uhp("wQ -wP ^wP")


@pytest.mark.parametrize("game_type, stacks, move, reason", [
    ("Base+E", {(0, 0): ["wQ"], (1, 0): ["bQ"], (-1, 0): ["wA1"], (-1, 1): ["bA1"]}, "wE -wA1",
     "A Flea is placed next to pieces of both colours and not next to the other Queen Bee."),
    ("Base+E", {(0, 0): ["wQ"], (1, 0): ["bQ"], (-1, 0): ["wA1"], (-1, 1): ["bA1"]}, "wE wQ\\",
     "A Flea is placed next to pieces of both colours and not next to the other Queen Bee."),
    ("Base+Guardians", {(0, 0): ["wQ"], (1, 0): ["bQ"], (-1, 0): ["wA1"]}, "wV -wA1",
     "A Moth or a Butterfly is placed on top of a piece of your colour with no enemy piece next to it."),
    ("Base+Guardians", {(0, 0): ["wQ"], (1, 0): ["bQ"], (-1, 0): ["wA1"]}, "wZ wQ",
     "A Moth or a Butterfly is placed on top of a piece of your colour with no enemy piece next to it."),
])
def test_a_fan_placement_off_its_rule_says_the_rule(game_type, stacks, move, reason):
    board = Board.from_stacks(game_type, stacks)
    with pytest.raises(IllegalMoveError, match=re.escape(reason)):
        board.parse_uhp(move)


def test_a_frozen_piece_is_refused_with_the_fan_reason():
    board = Board.from_stacks("Base+J", EX_J1_STACKS, to_move=BLACK, last=["bQ"], frozen="bQ")
    with pytest.raises(IllegalMoveError, match="the opponent threw it last turn"):
        board.parse_uhp("bQ bA1\\")


def test_a_hive_of_every_ground_piece_in_a_line_is_played():
    """Base+MLP+Predators+Dx+E+Fx+J+Vx+Wx has 44 ground pieces: the grid's fold
    (64 cells) holds them in one line, so the move that makes the line is legal,
    is played, and leaves a position whose key and moves are the recomputed ones."""
    game_type = "Base+MLP+Predators+Dx+E+Fx+J+Vx+Wx"  # no Nx: it never meets the Predators
    names = [name for name in PIECE_NAMES if name[1:] not in ("V", "Z", "Nx")]
    white = [n for n in names if n[0] == "w" and n != "wJ"]
    black = [n for n in names if n[0] == "b"]
    line = black + white  # 43 pieces, White's at the east end
    assert len(line) == 43
    board = Board.from_stacks(game_type, {(q - 16, 0): [name] for q, name in enumerate(line)}, turn=20)
    board.push_uhp(f"wJ {line[-1]}-")
    assert board.locate("wJ") == (len(line) - 16, 0) and board.locate(line[0]) == (-16, 0)
    assert board.key == board.computed_key()
    moves = board.legal_moves
    assert moves and len(set(moves)) == len(moves)
    board.push(moves[0])
    board.pop()
    assert board.key == board.computed_key()


# --- The evaluation of the new bugs (issue 12, item 7) ---------------------------------
# bQ one cell short of surrounded, that cell (0,1) reachable by wA2 only, and no white
# piece able to cover her this turn (a Guardian is never placed next to an enemy, GU-2).
#            wS1   wG1
#         bG1   bQ    wA1   wQ    wA2
#            bS1    *
GUARDIANS_RING = {(0, 0): ["bQ"], (1, 0): ["wA1"], (1, -1): ["wG1"], (0, -1): ["wS1"], (-1, 0): ["bG1"],
                  (-1, 1): ["bS1"], (2, 0): ["wQ"], (3, 0): ["wA2"]}


def white_score(board):
    """The static evaluation of a position for White."""
    return int(board_features(board) @ DEFAULT_WEIGHTS)


def test_with_guardians_a_surrounded_uncovered_queen_is_nearly_lost():
    """GU-1: surrounded, bQ is not captured until covered; one cover from losing, she
    scores worse than five filled cells (the search closes the ring at depth 1)."""
    board = Board.from_stacks("Base+Guardians", GUARDIANS_RING, turn=6)
    close = board.parse_uhp("wA2 bQ\\")
    before = white_score(board)
    searcher = Searcher()
    searcher.new_game()
    assert searcher.search(board, depth=1).move == close
    board.push(close)
    assert board.outcome() is None and board.queen_neighbours(BLACK) == 6
    assert board_features(board)[W_QUEEN_FILLED + 6] == -1  # Black's, counted for White minus Black
    assert white_score(board) - before > 100  # with the old 0 for six filled it was -263


@pytest.mark.parametrize("game_type, stacks, feature", [
    # A Guardian or a Dragonfly on the enemy Queen pins her as a Beetle does.
    ("Base+Guardians", {(0, 0): ["wQ"], (1, 0): ["bQ", "wV"], (-1, 0): ["wA1"]}, W_ON_ENEMY_QUEEN),
    ("Base+Guardians", {(0, 0): ["wQ"], (1, 0): ["bQ", "wZ"], (-1, 0): ["wA1"]}, W_ON_ENEMY_QUEEN),
    ("Base+Dx", {(0, 0): ["wQ"], (1, 0): ["bQ", "wDx"], (-1, 0): ["wA1"]}, W_ON_ENEMY_QUEEN),
    # A Woodlouse throws like a Pillbug: beside its own Queen it can pull a piece off her.
    ("Base+J", {(0, 0): ["wQ"], (1, 0): ["bQ"], (-1, 0): ["wJ"]}, W_PILLBUG_NEXT_TO_OWN_QUEEN),
    # A Guardian on top of a pile is free to move, never stuck (GU-3).
    ("Base+Guardians", {(0, 0): ["wQ", "wV"], (1, 0): ["bQ"]}, W_MOVABLE + BUG_OF_LETTER["V"]),
])
def test_the_new_bugs_count_in_the_evaluation_features(game_type, stacks, feature):
    board = Board.from_stacks(game_type, stacks)
    assert board_features(board)[feature] == 1


def test_a_queen_with_her_sting_in_reserve_counts_and_one_who_used_it_is_stuck():
    """WX-5 from EX-Wx3: both Queens may sting (a feature of 0 for White minus
    Black); after `wQ xbB1` only Black's, and wQ, who never moves by herself
    again, is stuck and has no slide."""
    stacks = {(0, 0): ["wQ"], (1, 0): ["bQ"], (-1, 0): ["bA1"], (0, 1): ["wS1", "bB1"], (-1, 1): ["wG1"],
              (-2, 2): ["wWx"]}
    board = Board.from_stacks("Base+Wx", stacks)
    before = board_features(board)
    assert before[W_QUEEN_STING_READY] == 0 and before[W_MOVABLE + BUG_OF_LETTER["Q"]] == 0
    board.push_uhp("wQ xbB1")
    after = board_features(board)
    assert after[W_QUEEN_STING_READY] == -1 and after[W_STUCK + BUG_OF_LETTER["Q"]] == 1
    assert after[W_QUEEN_CAN_SLIDE] == before[W_QUEEN_CAN_SLIDE] - 1
    assert board_features(Board.from_stacks("Base+Fx", {(0, 0): ["wQ"], (1, 0): ["bA1"]}))[W_QUEEN_STING_READY] == 0


# --- The evaluation of Venom and the Predators (issue 26, item 8) -----------------------
def test_a_venom_tile_counts_as_the_bug_of_its_face():
    """VN-1: wR1 (a Spider tile Scorpion side up) is a movable Scorpion, not a Spider."""
    board = Board.from_stacks("Base+Venom", {(0, 0): ["wQ"], (1, 0): ["bQ"], (-1, 0): ["wR1"]})
    counts = board_features(board)
    assert counts[W_MOVABLE + BUG_OF_LETTER["R"]] == 1 and counts[W_MOVABLE + BUG_OF_LETTER["S"]] == 0


def test_tiles_locked_by_a_scorpion_count_for_its_side():
    """R-2 from EX-VN2's corner: bR1 keeps wA1 from flipping, not wU (immune); bQ
    beside it is Black's own."""
    stacks = {(0, 0): ["wQ"], (1, 0): ["bQ"], (2, -1): ["bR1"], (3, -1): ["wA1"], (2, 0): ["wU"]}
    board = Board.from_stacks("Base+L+Venom", stacks)
    counts = board_features(board)
    assert counts[W_LOCKED_BY_SCORPION] == -1  # one white tile locked, counted for White minus Black


@pytest.mark.parametrize("game_type", ["Base+L+Venom", "Base+MLP+Venom", "Base+MP+Venom+Predators"])
def test_the_scorpion_lock_count_is_every_tile_the_rules_keep_from_flipping(game_type):
    """The evaluation counts the locked tiles from the Scorpions' side
    (tiles_locked_by); in random games the count is that of every uncovered
    tile whose flip the rules' query, locking_scorpion, refuses."""
    locks_seen = 0
    for seed in range(6):
        for board in random_game(game_type, seed, 120):
            s = board.state
            expected = 0
            for piece in range(NUM_PIECES):
                cell = s.piece_cell[piece]
                if cell >= 0 and not is_covered(s, piece) and BUG_BACKS[PIECE_BUG[piece]] >= 0 and locking_scorpion(s, piece, cell) >= 0:
                    expected -= 1 if PIECE_COLOR[piece] == 0 else -1
                    locks_seen += 1
            assert board_features(board)[W_LOCKED_BY_SCORPION] == expected, board.game_string()
    assert locks_seen > 0


@pytest.mark.parametrize("game_type, shielded", [("Base+L+Venom+Predators", 1), ("Base+L+Venom", 0)])
def test_a_stink_bug_beside_its_queen_counts_with_the_predators(game_type, shielded):
    """PR-3: no predator removes a piece next to an uncovered Stink bug; without the
    Predators nothing is removed and the term stays 0."""
    board = Board.from_stacks(game_type, {(0, 0): ["wQ"], (-1, 0): ["wU"], (1, 0): ["bQ"]})
    assert board_features(board)[W_STINK_BUG_BY_OWN_QUEEN] == shielded
