"""The research interface (engine/rl.py): actions, masks, observations, clones,
playouts, against Board on random games."""

import random
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from engine.rl import _random_entry
from engine.rules.board import AWAY_BAG, AWAY_OTHER_HAND
from engine.rules.constants import MAX_MOVES
from engine.rules.movegen import generate_moves
from engine.rules.bugs import BUG_OF_LETTER, BUGS, COLOURED_PIECES, NUM_BUGS, NUM_PIECES, PIECE_NAMES, PIECES, QUEEN_ID
from engine.rules.constants import BLACK_WINS, DRAW, IN_PROGRESS, PIECE_KIND, WHITE_WINS
from engine.game import Board, Move
from engine.rules.hexgrid import CELL_MASK, GRID_SIZE, ORIGIN, axial
from engine.rules.moves import encode_full, move_kind
from engine.rules.notation import GAME_TYPES
from engine.rl import (
    LEVELS,
    NUM_ACTIONS,
    NUM_KINDS,
    OBSERVATION_SHAPE,
    PASS_ACTION,
    PLANE_BLACK,
    PLANE_FROZEN,
    PLANE_OBLIGED,
    PLANE_DOUBLE_TURN,
    PLANE_PRISON,
    PLANE_BAG,
    PLANE_DRAW_DUE,
    PLANE_OTHER_HAND,
    PLANE_SECOND_ACTION,
    PLANE_STINGS_USED,
    CHANCE_PLAYER,
    PLANE_LAST,
    WINDOW,
    WINDOW_CELLS,
    State,
    hive_centre,
    playouts,
)

from .conftest import read_nokamute_cases

NOKAMUTE = {title: game_string for title, game_string, _ in read_nokamute_cases()}

MIDDLE = WINDOW // 2 * (WINDOW + 1)  # the window cell of the hive's centre


def random_boards(game_type, seed, games=3, plies=60):
    """Boards at every ply of a few seeded random games."""
    rng = random.Random(f"{game_type} {seed}")
    for _ in range(games):
        board = Board(game_type)
        for _ in range(rng.randrange(10, plies)):
            moves = board.legal_moves
            if not moves:
                break
            yield board
            board.push(rng.choice(moves))
        yield board


def actions_of(board):
    """(State, legal moves, legal actions) of a board, checked to map one to one:
    each move's action is legal, distinct moves have distinct actions, and each
    action gives its move back."""
    state = State.from_board(board)
    moves = board.legal_moves
    actions = state.legal_actions()
    assert sorted(state.move_to_action(move) for move in moves) == actions.tolist()
    assert len(set(actions.tolist())) == len(moves)  # distinct moves, distinct actions
    assert sorted(state.action_to_move(a) for a in actions) == sorted(moves)
    return state, moves, actions


@pytest.mark.parametrize("game_type", GAME_TYPES)
def test_one_action_per_legal_move_and_back(game_type):
    for board in random_boards(game_type, 1):
        state, moves, actions = actions_of(board)
        mask = state.legal_actions_mask()
        assert mask.shape == (NUM_ACTIONS,) and mask.sum() == len(moves) and mask[actions].all()


# A Dragonfly on top of wA1 (a leaf) carries it to each empty diagonal cell (DX-3).
CARRY = Board.from_stacks("Base+Dx", {(0, 0): ["wQ"], (1, 0): ["bQ"], (-1, 0): ["wA1", "wDx"], (2, 0): ["bA1"]})


def fan_boards():
    yield CARRY
    for game_type in ("Base+Dx", "Base+Guardians", "Base+M+Dx", "Base+MLP+Guardians+Dx+E+J"):
        yield from random_boards(game_type, 3, games=3, plies=80)


def test_fan_moves_have_actions_and_a_carry_is_the_dragonflys_action():
    """Every legal move of the fan pieces has its own action and back, a Dragonfly's
    carry (KIND_TRANSPORT) included; an unchecked action plays the same move as the
    checked one (a Guardian's placement on top, a carry)."""
    carries = 0
    for board in fan_boards():
        state, moves, actions = actions_of(board)
        carries += sum(move.kind == "transport" for move in moves)
        for action in actions.tolist():
            child = state.clone()
            child.apply_unchecked(action)
            assert child.key == state.child(action).key
    assert carries >= 5


@pytest.mark.parametrize("game_type", ["Base+MLP+Venom", "Base+MP+Venom+Predators"])
def test_venom_and_predators_moves_have_actions_and_observations(game_type):
    """Every flip, sting, swap, removal and mind control has its own action and back;
    the observation holds each piece in play once, by its face, and none removed."""
    kinds = set()
    for board in random_boards(game_type, 4, games=2, plies=70):
        state, moves, actions = actions_of(board)
        kinds |= {move.kind for move in moves}
        planes = state.observation_tensor()
        in_play = board.pieces_in_play()
        assert planes[:LEVELS * NUM_KINDS].sum() == len(in_play)
        for piece, cell, level in in_play:
            kind = PIECE_KIND[piece, int(board.shows_back(piece))]
            assert planes[level * NUM_KINDS + kind].sum() >= 1
    assert {"flip", "swap"} <= kinds and ("remove" in kinds) == ("Predators" in game_type)


@pytest.mark.parametrize("game_type, stacks, kinds", [
    ("Base+MP+Venom", {(0, 0): ["wT"], (-1, 0): ["wQ"], (1, 0): ["bP"], (1, -1): ["bQ"], (1, 1): ["bA1"]},
     {"control", "throw"}),
    ("Base+M+Venom+Predators", {(0, 0): ["wT"], (-1, 0): ["wW"], (1, 0): ["bK"], (-1, 1): ["bA1"], (1, 1): ["bQ"]},
     {"control", "sting"}),
])
def test_stings_and_mind_control_have_actions(game_type, stacks, kinds):
    """EX-T3's Tick (controls, a controlled throw) and a Tick and Wasp Queen beside a Killer beetle
    and an Ant (controls, a sting): kinds random games rarely reach."""
    board = Board.from_stacks(game_type, stacks)
    state = State.from_board(board)
    moves = board.legal_moves
    assert sorted(state.move_to_action(move) for move in moves) == state.legal_actions().tolist()
    assert sorted(state.action_to_move(a) for a in state.legal_actions()) == sorted(moves)
    assert kinds <= {move.kind for move in moves}


def test_the_hive_is_centred_on_the_origin():
    for board in random_boards("Base+MLP", 2, games=2, plies=120):
        state = State.from_board(board)
        centre = hive_centre(board.state)
        places = [axial((cell - centre + ORIGIN) & CELL_MASK) for _, cell, _ in board.pieces_in_play()]
        if not places:
            continue
        qs, rs = [q for q, _ in places], [r for _, r in places]
        assert min(qs) + max(qs) in (0, 1) and min(rs) + max(rs) in (0, 1)  # the middle, rounded down
        # Every action's destination lies within the window, next to the hive.
        for a in state.legal_actions():
            if a != PASS_ACTION:
                cell = int(a) % WINDOW_CELLS
                q, r = cell % WINDOW - WINDOW // 2, cell // WINDOW - WINDOW // 2
                assert -16 < q < 16 and -16 < r < 16


@pytest.mark.parametrize("shift", [(5, -3), (-14, 9), (15, 15)])
def test_an_action_is_the_same_move_wherever_the_hive_stands(shift):
    """The same game played with every cell moved by `shift` (the state played
    unchecked, since the rules put the first piece at the origin) has the same
    actions and the same observation."""
    delta = shift[0] + GRID_SIZE * shift[1]
    for board in random_boards("Base+MLP", 3, games=2, plies=80):
        if board.ply < 2:
            continue
        moved = State("Base+MLP")
        for move in board.move_history:
            if not move.is_pass:
                move = type(move)(encode_full(move_kind(move), move.piece, (move.dest + delta) & CELL_MASK,
                                              move.other, 0))
            moved.push(move)
        state = State.from_board(board)
        assert moved.key != state.key or not board.pieces_in_play()
        assert moved.legal_actions().tolist() == state.legal_actions().tolist()
        assert (moved.observation_tensor() == state.observation_tensor()).all()


def test_clone_and_apply_leave_the_original_alone():
    board = Board.from_game_string(NOKAMUTE["White wins"])
    board.pop()
    state = State.from_board(board)
    before = (state.key, state.ply, state.legal_actions().tolist())
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(int(action))
        assert child.ply == state.ply + 1
        expected = board.copy()
        expected.push(state.action_to_move(action))
        assert child.key == expected.key and child.to_board() == expected
        del child  # its record goes back to the free list for the next clone
    assert (state.key, state.ply, state.legal_actions().tolist()) == before
    assert state.to_board() == board and str(state) == board.game_string()


def test_a_finished_game_has_returns_and_no_actions():
    white = State.from_board(Board.from_game_string(NOKAMUTE["White wins"]))
    assert white.is_terminal() and white.returns() == [1.0, -1.0] and len(white.legal_actions()) == 0
    draw = State.from_board(Board.from_game_string(NOKAMUTE["Draw"]))
    assert draw.is_terminal() and draw.returns() == [0.0, 0.0]
    with pytest.raises(ValueError, match="the game is over"):
        white.apply_unchecked(0)
    assert State().returns() == [0.0, 0.0] and not State().is_terminal() and State().current_player() == 0


def test_bad_actions_get_clear_errors():
    state = State("Base")
    with pytest.raises(ValueError, match="not legal"):
        state.apply_action(PASS_ACTION)
    with pytest.raises(ValueError, match=f"from 0 to {NUM_ACTIONS - 1}, not -1"):
        state.apply_action(-1)
    with pytest.raises(ValueError, match="not legal"):
        state.apply_unchecked(QUEEN_ID[1] * WINDOW_CELLS)  # a black piece on White's turn
    with pytest.raises(TypeError, match="an action is an int, not str"):
        state.apply_action("wS1")
    with pytest.raises(TypeError, match="takes a Board"):
        State.from_board("Base")
    with pytest.raises(IndexError):
        state.pop()
    state.apply_unchecked(int(state.legal_actions()[0]))
    assert state.ply == 1 and state.pop().piece_name == "wS1"


def test_the_observation_keeps_the_order_of_stacks():
    # wB1 climbs onto wS1, which bS1 touches: a stack of two at the origin.
    board = Board.from_game_string("Base;InProgress;Black[4];wS1;bS1 wS1-;wB1 -wS1;bQ bS1-;wQ wB1\\;bA1 bQ-;wB1 wS1")
    planes = State.from_board(board).observation_tensor()
    assert planes.shape == OBSERVATION_SHAPE and planes.dtype == np.float32
    ground, upper = planes[:NUM_KINDS], planes[NUM_KINDS:2 * NUM_KINDS]
    assert ground.sum() == 5 and upper.sum() == 1 and planes[2 * NUM_KINDS:LEVELS * NUM_KINDS].sum() == 0
    # bugs in table order Q S B G A M L P; kinds colour-major
    spider, beetle = 1, 2
    (y, x), = zip(*np.nonzero(upper[beetle]))
    assert ground[spider, y, x] == 1  # the Spider under the Beetle
    hands = planes[LEVELS * NUM_KINDS: LEVELS * NUM_KINDS + NUM_KINDS, 0, 0]
    assert hands[spider] == 0.5 and hands[beetle] == 0.5 and hands[0] == 0 and hands[8] == 0  # wQ, bQ placed
    enabled = planes[LEVELS * NUM_KINDS + NUM_KINDS: LEVELS * NUM_KINDS + NUM_KINDS + 8, 0, 0]
    assert enabled.tolist() == [1, 1, 1, 1, 1, 0, 0, 0]
    black_to_move, last, frozen = planes[PLANE_BLACK], planes[PLANE_LAST], planes[PLANE_FROZEN]
    assert black_to_move.all() and last.sum() == 1 and last[y, x] == 1  # wB1 moved last
    assert frozen.sum() == 0 and PLANE_DRAW_DUE + 1 == OBSERVATION_SHAPE[0]


def test_the_observation_shows_a_stung_tile_by_its_new_face_and_frozen():
    """EX-W1: wW stings bA1, which turns over into the Fly bY1, Frozen for Black's turn."""
    stacks = {(0, 0): ["wW"], (1, 0): ["bA1"], (2, 0): ["bA2"], (0, 1): ["bS1", "wB1"], (-1, 1): ["bU"],
              (0, -1): ["bG1"], (-1, 0): ["bB1"], (2, -1): ["bQ"]}
    board = Board.from_stacks("Base+L+Venom", stacks, last=["bG1"])
    before = State.from_board(board).observation_tensor()
    board.push_uhp("wW ~bA1")
    planes = State.from_board(board).observation_tensor()
    ant, fly = (NUM_KINDS // 2 + BUG_OF_LETTER[letter] for letter in "AY")  # Black's kinds
    (y, x), = zip(*np.nonzero(planes[PLANE_FROZEN]))
    assert before[ant, y, x] == 1 and planes[ant, y, x] == 0 and planes[fly, y, x] == 1
    assert planes[PLANE_LAST, y, x] == 1  # the victim is Prime (Y-1), as INFO_LAST_MOVED says


def test_the_observation_shows_an_obligation_and_a_spent_sting():
    """EX-Wx2: wWx stings bS1 (its cell and the Wasp's are marked, Black to move);
    then, in EX-Wx3, wQ sends bA1 back to hand: White's sting plane fills, bA1 is
    in Black's hand again and its action is in the Queen's slot group (4)."""
    board = Board.from_stacks("Base+Wx", {(0, 0): ["wQ"], (1, 0): ["bQ"], (2, 0): ["bA1"], (3, 0): ["wWx"],
                                          (3, 1): ["bS1"]})
    board.push_uhp("wWx !bS1")
    planes = State.from_board(board).observation_tensor()
    obliged, wasp = planes[PLANE_OBLIGED], planes[PLANE_OBLIGED + 1]
    assert obliged.sum() == 1 and wasp.sum() == 1 and planes[PLANE_FROZEN].sum() == 0
    stacks = {(0, 0): ["wQ"], (1, 0): ["bQ"], (-1, 0): ["bA1"], (0, 1): ["wS1", "bB1"], (-1, 1): ["wG1"],
              (-2, 2): ["wWx"]}
    board = Board.from_stacks("Base+Wx", stacks)
    state = State.from_board(board)
    ant_hand = LEVELS * NUM_KINDS + NUM_KINDS // 2 + BUG_OF_LETTER["A"]
    assert state.observation_tensor()[ant_hand, 0, 0] == np.float32(2 / 3)  # bA2, bA3
    action = state.move_to_action(board.parse_uhp("wQ xbA1"))
    assert action // WINDOW_CELLS // NUM_PIECES == 4 and action in state.legal_actions()
    state.apply_action(action)
    planes = state.observation_tensor()
    assert planes[PLANE_STINGS_USED].all() and not planes[PLANE_STINGS_USED + 1].any()
    assert planes[ant_hand, 0, 0] == 1  # bA1 back in hand


def test_the_observation_shows_prisoners():
    """EX-Nx1: wNx takes bS1 into its prison: one of Black's two Spiders is jailed,
    the other (bS2) still in hand."""
    stacks = {(0, 0): ["wNx"], (-1, 1): ["wQ"], (1, 0): ["bS1"], (0, 1): ["bG1"], (0, 2): ["bQ"]}
    board = Board.from_stacks("Base+Nx", stacks)
    board.push_uhp("wNx xbS1")
    planes = State.from_board(board).observation_tensor()
    spider = NUM_KINDS // 2 + BUG_OF_LETTER["S"]
    assert planes[PLANE_PRISON + spider].all() and planes[PLANE_PRISON + spider, 0, 0] == 0.5
    assert planes[LEVELS * NUM_KINDS + spider, 0, 0] == 0.5  # bS2 in hand
    assert planes[PLANE_PRISON:].sum() == 0.5 * WINDOW_CELLS


def test_the_observation_shows_the_honeycomb_and_the_double_turn():
    """EX-H2: White between the two actions of its double turn; the Honeycomb on
    the origin in White's plane of its bug, and its flip an action of its own."""
    board = Board.from_game_string("Base+HoneyCombo;InProgress;White[4];wA1 nH-;bA1 -nH;wQ wA1-;bQ -bA1;nH ~;"
                                   "bG1 -bQ;wG1 wQ-")
    state = State.from_board(board)
    planes = state.observation_tensor()
    assert planes[PLANE_DOUBLE_TURN].all() and not planes[PLANE_DOUBLE_TURN + 1].any()
    assert planes[PLANE_SECOND_ACTION].all() and state.current_player() == 0
    assert planes[BUG_OF_LETTER["H"]].sum() == 1  # the Honeycomb, at level 0
    board.push_uhp("wG2 wG1-")
    planes = State.from_board(board).observation_tensor()
    assert not planes[PLANE_DOUBLE_TURN:].any() and State.from_board(board).current_player() == 1
    flip = State.from_board(board).move_to_action(board.parse_uhp("nH ~"))
    assert flip in State.from_board(board).legal_actions()


def test_playouts_are_deterministic_leave_the_state_and_run_in_threads():
    state = State("Base+MLP")
    results, plies = playouts(state, 6, seed=7, max_plies=200)
    assert state.ply == 0 and results.shape == (6,) and 6 <= plies <= 6 * 200
    assert set(results.tolist()) <= {IN_PROGRESS, WHITE_WINS, BLACK_WINS, DRAW}
    again, again_plies = state.playouts(6, seed=7, max_plies=200)
    assert again.tolist() == results.tolist() and again_plies == plies
    with ThreadPoolExecutor(2) as pool:
        runs = list(pool.map(lambda seed: playouts(state.clone(), 6, seed, 200), [7, 8]))
    assert runs[0][0].tolist() == results.tolist() and runs[0][1] == plies
    assert runs[1][1] != plies or runs[1][0].tolist() != results.tolist()


def test_child_is_clone_and_apply_in_one_call():
    board = Board.from_game_string("Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-")
    state = State.from_board(board)
    for action in state.legal_actions():
        child = state.child(action)
        expected = state.clone()
        expected.apply_action(int(action))
        assert child.key == expected.key and child.to_board() == expected.to_board() and state.ply == 4
    with pytest.raises(ValueError, match="not legal"):
        state.child(PASS_ACTION)
    with pytest.raises(TypeError):
        state.child(1.0)


def test_an_unchecked_pillbug_throw_moves_the_enemy_piece():
    # White's Pillbug may throw Black's Grasshopper: a move of a black piece on White's turn.
    board = Board.from_game_string("Base+MLP;InProgress;White[6];wS1;bG1 \\wS1;wP /wS1;bB1 -bG1;wB1 wS1-;"
                                   "bM \\bB1;wQ wB1\\;bQ /bB1;wP -wS1;bA1 /bQ")
    state = State.from_board(board)
    throws = [int(a) for a in state.legal_actions() if a != PASS_ACTION and a // WINDOW_CELLS >= 14]
    assert throws and all(str(state.action_to_move(a)).startswith("bG1") for a in throws)
    for action in throws:
        child = state.clone()
        child.apply_unchecked(action)
        expected = board.copy()
        expected.push(state.action_to_move(action))
        assert child.to_board() == expected
    with pytest.raises(ValueError, match="not legal"):
        state.clone().apply_unchecked(PIECE_NAMES.index("bS1") * WINDOW_CELLS + MIDDLE)  # in hand, placed on White's turn
    with pytest.raises(ValueError, match="not legal"):
        state.clone().apply_unchecked(PIECE_NAMES.index("wZ") * WINDOW_CELLS + MIDDLE)  # not a piece of Base+MLP


def test_output_arrays_are_checked_before_the_kernels_write_them():
    state = State("Base")
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    assert state.legal_actions_mask(mask) is mask and mask.sum() == 4
    planes = np.ones(OBSERVATION_SHAPE, dtype=np.float32)
    assert state.observation_tensor(planes) is planes and planes[:LEVELS * NUM_KINDS].sum() == 0
    with pytest.raises(ValueError, match="shape"):
        state.legal_actions_mask(np.zeros(10, dtype=np.bool_))
    with pytest.raises(ValueError, match="float32"):
        state.observation_tensor(np.zeros(OBSERVATION_SHAPE, dtype=np.float64))
    with pytest.raises(ValueError, match="C-contiguous"):
        state.observation_tensor(np.zeros(OBSERVATION_SHAPE[::-1], dtype=np.float32).T)
    with pytest.raises(TypeError, match="numpy array"):
        state.legal_actions_mask([False] * NUM_ACTIONS)


# --- Swarm (issue 27, item 7) -------------------------------------------------------------
@pytest.mark.parametrize("game_type", ["Base+MLP+Swarm", "Base+HoneyCombo+Swarm"])
def test_swarm_entries_have_actions_and_a_draw_is_a_chance_node(game_type):
    """Every choice, draw and steal has its own action and back, unchecked as
    checked; while a draw is due the State is a chance node whose outcomes are
    the draws, each by the copies of its colour and bug in the bag; the planes
    hold the bag, the other colour's pieces in each hand and the draw due."""
    kinds, chance_nodes = set(), 0
    for board in random_boards(game_type, 5, games=2, plies=60):
        state, moves, actions = actions_of(board)
        kinds |= {move.kind for move in moves}
        for action in actions.tolist()[:8]:
            child = state.clone()
            child.apply_unchecked(action)
            assert child.key == state.child(action).key
        planes = state.observation_tensor()
        assert planes[PLANE_DRAW_DUE].all() == board.draw_due == state.is_chance_node()
        if board.draw_due:
            chance_nodes += 1
            assert state.current_player() == CHANCE_PLAYER and "chance" in repr(state)
            outcomes = state.chance_outcomes()
            assert [a for a, _ in outcomes] == actions.tolist()
            bag = board.bag()
            for action, probability in outcomes:
                drawn = state.action_to_move(action).piece_name
                copies = sum(name[:2] == drawn[:2] and name.rstrip("0123456789") == drawn.rstrip("0123456789")
                             for name in bag)
                assert probability == copies / len(bag)
        else:
            assert state.chance_outcomes() == [] and state.current_player() == board.side_to_move
        expected = {AWAY_BAG: np.zeros(NUM_KINDS), AWAY_OTHER_HAND: np.zeros(NUM_KINDS)}
        for piece in range(COLOURED_PIECES):
            color, bug = PIECES[piece][:2]
            away = int(board.state.away[piece])
            if away in expected and board.piece_cell(piece) < 0:
                expected[away][color * NUM_BUGS + bug] += 1 / BUGS[bug].copies
        assert planes[PLANE_BAG:PLANE_BAG + NUM_KINDS, 0, 0] == pytest.approx(expected[AWAY_BAG])
        assert planes[PLANE_OTHER_HAND:PLANE_OTHER_HAND + NUM_KINDS, 0, 0] == pytest.approx(expected[AWAY_OTHER_HAND])
    assert {"choose", "draw", "steal"} <= kinds and chance_nodes >= 5


def test_playouts_in_swarm_leave_the_state_and_a_draws_odds_are_the_bags_copies():
    state = State("Base+MLP+Swarm")
    results, plies = playouts(state, 4, seed=3, max_plies=300)
    assert state.ply == 0 and plies > 4 * 20 and set(results.tolist()) <= {IN_PROGRESS, WHITE_WINS, BLACK_WINS, DRAW}
    board = Board("Base+Swarm")
    for text in ("choose wS1 wS2 wB1", "choose bS1 bB1 bB2", "wS1"):  # the bag: 14 pieces of 6 kinds
        board.push_uhp(text)
    state = State.from_board(board)
    odds = {state.action_to_move(action).piece_name: p for action, p in state.chance_outcomes()}
    assert odds == {"wB2": 1 / 14, "wG1": 3 / 14, "wA1": 3 / 14, "bS2": 1 / 14, "bG1": 3 / 14, "bA1": 3 / 14}
    # The playouts' draw: r from 0 to 13 picks each of the bag's 14 pieces once.
    s, moves = board.state, np.empty(MAX_MOVES, dtype=np.int32)
    n = generate_moves(s, moves)
    drawn = Counter(Move(int(_random_entry(s, moves, n, np.uint64(r)))).piece_name for r in range(14))
    assert {name: count / 14 for name, count in drawn.items()} == odds
