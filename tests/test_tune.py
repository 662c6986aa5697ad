"""The tuner's data from arena matches: positions of games played at a real
time control, labelled with their results (bench.tune.arena_rows)."""

import json
import random

import numpy as np

from bench.tune import FIRST_LABELLED_PLY, arena_rows, fit, loss
from engine.evaluate import DEFAULT_WEIGHTS, board_features
from engine.game import Board


def random_game(seed, plies):
    board, rng = Board("Base+MLP", repetition_draw=True), random.Random(seed)
    while board.ply < plies and not board.is_game_over:
        board.push(rng.choice(board.legal_moves))
    return board


def test_arena_games_give_a_row_a_position_from_ply_8_labelled_with_the_result(tmp_path):
    games = [(random_game(1, 30), "1-0", "Queen surrounded"), (random_game(2, 24), "1/2-1/2", "repetition"),
             (random_game(3, 40), "1/2-1/2", "ply limit")]
    with open(tmp_path / "games.jsonl", "w") as handle:
        for board, result, termination in games:
            handle.write(json.dumps({"game_string": board.game_string(), "result": result,
                                     "termination": termination}) + "\n")
    rows, results = arena_rows(tmp_path)
    expected_rows, expected_results = [], []
    for board, result, _ in games[:2]:  # the ply-limit game is left out
        moves = board.game_string().split(";")[3:]
        for ply in range(FIRST_LABELLED_PLY, board.ply + 1):
            position = Board.from_game_string(";".join(["Base+MLP", "InProgress", "White[1]", *moves[:ply]]))
            if not position.is_game_over:
                expected_rows.append(board_features(position))
                expected_results.append({"1-0": 1.0, "1/2-1/2": 0.5}[result])
    assert len(expected_rows) > 30
    assert results == expected_results
    assert all(np.array_equal(row, expected) for row, expected in zip(rows, expected_rows, strict=True))
    x, y = np.array(rows, dtype=np.float64), np.array(results)
    fitted = fit(x, y, DEFAULT_WEIGHTS, prior=0.002, steps=200)
    assert loss(x, y, fitted.astype(np.float64)) < loss(x, y, DEFAULT_WEIGHTS.astype(np.float64))
