"""Tune the evaluation weights by self-play and logistic regression (Texel's method).

    python -m bench.tune --games 600 --depth 2 --rounds 2

Each round plays games of the engine against itself at a fixed depth, from random
openings (a few uniformly random legal plies, then searched moves), in all game
types with Base and Base+MLP most often. Every position from ply 8 on is labelled
with the game's result for White (1, 1/2, 0). The evaluation is linear in its
features, so the weights are fitted by gradient descent on the mean squared
error between the result and a logistic function of the evaluation; the next round
plays with the fitted weights. The result is printed as a Python list to paste
into engine/evaluate.py, where the weights and this command are recorded.
"""

import argparse
import json
import random
import time

import numpy as np

from engine.evaluate import (
    DEFAULT_WEIGHTS,
    NUM_WEIGHTS,
    W_QUEEN_FILLED,
    W_TEMPO,
    features,
)
from engine.search import Searcher

from .selfplay import play, random_opening

# Logistic scale: an evaluation of SCALE units is about a 73% expected score.
SCALE = 200.0


def game_rows(searcher, rng, depth, max_plies):
    """Feature rows of the positions of one self-play game (from ply 8 on), and
    the result for White (None if it was not decided within max_plies)."""
    rows = []
    scratch = np.zeros(NUM_WEIGHTS, dtype=np.int64)

    def record(board):
        if board.ply >= 8:
            features(board.state, scratch)
            rows.append(scratch.copy())

    result = play(random_opening(rng), searcher, searcher, {"depth": depth}, max_plies, record)
    return rows, result


def fit(x, y, start, steps=3000, rate=0.5):
    """Weights minimising mean((y - sigmoid(x @ w / SCALE))^2), by gradient descent
    (Adam) from `start`. The weight of six cells filled around a Queen is fixed
    at 0: that position is already a finished game."""
    w = start.astype(np.float64).copy()
    frozen = np.zeros(NUM_WEIGHTS, dtype=bool)
    frozen[W_QUEEN_FILLED + 6] = True
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    for step in range(1, steps + 1):
        p = 1.0 / (1.0 + np.exp(-(x @ w) / SCALE))
        grad = -2.0 * ((y - p) * p * (1 - p)) @ x / (SCALE * len(y))
        grad[frozen] = 0.0
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= rate * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-12)
    p = 1.0 / (1.0 + np.exp(-(x @ w) / SCALE))
    return np.rint(w).astype(np.int64), float(np.mean((y - p) ** 2))


def loss(x, y, w):
    p = 1.0 / (1.0 + np.exp(-(x @ w) / SCALE))
    return float(np.mean((y - p) ** 2))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=600, help="self-play games per round")
    parser.add_argument("--depth", type=int, default=2, help="search depth of the self-play moves")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--out", help="also write the weights to this JSON file")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    weights = DEFAULT_WEIGHTS.copy()
    xs, ys = [], []
    for round_number in range(1, args.rounds + 1):
        searcher = Searcher(weights)
        searcher.set_option("TranspositionTableSizeMB", 16)
        start = time.perf_counter()
        decided = 0
        for game in range(args.games):
            searcher.new_game()
            rows, result = game_rows(searcher, rng, args.depth, args.max_plies)
            if result is None:
                continue
            decided += 1
            xs.extend(rows)
            ys.extend([result] * len(rows))
        x = np.array(xs, dtype=np.float64)
        y = np.array(ys, dtype=np.float64)
        before = loss(x, y, weights.astype(np.float64))
        weights, after = fit(x, y, weights)
        weights[W_TEMPO] = max(weights[W_TEMPO], 0)
        print(f"round {round_number}: {decided}/{args.games} games decided, {len(y)} positions, "
              f"loss {before:.5f} -> {after:.5f}, {time.perf_counter() - start:.0f} s", flush=True)
    print("weights =", weights.tolist())
    if args.out:
        with open(args.out, "w") as handle:
            json.dump(weights.tolist(), handle)


if __name__ == "__main__":
    main()
