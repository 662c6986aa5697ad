"""In-process games between Searchers, for tuning and quick A/B checks.

    python -m bench.selfplay --games 200 --depth 3 --weights-b tuned.json

Both sides are Searchers in this process (no UHP), from random openings of a few
uniformly random legal plies, each opening played twice with colours swapped.
Games are drawn by threefold repetition or after --max-plies. Prints the score
of A against B with the Elo difference; the UHP match runner is bench/arena.py.
"""

import argparse
import json
import random
import time

import numpy as np

from engine.evaluate import DEFAULT_WEIGHTS
from engine.game import WHITE
from engine.notation import GAME_TYPES
from engine.search import Searcher

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
    while not board.is_game_over and board.ply < max_plies:
        if on_position is not None:
            on_position(board)
        board.push(players[board.side_to_move].search(board, **limits).move)
    outcome = board.outcome()
    if outcome is None:
        return None
    return 0.5 if outcome.winner is None else float(outcome.winner == WHITE)


def match(a, b, games, limits, max_plies=300, seed=1):
    """Score of Searcher a against b over `games` games (pairs with colours swapped)."""
    rng = random.Random(seed)
    points = 0.0
    for pair in range(games // 2):
        opening = selfplay_opening(rng)
        for a_white in (True, False):
            board = opening.copy()
            result = play(board, a if a_white else b, b if a_white else a, limits, max_plies)
            result = 0.5 if result is None else result
            points += result if a_white else 1 - result
    return points


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
    args = parser.parse_args()
    a = Searcher(read_weights(args.weights_a))
    b = Searcher(read_weights(args.weights_b))
    start = time.perf_counter()
    points = match(a, b, args.games, {"depth": args.depth}, seed=args.seed)
    score = points / args.games
    print(f"A vs B: {points}/{args.games} = {score:.3f}, Elo {elo_from_score(score):+.0f}, {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
