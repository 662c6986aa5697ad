"""Tune the evaluation weights by self-play and logistic regression (Texel's method).

    python -m bench.tune --games 1000 --depth 2 --rounds 3 --data tune.npz --out weights.json
    python -m bench.tune --games 0 --data tune.npz --prior 0.002    # refit saved positions only
    python -m bench.tune --games 0 --arena-games bench/results/M1 M2  # fit to arena matches' games
    python -m bench.tune --games 0 --arena-games docs/sprt/test3b docs/sprt/test4 docs/sprt/test5 --folds 4 --prior 0.0003 0.002  # held-out loss

Each round plays games of the engine against itself at a fixed depth, from random
openings (bench/selfplay.py), and labels every position from ply 8 on with the
game's result for White (1, 1/2, 0); games undecided after --max-plies are left
out. The evaluation is linear in its features (engine/search/evaluate.py), so the weights
are fitted by gradient descent on the mean squared error between the result and a
logistic function of the evaluation, plus a pull (--prior) towards the starting
weights, which keeps weights the data says little about where they were. The
next round plays with the fitted weights. Positions accumulate in --data. The
games are played on Dask like the arena's (bench/workers.py: a LocalCluster of
--concurrency workers, each keeping its Searcher, or --scheduler ADDRESS), or
with --local one after the other in this process.

--folds K measures how well a fit predicts games it has not seen: the arena games
are split into K folds by game, and each fold is scored by weights fitted to the
others, for each --prior given; the loss of the starting weights on the same
folds is the reference. A fit that only learns its own games shows up there.
"""

import argparse
import json
import os
import random
import time

import numpy as np

from engine.search.evaluate import QUEEN_SURROUNDED_UNCOVERED, W_QUEEN_FILLED, W_TEMPO, board_features

from engine.pgn import Game

from . import workers
from .records import read_records
from .scoreboard import POINTS
from .selfplay import Searchers, opening_board, play, read_weights, selfplay_opening

# Logistic scale: an evaluation of SCALE units is about a 73% expected score.
SCALE = 200.0
TABLE_MB = 16  # the self-play Searchers' transposition table
FIRST_LABELLED_PLY = 8  # earlier positions are the openings', not the players'


def game_rows(searcher, opening, depth, max_plies):
    """Feature rows of the positions of one self-play game from `opening` (a
    GameString), from ply 8 on, and the result for White (None if it was not
    decided within max_plies)."""
    rows = []

    def record(board):
        if board.ply >= FIRST_LABELLED_PLY:
            rows.append(board_features(board))

    result = play(opening_board(opening), searcher, searcher, {"depth": depth}, max_plies, record)
    return rows, result


def arena_rows(directory):
    """Feature rows, results (for White) and game numbers (counted from 0 in
    the folder) of the games of an arena match's folder (its games.jsonl), from
    ply 8 on: positions of games played at a real time control. Games stopped
    at the ply limit are left out, as undecided self-play games are."""
    rows, results, games = [], [], []
    decided = (record for record in read_records(directory) if record["termination"] != "ply limit")
    for number, record in enumerate(decided):
        result = POINTS[record["result"]][0]
        for board in Game.from_game_string(record["game_string"]).positions(repetition_draw=True):
            if board.ply >= FIRST_LABELLED_PLY and not board.is_game_over():
                rows.append(board_features(board))
                results.append(result)
                games.append(number)
    return rows, results, games


def _rows_on_worker(name, opening, depth, max_plies):
    from .cluster import cache

    with cache(name).pool.borrowed() as (searcher,):
        return game_rows(searcher, opening, depth, max_plies)


def play_round(cluster, weights, openings, depth, max_plies, accept):
    """Play one round's games with `weights` (in this process when `cluster`
    is None), passing each game's (rows, result) to `accept` as it finishes."""
    if cluster is None:
        searcher = Searchers([weights], TABLE_MB)()[0]
        for opening in openings:
            accept(game_rows(searcher, opening, depth, max_plies))
        return
    name = cluster.cached(Searchers([weights], TABLE_MB), "tune")
    try:
        cluster.stream(_rows_on_worker, [(name, opening, depth, max_plies) for opening in openings],
                       [f"{name}-game-{n}" for n in range(len(openings))], lambda rows: accept(rows) or True)
    finally:
        cluster.uncache(name)


def predicted(x, w):
    return 1.0 / (1.0 + np.exp(-(x @ w) / SCALE))


def loss(x, y, w):
    return float(np.mean((y - predicted(x, w)) ** 2))


def constrain(w):
    """Keep the weights meaningful: the cells filled around a Queen only ever
    hurt more as there are more of them (and none filled is the zero point; six
    is a finished game except with the Guardians, which these official self-play
    games never meet: that entry keeps its default), and having the move is never
    a handicap."""
    queen = w[W_QUEEN_FILLED : W_QUEEN_FILLED + 7]
    queen[0] = 0.0
    queen[1:6] = np.minimum.accumulate(np.minimum(queen[1:6], 0.0))
    queen[6] = QUEEN_SURROUNDED_UNCOVERED
    w[W_TEMPO] = max(w[W_TEMPO], 0.0)
    return w


def fit(x, y, start, prior, steps=3000, rate=0.5):
    """Weights minimising mean((y - p)^2) + prior * sum(((w - start) / 100)^2), with
    p = sigmoid(x @ w / SCALE), by projected gradient descent (Adam) from `start`."""
    w = constrain(start.astype(np.float64).copy())
    anchor = w.copy()
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    for step in range(1, steps + 1):
        p = predicted(x, w)
        grad = -2.0 * ((y - p) * p * (1 - p)) @ x / (SCALE * len(y))
        grad += 2.0 * prior * (w - anchor) / 100.0**2
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= rate * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-12)
        w = constrain(w)
    return np.rint(w).astype(np.int64)


def held_out_loss(x, y, games, start, prior, folds, seed=0):
    """Mean squared error of the positions of each of `folds` folds of games
    (`games`: each row's game), predicted by the starting weights and by weights
    fitted to the other folds: (starting loss, fitted loss), over all rows."""
    numbers, game_index = np.unique(games, return_inverse=True)
    if len(numbers) < folds:
        raise ValueError(f"{len(numbers)} games cannot make {folds} folds")
    fold = (np.random.default_rng(seed).permutation(len(numbers)) % folds)[game_index]
    start_error = fitted_error = 0.0
    for k in range(folds):
        test = fold == k
        weights = fit(x[~test], y[~test], start, prior).astype(np.float64)
        start_error += loss(x[test], y[test], start.astype(np.float64)) * test.sum()
        fitted_error += loss(x[test], y[test], weights) * test.sum()
    return start_error / len(y), fitted_error / len(y)


def load(path):
    if path and os.path.exists(path):
        data = np.load(path)
        return list(data["x"]), list(data["y"])
    return [], []


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=600, help="self-play games per round (0: refit --data)")
    parser.add_argument("--depth", type=int, default=2, help="search depth of the self-play moves")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--prior", type=float, nargs="+", default=[0.002],
                        help="pull towards the starting weights (several only with --folds)")
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--weights", help="JSON list of starting weights (default: the engine's)")
    parser.add_argument("--data", help="NPZ file of positions, read and extended")
    parser.add_argument("--arena-games", nargs="+", default=[], metavar="DIR",
                        help="also fit to the positions of these arena matches' games (their folders)")
    parser.add_argument("--folds", type=int, metavar="K",
                        help="only measure: the held-out loss of fits to the arena games, K folds by game, per --prior")
    parser.add_argument("--out", help="also write the weights to this JSON file")
    parser.add_argument("--concurrency", type=int, default=os.cpu_count() or 1, help="LocalCluster workers")
    workers.add_arguments(parser)
    args = parser.parse_args()
    if args.folds is not None and (args.folds < 2 or args.games or args.data or not args.arena_games):
        parser.error("--folds K needs K >= 2, --games 0 and --arena-games (no --data: its positions have no games)")
    if args.folds is None and len(args.prior) > 1:
        parser.error("several --prior values only with --folds")
    try:
        cluster = workers.cluster_from(args, args.concurrency) if args.games else None
    except workers.WhereError as error:
        parser.error(str(error))
    if cluster is None:
        run(args)
    else:
        with cluster:
            run(args, cluster)


def run(args, cluster=None):
    """The rounds of play and fit of `args` (see main), the games on `cluster`."""
    rng = random.Random(args.seed)
    start_weights = read_weights(args.weights)
    weights = start_weights.copy()
    xs, ys = load(args.data)
    games = []  # with --folds, each arena row's game, numbered across the folders
    for directory in args.arena_games:
        rows, results, numbers = arena_rows(directory)
        games.extend(np.array(numbers) + (games[-1] + 1 if games else 0))
        xs.extend(rows)
        ys.extend(results)
        print(f"{directory}: {len(rows)} positions", flush=True)
    if args.folds:
        x, y = np.array(xs, dtype=np.float64), np.array(ys, dtype=np.float64)
        for prior in args.prior:
            try:
                before, after = held_out_loss(x, y, np.array(games), start_weights, prior, args.folds)
            except ValueError as error:
                raise SystemExit(f"--folds: {error}") from None
            print(f"prior {prior}: held-out loss {before:.5f} -> {after:.5f} ({args.folds} folds, "
                  f"{len(set(games))} games)", flush=True)
        return
    for round_number in range(1, max(args.rounds, 1) + 1):
        started = time.perf_counter()
        decided = 0

        def collect(game):
            nonlocal decided
            rows, result = game
            if result is not None:
                decided += 1
                xs.extend(rows)
                ys.extend([result] * len(rows))

        openings = [selfplay_opening(rng).game_string() for _ in range(args.games)]
        play_round(cluster, weights, openings, args.depth, args.max_plies, collect)
        x = np.array(xs, dtype=np.float64)
        y = np.array(ys, dtype=np.float64)
        if args.data:
            np.savez_compressed(args.data, x=x.astype(np.int8), y=y)
        before = loss(x, y, weights.astype(np.float64))
        weights = fit(x, y, start_weights, args.prior[0])
        print(f"round {round_number}: {decided}/{args.games} games decided, {len(y)} positions, "
              f"loss {before:.5f} -> {loss(x, y, weights.astype(np.float64)):.5f}, "
              f"{time.perf_counter() - started:.0f} s", flush=True)
    print("weights =", weights.tolist())
    if args.out:
        with open(args.out, "w") as handle:
            json.dump(weights.tolist(), handle)


if __name__ == "__main__":
    main()
