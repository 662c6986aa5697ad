"""Game records: MzingaViewer's PGN-like files and the match runner's, read, written
and replayed (engine/pgn.py)."""

import io
import random

import pytest

from engine.rules.errors import IllegalMoveError, NotationError
from engine.game import Board
from engine.pgn import Game, read_game, read_games

from .conftest import read_nokamute_cases

NOKAMUTE = {title: game_string for title, game_string, _ in read_nokamute_cases()}

# As MzingaViewer saves a game (GameRecording.SavePGN): the tags in its order, one
# ply a line, commentary in braces after its ply, the result as a game state.
MZINGA_FILE = """[GameType "Base+MLP"]
[Date "2024.03.01"]
[Event "Casual"]
[Site "Home"]
[Round ""]
[White "Mzinga"]
[Black "hexbee"]
[Result "BlackWins"]
[Opening "Pillbug"]

{A Pillbug
opening}
1. wP
2. bL wP-
{the Ladybug
  answers}
3. wQ -wP

BlackWins
"""

# As the match runner wrote games.pgn before the library did: PGN results, and
# the reason and result on one line.
OLD_ARENA_FILE = """[Event "hexbee arena"]
[Result "1-0"]
[GameType "Base"]

1. wS1
2. bS1 wS1-
{bad (black) answered garbage} 1-0
[Event "hexbee arena"]
[Result "1/2-1/2"]
[GameType "Base"]

1. wS1
{adjudicated} 1/2-1/2
"""


def test_a_board_recorded_and_read_back_replays_to_the_same_board():
    board = Board.from_game_string(NOKAMUTE["White wins"])
    game = Game.from_board(board, White="hexbee", Black="nokamute", Round=3)
    assert game.result == "1-0" and game.game_type == "Base"
    text = str(game)
    assert '[Result "WhiteWins"]' in text and text.endswith("\n\nWhiteWins\n") and "\n1. wS1\n" in text
    again = read_game(io.StringIO(text))
    assert again == game and again.headers["Round"] == "3"
    assert again.board() == board and again.board().game_string() == board.game_string()
    positions = [b.key for b in again.positions()]
    assert len(positions) == board.ply + 1 and positions[-1] == board.key


def test_mzinga_viewers_file_reads_with_its_tags_comments_and_result():
    game = read_game(io.StringIO(MZINGA_FILE))
    assert game.game_type == "Base+MLP" and game.result == "0-1"
    assert list(game.headers) == ["GameType", "Date", "Event", "Site", "Round", "White", "Black", "Result", "Opening"]
    assert game.headers["Opening"] == "Pillbug" and game.headers["Round"] == ""
    assert game.moves == ["wP", "bL wP-", "wQ -wP"]
    assert game.comments == {0: "A Pillbug\nopening", 2: "the Ladybug\nanswers"}
    assert game.board().game_string() == "Base+MLP;InProgress;Black[2];wP;bL wP-;wQ -wP"
    # Written back in the viewer's form, it reads back the same.
    assert read_game(io.StringIO(str(game))) == game
    assert str(game).splitlines()[:9] == MZINGA_FILE.splitlines()[:9]


def test_the_old_arena_form_with_results_after_comments_reads_as_two_games():
    first, second = read_games(io.StringIO(OLD_ARENA_FILE))
    assert (first.result, first.moves, first.comments) == ("1-0", ["wS1", "bS1 wS1-"], {2: "bad (black) answered garbage"})
    assert (second.result, second.moves, second.comments) == ("1/2-1/2", ["wS1"], {1: "adjudicated"})
    assert first.board().outcome() is None  # a forfeit: the file's result, not the rules'


def test_a_game_without_moves_or_result():
    game = Game("Base+M")
    assert str(game) == "\n".join(f'[{tag} "{value}"]' for tag, value in [
        ("GameType", "Base+M"), ("Date", ""), ("Event", ""), ("Site", ""), ("Round", ""), ("White", ""),
        ("Black", ""), ("Result", "NotStarted")]) + "\n"
    assert read_game(io.StringIO(str(game))) == game
    assert read_game(io.StringIO("")) is None and list(read_games(io.StringIO("\n\n"))) == []


def test_tag_values_with_quotes_and_backslashes_survive():
    game = Game("Base", headers={"White": 'the "best" \\ engine'})
    assert read_game(io.StringIO(str(game))).headers["White"] == 'the "best" \\ engine'
    # MzingaViewer writes a quote as it is.
    assert read_game(io.StringIO('[White "a "b" c"]\n1. wS1\n')).headers["White"] == 'a "b" c'


def test_read_games_from_a_path(tmp_path):
    path = tmp_path / "games.pgn"
    path.write_text(OLD_ARENA_FILE + "\n" + MZINGA_FILE)
    assert [game.result for game in read_games(path)] == ["1-0", "1/2-1/2", "0-1"]
    assert [game.result for game in read_games(str(path))] == ["1-0", "1/2-1/2", "0-1"]


@pytest.mark.parametrize("text, message", [
    ('[White "x"\n1. wS1\n', r"Line 1: malformed tag"),
    ('[White "x"]\n{never closed\n1. wS1\n', r"comment opened with '\{' is never closed"),
    ('[Result "Won"]\n1. wS1\n', r"unknown result 'Won'"),
    ('[GameType "Base+Z"]\n1. wS1\n', r"Unknown game type"),
    ('1. wS1\n2. b!\n', r"Line 2: Unknown piece 'b!'"),
])
def test_a_malformed_file_says_where(text, message):
    with pytest.raises(NotationError, match=message):
        read_game(io.StringIO(text))


def test_a_bad_move_is_found_on_replay_and_named():
    game = read_game(io.StringIO('[GameType "Base"]\n1. wS1\n2. wQ wS1-\n'))
    with pytest.raises(IllegalMoveError, match=r"Move 2 'wQ wS1-': It's not that player's turn"):
        game.board()
    with pytest.raises(IllegalMoveError, match=r"Move 2 'wQ wS1-'"):
        list(game.positions())


def test_wrong_arguments():
    with pytest.raises(TypeError, match="a path or a text stream"):
        list(read_games(3))
    with pytest.raises(ValueError, match="Unknown result"):
        Game("Base").result = "white"


def test_read_game_takes_a_path_as_read_games_does(tmp_path):
    """Issue 29, item 8: read_game('game.pgn') used to fail with an AttributeError."""
    board = Board("Base")
    board.push_uhp("wS1")
    path = tmp_path / "game.pgn"
    path.write_text(str(Game.from_board(board)) + "\n", encoding="utf-8")
    assert read_game(path).moves == read_game(str(path)).moves == next(read_games(path)).moves


def rare_kinds_game(seed, plies=150, game_type="Base+MLP+Venom+Predators"):
    """A seeded random game that plays a kind other than a placement, move or flip
    half the times it can: stings, swaps, removals, control, throws."""
    rng = random.Random(seed)
    board = Board(game_type)
    while board.ply < plies and not board.is_game_over():
        moves = board.legal_moves
        rare = [move for move in moves if move.kind not in ("place", "move", "flip")]
        board.push(rng.choice(rare if rare and rng.random() < 0.5 else moves))
    return board


def test_venom_and_predators_games_are_recorded_and_replay():
    boards = [rare_kinds_game(1), rare_kinds_game(5)]  # 150 plies in progress; the Mantis takes wQ on ply 9
    assert {"flip", "sting", "swap", "remove", "control"} <= {move.kind for move in boards[0].move_stack}
    text = "".join(str(Game.from_board(board)) for board in boards)
    games = list(read_games(io.StringIO(text)))
    assert [game.board().game_string() for game in games] == [board.game_string() for board in boards]
    assert [game.result for game in games] == ["*", "1-0"] and all(mark in text for mark in (" @", " ~", " =", " x"))


def test_s004_games_are_recorded_and_replay():
    """The S004 Wasp's sting (`!`), the Queen's sting to hand (`x`) and the
    Firefly's command (`@`) are written and read back to the same game."""
    board = rare_kinds_game(3, game_type="Base+MP+Fx+Wx")
    kinds = {move.kind for move in board.move_stack}
    assert {"wasp sting", "to hand", "throw"} <= kinds, kinds
    text = str(Game.from_board(board))
    assert all(mark in text for mark in (" !", " x", " @")), text
    assert read_game(io.StringIO(text)).board().game_string() == board.game_string()


def test_a_honeycomb_game_is_recorded_and_replays():
    """EX-H2's double turn, its flip `nH ~` and both of its entries, read back."""
    board = Board.from_game_string("Base+HoneyCombo;InProgress;White[4];wA1 nH-;bA1 -nH;wQ wA1-;bQ -bA1;nH ~;"
                                   "bG1 -bQ;wG1 wQ-")
    board.push_uhp("wG2 wG1-")
    text = str(Game.from_board(board))
    assert " nH ~" in text
    assert read_game(io.StringIO(text)).board().game_string() == board.game_string()


def test_a_swarm_game_is_recorded_and_replays():
    """Swarm's entries are plies of the record: the choices, each draw after its
    placement and the steals, read back to the same game (and the same bag)."""
    board = rare_kinds_game(7, plies=120, game_type="Base+MLP+HoneyCombo+Swarm")
    kinds = {move.kind for move in board.move_stack}
    assert {"choose", "draw", "steal"} <= kinds, kinds
    text = str(Game.from_board(board))
    assert all(entry in text for entry in ("1. choose ", "2. choose ", " draw ", " steal ")), text
    replayed = read_game(io.StringIO(text)).board()
    assert replayed.game_string() == board.game_string() and replayed.bag() == board.bag()
