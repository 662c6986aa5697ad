"""In-process games between Searchers, for tuning and quick A/B checks.

    python -m bench.selfplay --games 200 --depth 3 --weights-b tuned.json

Both sides are Searchers (no UHP), from random openings of a few uniformly
random legal plies, each opening played twice with colours swapped. Games are
drawn by threefold repetition or after --max-plies. Prints the score of A
against B with the Elo difference; the UHP match runner is bench/arena.py.
The games are played on Dask like the arena's (bench/workers.py: a LocalCluster
of --concurrency workers, each keeping its two Searchers, or --scheduler
ADDRESS), or with --local one after the other in this process.
"""

import argparse
import json
import os
import random
import time

import numpy as np

from engine.search.evaluate import DEFAULT_WEIGHTS
from engine.game import WHITE, Board
from engine.rules.notation import GAME_TYPES
from engine.search.search import Searcher

from . import workers
from .elo import elo_from_score
from .openings import random_opening

# Base and Base+MLP are played three times as often as each other game type.
GAME_TYPE_WEIGHTS = [3 if t in ("Base", "Base+MLP") else 1 for t in GAME_TYPES]


def selfplay_opening(rng):
    """A Board of a random game type after 2 to 8 uniformly random legal plies."""
    game_type = rng.choices(GAME_TYPES, GAME_TYPE_WEIGHTS)[0]
    return random_opening(game_type, rng.randrange(2, 9), rng, placements_first=False, repetition_draw=True)


def play(board, white, black, limits, max_plies, on_position=None):
    """Play the game on from `board` (changed in place); returns the result for
    White, or None when it reached max_plies undecided. on_position(board) is
    called before each searched move."""
    players = (white, black)
    for player in players:
        player.new_game()
    while not board.is_game_over() and board.ply < max_plies:
        if on_position is not None:
            on_position(board)
        board.push(players[board.side_to_move].search(board, **limits).move)
    outcome = board.outcome()
    if outcome is None:
        return None
    return 0.5 if outcome.winner is None else float(outcome.winner == WHITE)


def match_openings(games, seed):
    """The openings of a match of `games` games (GameStrings), each for two games."""
    rng = random.Random(seed)
    return [selfplay_opening(rng).game_string() for _ in range(games // 2)]


def opening_board(game_string):
    """The Board of an opening GameString, repetitions counted from its first ply."""
    return Board.from_game_string(game_string, repetition_draw=True)


def points_of_a(a, b, opening, a_white, limits, max_plies):
    """A's points in one game from `opening` (an undecided game is a draw)."""
    result = play(opening_board(opening), a if a_white else b, b if a_white else a, limits, max_plies)
    result = 0.5 if result is None else result
    return result if a_white else 1 - result


def match(a, b, games, limits, max_plies=300, seed=1):
    """Score of Searcher a against b over `games` games (pairs with colours swapped)."""
    return sum(points_of_a(a, b, opening, a_white, limits, max_plies)
               for opening in match_openings(games, seed) for a_white in (True, False))


class Searchers:
    """Makes the Searchers of a run on a Dask worker: one per list of weights,
    with a table of `table_mb` MiB (None: the Searcher's default)."""

    def __init__(self, weights, table_mb=None):
        self.weights = [np.asarray(w, dtype=np.int64) for w in weights]
        self.table_mb = table_mb

    def __call__(self, worker=None):
        searchers = [Searcher(weights) for weights in self.weights]
        if self.table_mb is not None:
            for searcher in searchers:
                searcher.set_option("TranspositionTableSizeMB", self.table_mb)
        return searchers


def _game_on_worker(name, opening, a_white, limits, max_plies):
    from .cluster import cache

    with cache(name).pool.borrowed() as (a, b):
        return points_of_a(a, b, opening, a_white, limits, max_plies)


def cluster_match(cluster, weights_a, weights_b, games, limits, max_plies=300, seed=1):
    """`match` with the games played on a bench.cluster.Cluster (an open one)."""
    name = cluster.cached(Searchers([weights_a, weights_b]), "selfplay")
    games = [(name, opening, a_white, limits, max_plies)
             for opening in match_openings(games, seed) for a_white in (True, False)]
    points = []
    try:
        cluster.stream(_game_on_worker, games, [f"{name}-game-{n}" for n in range(len(games))],
                       lambda result: points.append(result) or True)
    finally:
        cluster.uncache(name)
    return sum(points)


def read_weights(path):
    """The weights in the JSON list at `path`, or a copy of the engine's when None."""
    if path is None:
        return DEFAULT_WEIGHTS.copy()
    with open(path) as handle:
        return np.array(json.load(handle), dtype=np.int64)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--weights-a", help="JSON list of weights for A (default: the engine's)")
    parser.add_argument("--weights-b", help="JSON list of weights for B (default: the engine's)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=os.cpu_count() or 1, help="LocalCluster workers")
    workers.add_arguments(parser)
    args = parser.parse_args()
    weights_a, weights_b = read_weights(args.weights_a), read_weights(args.weights_b)
    limits = {"depth": args.depth}
    start = time.perf_counter()
    try:
        cluster = workers.cluster_from(args, args.concurrency)
    except workers.WhereError as error:
        parser.error(str(error))
    if cluster is None:
        points = match(Searcher(weights_a), Searcher(weights_b), args.games, limits, seed=args.seed)
    else:
        with cluster:
            points = cluster_match(cluster, weights_a, weights_b, args.games, limits, seed=args.seed)
    score = points / args.games
    print(f"A vs B: {points}/{args.games} = {score:.3f}, Elo {elo_from_score(score):+.0f}, {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
