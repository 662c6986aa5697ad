"""The tuner's data from arena matches: positions of games played at a real
time control, labelled with their results (bench.tune.arena_rows)."""

import json
import random

import numpy as np

from bench.tune import FIRST_LABELLED_PLY, arena_rows, fit, held_out_loss, loss
from engine.search.evaluate import DEFAULT_WEIGHTS, board_features
from engine.game import Board


def random_game(seed, plies):
    board, rng = Board("Base+MLP", repetition_draw=True), random.Random(seed)
    while board.ply < plies and not board.is_game_over():
        board.push(rng.choice(board.legal_moves))
    return board


def test_arena_games_give_a_row_a_position_from_ply_8_labelled_with_the_result(tmp_path):
    games = [(random_game(1, 30), "1-0", "Queen surrounded"), (random_game(2, 24), "1/2-1/2", "repetition"),
             (random_game(3, 40), "1/2-1/2", "ply limit")]
    with open(tmp_path / "games.jsonl", "w") as handle:
        for board, result, termination in games:
            handle.write(json.dumps({"game_string": board.game_string(), "result": result,
                                     "termination": termination}) + "\n")
    rows, results, numbers = arena_rows(tmp_path)
    expected_rows, expected_results, expected_numbers = [], [], []
    for number, (board, result, _) in enumerate(games[:2]):  # the ply-limit game is left out
        moves = board.game_string().split(";")[3:]
        for ply in range(FIRST_LABELLED_PLY, board.ply + 1):
            position = Board.from_game_string(";".join(["Base+MLP", "InProgress", "White[1]", *moves[:ply]]))
            if not position.is_game_over():
                expected_rows.append(board_features(position))
                expected_results.append({"1-0": 1.0, "1/2-1/2": 0.5}[result])
                expected_numbers.append(number)
    assert len(expected_rows) > 30
    assert results == expected_results
    assert numbers == expected_numbers
    assert all(np.array_equal(row, expected) for row, expected in zip(rows, expected_rows, strict=True))
    x, y = np.array(rows, dtype=np.float64), np.array(results)
    fitted = fit(x, y, DEFAULT_WEIGHTS, prior=0.002, steps=200)
    assert loss(x, y, fitted.astype(np.float64)) < loss(x, y, DEFAULT_WEIGHTS.astype(np.float64))


def test_held_out_loss_scores_each_game_by_a_fit_that_never_saw_it():
    # Two kinds of games: White wins where feature 0 is high, loses where it is low.
    # The held-out fit must learn that from the other folds and beat the zero
    # starting weights (loss 0.25: every prediction one half) on every fold.
    rng = np.random.default_rng(5)
    games = np.repeat(np.arange(40), 10)
    white_wins = (games % 2 == 0)
    x = np.zeros((len(games), len(DEFAULT_WEIGHTS)))
    x[:, 0] = np.where(white_wins, 3, -3) + rng.integers(-1, 2, len(games))
    y = white_wins.astype(np.float64)
    start = np.zeros(len(DEFAULT_WEIGHTS), dtype=np.int64)
    before, after = held_out_loss(x, y, games, start, prior=0.0, folds=4)
    assert before == 0.25
    assert after < 0.1
    # A fold's positions are those of whole games: a fit to positions of the same
    # game would see what it is scored on. Games without signal cannot be learnt.
    y_noise = (rng.random(40) < 0.5)[games].astype(np.float64)
    x[:, 0] = rng.integers(-3, 4, len(games))
    _, after_noise = held_out_loss(x, y_noise, games, start, prior=0.0, folds=4)
    assert after_noise >= 0.2
