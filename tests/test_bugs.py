"""Exact moves of every bug in small drawn positions (rules.md, "The bugs").

Each position is a GameString; the comment above it draws the board (from
`reference.draw`): one line per row r of the axial grid, each row shifted half a
hex from the one above, so a cell touches the cells left and right of it and
the two nearest above and below. A cell shows its top piece, `^h` a stack of h
pieces, `*` the expected destinations of the piece under test, `.` other empty
cells next to the hive. Coordinates are axial (q, r) with the first piece on
(0, 0): q grows to the east, r to the south-east (uhp.md, "Directions").

Every expected set is asserted on the engine (`Board`, through the one adapter
of test_reference.py) and on the reference generator alike. Black's moves that
only pass the time are its Queen stepping between (2, 0) and (2, -1).
"""

import pytest

from engine.game import Board
from engine.rules.notation import parse_piece, piece_name

from .conftest import read_nokamute_cases
from .reference import BUGS, Position, piece_names
from .test_reference import engine_moves


def destinations(moves, piece):
    """The cells a piece can go to, in a set of moves in the reference's form."""
    return {move[1] for move in moves if move != "pass" and move[0] == piece}


def assert_moves(game_string, expected):
    """Each piece of `expected` has exactly those destinations, in the engine and
    in the reference; and the engine lists no move twice (rules.md, "Pillbug": a
    cell reached by a piece's own move and by a throw is one move)."""
    board = Board.from_game_string(game_string)
    position = Position.from_game_string(game_string)
    ours = engine_moves(board)
    assert len(board.legal_moves) == len(ours), f"the engine lists a move twice in {game_string}"
    theirs = position.legal_moves()
    for piece, cells in expected.items():
        assert destinations(ours, piece) == cells, f"engine: {piece} in {game_string}"
        assert destinations(theirs, piece) == cells, f"reference: {piece} in {game_string}"


# --- Queen Bee, Spider, Grasshopper, Ladybug -------------------------------------------
LINE = "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-"


def test_queen_slides_one_step_around_the_hive():
    """rules.md, "Queen Bee": one sliding step, staying in touch with the hive.
    #      .     *     .     .     .
    #   .     wQ   wS1   bS1    bQ    .
    #      .     *     .     .     .
    wS1 is pinned (One Hive)."""
    assert_moves(LINE, {"wQ": {(0, -1), (-1, 1)}, "wS1": set()})


def test_spider_takes_exactly_three_steps():
    """rules.md, "Spider": three sliding steps, no cell twice; along the top of
    the line or along its bottom.
    #                           .     .
    #      .     .     .     *     bQ    .
    #   .    wS2    wQ   wS1   bS1    .
    #      .     .     .     *     ."""
    game = "Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wS2 -wQ;bQ bS1/"
    assert_moves(game, {"wS2": {(1, -1), (0, 1)}})


def test_grasshopper_jumps_over_a_line_and_a_stack():
    """rules.md, "Grasshopper": over one or more occupied cells (a stack counts as
    one) to the first empty one; wG1 east over five cells, south-east over wG2.
    #      .     .     .     .     .     .
    #   .    wG1    wQ   wS1   bS1  bB1^2   *
    #      .    wG2    .     .     .     .
    #         .     *
    wG2 jumps north-east over wQ to (0, -1) and north-west over wG1 to (-2, -1)."""
    game = "Base;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wG1 -wQ;bB1 bQ-;wG2 /wQ;bB1 bQ"
    assert_moves(game, {"wG1": {(3, 0), (-2, 2)}, "wG2": {(0, -1), (-2, -1)}})


def test_ladybug_goes_up_along_and_down():
    """rules.md, "Ladybug": up onto wQ, along to wS1, down to an empty cell next
    to wS1 (never onto the hive, never back home).
    #      .     .     *     *     .     .     .
    #   .     wL    wQ   wS1   bS1    bQ    bL    .
    #      .     .     *     *     .     .     ."""
    game = "Base+L;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wL -wQ;bL bQ-"
    assert_moves(game, {"wL": {(0, -1), (1, -1), (-1, 1), (0, 1)}})


# --- Soldier Ant and the gate ----------------------------------------------------------
# The empty cell (-1, 1) between wG1 and wA1 has five occupied neighbours: from
# its only open side, (-1, 2), both cells it shares with it are occupied.
POCKET = (
    "Base;InProgress;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wG1 /wQ;bQ bS1/;wA1 wG1\\;bQ bS1-;"
    "wA1 wS1\\;bQ bS1/;wB1 wG1\\;bQ bS1-;wA2 \\wQ;bQ bS1/"
)


def test_ant_goes_anywhere_around_the_hive_but_through_a_gate():
    """rules.md, "Soldier Ant" and "Freedom to move": every empty cell around the
    hive (once the ant is lifted) except the gated pocket (-1, 1).
    #      .     .           *     *
    #   .    wA2    *     *     bQ    *
    #      *     wQ   wS1   bS1    *
    #   *    wG1    .    wA1    *
    #      *    wB1    *     *
    #         *     *
    wQ and wG1 are pinned: each holds a part of the hive to the rest."""
    expected = {
        (0, -1), (1, -1), (2, -2), (3, -2), (3, -1), (2, 0), (1, 1), (0, 2),
        (-1, 2), (-2, 3), (-3, 3), (-3, 2), (-3, 1), (-2, 0),
    }  # fmt: skip
    assert_moves(POCKET, {"wA2": expected, "wQ": set(), "wG1": set()})


def test_a_wall_piece_slides_into_the_pocket():
    """The gate is made of wB1 itself: lifted, it leaves (-1, 1) open; it may also
    climb onto wG1 (rules.md, "Beetle"), but not slide away from the hive.
    #      .     .           .     .
    #   .    wA2    .     .     bQ    .
    #      .     wQ   wS1   bS1    .
    #   .    wG1    *    wA1    .
    #      *    wB1    .     .
    #         .     ."""
    assert_moves(POCKET, {"wB1": {(-1, 1), (-2, 1), (-3, 2)}})


# --- Beetle, stacks and the climbing rule ------------------------------------------------
def test_beetle_on_top_moves_to_any_neighbour_and_the_piece_under_it_is_stuck():
    """rules.md, "Beetle": on top of wQ it may step onto wS1 or down anywhere;
    wQ under it does not move ("A piece with another piece on top of it cannot
    move").
    #      *     *     .     .     .
    #   *   wB1^2  wS1   bS1    bQ    .
    #      *     *     .     .     ."""
    game = "Base;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 -wQ;bQ bS1/;wB1 wQ;bQ bS1-"
    assert_moves(game, {"wB1": {(0, 0), (0, -1), (-1, -1), (-2, 0), (-2, 1), (-1, 1)}, "wQ": set()})


# wM sits on wA1 between two stacks of two (wB1 on wG1, wB2 on wG2).
CLIMB = (
    "Base+M;InProgress;White[12];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wG1 \\wQ;bQ bS1/;wG2 /wQ;bQ bS1-;"
    "wB1 \\wG1;bQ bS1/;wB1 wG1;bQ bS1-;wB2 /wG2;bQ bS1/;wB2 wG2;bQ bS1-;wA1 -wQ;bQ bS1/;"
    "wM \\wA1;bQ bS1-;wM wA1;bQ bS1/"
)


def test_climbing_gate_on_top_of_the_hive():
    """rules.md, "Climbing rule": from wA1's top (height 1) to wQ (height 1)
    between two stacks of 2 is blocked: max(1, 1) < min(2, 2). On top, the
    mosquito moves as a beetle only (rules.md, "Mosquito").
    #         .     .           .     .
    #      *   wB1^2   .     .     bQ    .
    #   *    wM^2   wQ   wS1   bS1    .
    #      *   wB2^2   .     .     .
    #         .     .
    The covered wA1, wG1 and wG2 do not move."""
    assert_moves(
        CLIMB,
        {
            "wM": {(-1, -1), (-2, -1), (-3, 0), (-3, 1), (-2, 1)},
            "wA1": set(),
            "wG1": set(),
            "wG2": set(),
        },
    )


def test_beetles_on_top_are_not_gated_by_lower_stacks():
    """The same position: wB1 (on wG1) and wB2 (on wG2) reach all six
    neighbours, up onto wM's stack of 2 or down; no pair of neighbours is higher
    than both ends of any of their steps."""
    everywhere = {
        "wB1": {(0, -1), (0, -2), (-1, -2), (-2, -1), (-2, 0), (-1, 0)},
        "wB2": {(-1, 1), (-1, 0), (-2, 0), (-3, 1), (-3, 2), (-2, 2)},
    }
    assert_moves(CLIMB, everywhere)


# --- Mosquito -----------------------------------------------------------------------
def test_mosquito_next_to_a_beetle_stack_moves_as_the_beetle_only():
    """rules.md, "Mosquito": the top piece lends its movement (wB1), not the
    grasshopper under it, which would jump to (-1, 1).
    #      .     .
    #   .     wM    *           .     .
    #      *   wB1^2   .     .     bQ    .
    #         .     wQ   wS1   bS1    .
    #      .   wB2^2   .     .     .
    #         .     ."""
    game = (
        "Base+M;InProgress;White[10];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wG1 \\wQ;bQ bS1/;wG2 /wQ;bQ bS1-;"
        "wB1 \\wG1;bQ bS1/;wB1 wG1;bQ bS1-;wB2 /wG2;bQ bS1/;wB2 wG2;bQ bS1-;wM \\wB1;bQ bS1/"
    )
    assert_moves(game, {"wM": {(-1, -1), (0, -2), (-2, -1)}})


def test_mosquito_touching_only_a_mosquito_cannot_move():
    """rules.md, "Mosquito": a neighbouring mosquito lends nothing. wM walked
    there as an ant (copying wA1) on its last turn.
    #      .     .     .     .     .     .     .     .
    #   .    wA1    wQ   wS1   bS1    bQ    bM    wM    .
    #      .     .     .     .     .    bA1    .     .
    #                                 .    bA2    .
    #                                    .     ."""
    game = (
        "Base+M;InProgress;White[6];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bM bQ-;wM \\wQ;bA1 bQ\\;"
        "wM bM-;bA2 bA1\\"
    )
    assert_moves(game, {"wM": set()})


def test_mosquito_next_to_a_pillbug_moves_and_throws_as_one():
    """rules.md, "Mosquito": next to wQ and wP, wM slides one step and throws
    wQ and wP over itself; wP throws wQ and wM over itself too.
    #         .     .     .     .     .
    #      *     wQ   wS1   bS1    bQ    .
    #   .     wM    wP    *     .     .
    #      .     *     *
    (the cells marked are wM's: its slides to (-2, 0) and (-2, 2), and wP
    throwing it to (0, 1), (-1, 2) and (-2, 2))."""
    game = "Base+MP;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wP /wS1;bQ bS1/;wM -wP;bQ bS1-"
    mosquito_throws = {(-2, 0), (-3, 1), (-3, 2), (-2, 2)}  # empty cells around wM
    pillbug_throws = {(0, 1), (-1, 2), (-2, 2)}  # empty cells around wP
    assert_moves(
        game,
        {
            "wM": {(-2, 0), (-2, 2)} | {(0, 1), (-1, 2), (-2, 2)},
            "wQ": {(0, -1), (-2, 0)} | mosquito_throws | pillbug_throws,
            "wP": {(0, 1), (-2, 2)} | mosquito_throws,
        },
    )


def test_mosquito_on_top_next_to_a_pillbug_has_no_power():
    """rules.md, "Mosquito": the pillbug's power only "from the ground": wM on
    top of wQ moves as a beetle to all six neighbours, but throws neither wB1
    (which would reach (0, -1)) nor wP (which would reach (0, -1) and (-1, -1)).
    #      .     *     *     .     .     .
    #   .    wB1   wM^2  wS1   bS1    bQ    .
    #      .     *     wP    .     .     .
    #               .     ."""
    game = (
        "Base+MP;InProgress;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wP /wS1;bQ bS1/;wM -wP;bQ bS1-;"
        "wB1 -wQ;bQ bS1/;wM wQ;bQ bS1-"
    )
    assert_moves(
        game,
        {
            "wM": {(0, 0), (0, -1), (-1, -1), (-2, 0), (-2, 1), (-1, 1)},
            "wB1": {(-1, 0), (-1, -1), (-2, 1)},
            "wP": {(0, 1), (-2, 1)},
        },
    )


# --- Pillbug --------------------------------------------------------------------------
def test_pillbug_moves_and_throws():
    """rules.md, "Pillbug": wP slides one step, and throws wQ onto any empty cell
    next to itself; (-2, 1), which wQ also reaches by sliding, is one move. wS1
    cannot be thrown: without it the hive splits.
    #      .     *     .     .     .
    #   .     wQ   wS1   bS1    bQ    .
    #      *     wP    *     .     bP    .
    #         *     *           .     ."""
    game = "Base+P;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wP /wS1;bP bQ\\"
    assert_moves(
        game,
        {"wP": {(0, 1), (-2, 1)}, "wQ": {(0, -1), (-2, 1), (0, 1), (-2, 2), (-1, 2)}, "wS1": set()},
    )


def test_a_pinned_pillbug_still_throws():
    """rules.md, "Pillbug": "the power works even when the pillbug itself is
    pinned": wP holds wG1 to the hive, so it cannot move, yet it throws wQ and wG1.
    #      .     *     .     .     .
    #   .     wQ   wS1   bS1    bQ    .
    #      *     wP    *     .     .
    #         *    wG1    .
    #            .     .
    wG1 also jumps north-west over wP and wQ to (-1, -1)."""
    game = "Base+P;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wP /wS1;bQ bS1/;wG1 wP\\;bQ bS1-"
    throws = {(0, 1), (-2, 1), (-2, 2)}
    assert_moves(game, {"wP": set(), "wQ": {(0, -1)} | throws, "wG1": {(-1, -1)} | throws})


# bA1 walks next to wP; White passes the time with wG2; Black with bS2; then wP
# throws bA1 to (-1, 2).
LAST = [
    "Base+P;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wP /wS1;bA1 bQ\\;wG1 -wQ;bA1 wP-",
    ";wG2 /wG1;bS2 bQ\\",
    ";bA1 wP\\",
]


def test_the_piece_moved_last_cannot_be_thrown():
    """rules.md, "Pillbug": "it may not be the piece the opponent moved or placed
    on the previous turn"; a turn later it may be thrown.
    #         .     .     .     .     .     .
    #      .    wG1    wQ   wS1   bS1    bQ    .
    #   .    wG2    *     wP   bA1    .    bS2    .
    #      .     .     *     *     .     .     .
    (two plies later; just after bA1's move, without wG2 and bS2, no star)."""
    just_moved, later = LAST[0], LAST[0] + LAST[1]
    assert_moves(just_moved, {"bA1": set()})
    assert_moves(later, {"bA1": {(-2, 1), (-2, 2), (-1, 2)}})


def test_the_thrown_piece_cannot_move_on_the_next_turn():
    """rules.md, "Pillbug": "the piece thrown cannot move ... on the next turn":
    Black's ant has no move right after wP threw it.
    #         .     .     .     .     .     .
    #      .    wG1    wQ   wS1   bS1    bQ    .
    #   .    wG2    .     wP    .     .    bS2    .
    #      .     .     .    bA1    .     .     .
    #                     .     ."""
    assert_moves("".join(LAST), {"bA1": set()})
    # The same ant, given a turn in between, walks again.
    board = Board.from_game_string("".join(LAST))
    board.push_uhp("bG1 bQ-")
    board.push_uhp("wG3 /wG2")
    assert destinations(engine_moves(board), "bA1")


def test_a_stacked_piece_cannot_be_thrown():
    """rules.md, "Pillbug": "the taken piece must be on the ground with nothing
    on top of it": wB1 on wQ next to wP only moves as a beetle (no throw to
    (0, 1), (-1, 2) or (-2, 2)), and wQ under it not at all.
    #                     .     .
    #      *     *     .     bQ    .
    #   *   wB1^2  wS1   bS1    .
    #      *     wP    .     .
    #         .     ."""
    game = "Base+P;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wP /wS1;bQ bS1/;wB1 /wQ;bQ bS1-;wB1 wQ;bQ bS1/"
    assert_moves(
        game,
        {"wB1": {(0, 0), (0, -1), (-1, -1), (-2, 0), (-2, 1), (-1, 1)}, "wQ": set(), "wP": {(0, 1), (-2, 1)}},
    )


def test_a_covered_pillbug_has_no_power():
    """rules.md, "Pillbug": "the pillbug cannot use the power if it is itself
    covered": with wB1 on wP, wQ only slides.
    #      .     *     .     .     .
    #   .     wQ   wS1   bS1    bQ    .
    #      *   wB1^2   .     .     .
    #         .     ."""
    game = (
        "Base+P;InProgress;White[6];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wP /wS1;bQ bS1/;wB1 /wQ;bQ bS1-;"
        "wB1 wQ;bQ bS1/;wB1 wP;bQ bS1-"
    )
    assert_moves(game, {"wQ": {(0, -1), (-2, 1)}, "wP": set()})


def test_two_stacks_block_a_throw_like_a_gate():
    """rules.md, "Pillbug": the drop from wP's top (height 1) to (-2, 2) passes
    between two stacks of 2 (wB1 on wG1, wB2 on wG2): max(1, 0) < min(2, 2), so
    wQ is thrown to (0, 1) only (and slides to (0, -1) and (-2, 0)).
    #                        .     .
    #         .     *     .     bQ    .
    #      *     wQ   wS1   bS1    .
    #   .   wB1^2   wP    *     .
    #      .     .   wB2^2   .
    #               .     ."""
    game = (
        "Base+P;InProgress;White[9];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wP /wS1;bQ bS1/;wG1 -wP;bQ bS1-;"
        "wG2 wP\\;bQ bS1/;wB1 -wG1;bQ bS1-;wB1 wG1;bQ bS1/;wB2 wG2\\;bQ bS1-;wB2 wG2;bQ bS1/"
    )
    assert_moves(game, {"wQ": {(0, -1), (-2, 0), (0, 1)}})


# bP walks next to wP and throws it to (1, 1); Black's Queen then steps away.
THROWN_PILLBUG = (
    "Base+P;InProgress;White[6];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wP /wS1;bP bS1\\;wG1 -wQ;bP wP-;"
    "wG2 /wG1;wP bP-"
)


def test_a_pillbug_thrown_last_turn_has_no_power():
    """rules.md, "Pillbug": the pillbug cannot use the power "if it is the piece
    the opponent just moved" (and the thrown piece cannot move): wP, just thrown
    by bP, neither moves nor throws bQ or bP over itself.
    #         .     .     .     .     .     .
    #      .    wG1    wQ   wS1   bS1    bQ    .
    #   .    wG2    .     .     bP    wP    .
    #      .     .           .     .     .
    A turn later (bQ gone to (2, -1)) wP slides and throws bP again."""
    assert_moves(THROWN_PILLBUG, {"wP": set(), "bQ": set(), "bP": set()})
    later = THROWN_PILLBUG + ";wG3 /wG2;bQ bS1/"
    assert_moves(later, {"wP": {(2, 0), (0, 2)}, "bP": {(2, 0), (2, 1), (1, 2), (0, 2)}})


# --- Turns (rules.md, "Turns") ----------------------------------------------------------
def test_first_placements():
    """White's first piece goes on the origin, Black's next to it; no Queen yet."""
    board = Board("Base")
    first = {("wS1", (0, 0)), ("wB1", (0, 0)), ("wG1", (0, 0)), ("wA1", (0, 0))}
    assert engine_moves(board) == first == Position("Base").legal_moves()
    board.push_uhp("wG1")
    around = {(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)}
    second = {(piece, cell) for piece in ("bS1", "bB1", "bG1", "bA1") for cell in around}
    assert engine_moves(board) == second == Position.from_game_string(board.game_string()).legal_moves()


def test_no_movement_before_the_queen():
    """Without its Queen in play a side only places, the lowest copy of each bug.
    #      .     .     .     .     .
    #   .    wG1   wS1   bS1   bG1    .
    #      .     .     .     .     ."""
    game = "Base;InProgress;White[3];wS1;bS1 wS1-;wG1 -wS1;bG1 bS1-"
    for moves in (engine_moves(Board.from_game_string(game)), Position.from_game_string(game).legal_moves()):
        assert {piece for piece, _ in moves} == {"wQ", "wS2", "wB1", "wG2", "wA1"}


def test_queen_by_the_fourth_turn():
    """On White's fourth turn with the Queen in hand, only Queen placements: on
    the cells touching white and no black piece.
    #      *     *     *     .     .     .     .
    #   *    wA1   wG1   wS1   bS1   bG1   bA1    .
    #      *     *     *     .     .     .     ."""
    game = "Base;InProgress;White[4];wS1;bS1 wS1-;wG1 -wS1;bG1 bS1-;wA1 -wG1;bA1 bG1-"
    cells = {(0, -1), (-1, -1), (-2, -1), (-3, 0), (-3, 1), (-2, 1), (-1, 1)}
    expected = {("wQ", cell) for cell in cells}
    assert engine_moves(Board.from_game_string(game)) == expected == Position.from_game_string(game).legal_moves()


def test_pass_when_no_move_exists():
    """rules.md, "End of the game": a player with no legal move passes, and only then."""
    game = next(game for title, game, _ in read_nokamute_cases() if title == "Pass")
    assert engine_moves(Board.from_game_string(game)) == {"pass"} == Position.from_game_string(game).legal_moves()


# --- The table of bugs -------------------------------------------------------------------
@pytest.mark.parametrize("letter", [code for code, row in BUGS.items() if row.token in (None, "M", "L", "P")])
def test_every_bug_of_the_table_is_named_alike(letter):
    """The reference's table and the engine's notation agree on each official
    bug's copies and names (rules.md, "Pieces"): wS1, wS2 round-trip; wS3 does
    not exist. (The fan bugs' rows are held to the spec in test_fan_examples.py.)"""
    for side in "wb":
        names = piece_names(side, letter)
        assert len(names) == BUGS[letter].copies
        assert [piece_name(parse_piece(name)) for name in names] == names
        with pytest.raises(ValueError):
            parse_piece(f"{side}{letter}{BUGS[letter].copies + 1}")


def test_make_and_unmake_restore_the_position_for_every_kind_of_move():
    """Placements, moves and throws (of both pillbugs and the mosquito) alike:
    push then pop gives back the same GameString, key and legal moves."""
    game = "Base+MP;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wP /wS1;bQ bS1/;wM -wP;bQ bS1-"
    board = Board.from_game_string(game)
    before = (board.game_string(), board.key, engine_moves(board))
    for move in board.legal_moves:
        board.push(move)
        board.pop()
        assert (board.game_string(), board.key, engine_moves(board)) == before, board.uhp(move)
