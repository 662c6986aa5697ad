"""Search speed: nodes per second and depth reached, and a deterministic signature.

    python -m bench.search              # 1 s and 5 s per position, 1 thread and with a helper
    python -m bench.search --signature  # fixed depth, one thread: total nodes (changes only with the search)

Positions: an opening, two middle games and an end game (from tests/data). Kernels
are loaded before anything is timed.
"""

import argparse
import os
import time

from engine.game import Board
from engine.search import Searcher

from .perft import midgame_position

SIGNATURE_DEPTH = 5


def positions():
    endgame = (  # Mzinga's block-the-winning-move position (a Base end game)
        "Base;InProgress;White[14];wS1;bS1 wS1-;wQ \\wS1;bQ bS1/;wB1 /wS1;bB1 bS1\\;wB1 wS1;bB1 bS1;wB1 wQ;"
        "bB1 -bQ;wS1 bQ\\;bS1 -wB1;wS1 bS1\\;bA1 bQ-;wS1 bQ\\;bA1 bS1\\;wS1 bA1\\;bA2 \\bQ;wS1 -bS1;bA2 \\wB1;"
        "wS1 bA2/;bQ bB1/;wB1 bB1;bQ wS1\\;wS1 wB1-;bA3 bA1\\"
    )
    return [
        ("opening Base+MLP ply 12", midgame_position("Base+MLP_ply12")),
        ("middle Base+MLP ply 24", midgame_position("Base+MLP_ply24")),
        ("middle Base ply 24", midgame_position("Base_ply24")),
        ("end Base ply 27", endgame),
    ]


def run(searcher, game_string, **limits):
    board = Board.from_game_string(game_string)
    searcher.new_game()
    start = time.perf_counter()
    result = searcher.search(board, **limits)
    return result, time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--signature", action="store_true", help=f"depth {SIGNATURE_DEPTH}, one thread: node count")
    parser.add_argument("--seconds", type=float, nargs="+", default=[1.0, 5.0])
    args = parser.parse_args()
    searcher = Searcher()
    run(searcher, positions()[0][1], depth=2)  # load the kernels
    if args.signature:
        total = 0
        start = time.perf_counter()
        for name, game_string in positions():
            result, _ = run(searcher, game_string, depth=SIGNATURE_DEPTH)
            total += result.nodes
            print(f"{name:<26} {result.nodes:>10} nodes")
        seconds = time.perf_counter() - start
        print(f"signature: {total} nodes, depth {SIGNATURE_DEPTH}, {seconds:.2f} s, {total / seconds:,.0f} nodes/s")
        return
    helpers = max(1, (os.cpu_count() or 2) - 1)
    print(f"{'position':<26} {'limit':>6} {'threads':>7} {'depth':>5} {'nodes':>10} {'nodes/s':>10}")
    for name, game_string in positions():
        for seconds in args.seconds:
            for threads in (1, 1 + helpers):
                searcher.set_option("MaxHelperThreads", threads - 1)
                result, elapsed = run(searcher, game_string, seconds=seconds)
                print(f"{name:<26} {seconds:>5.1f}s {threads:>7} {result.depth:>5} {result.nodes:>10} "
                      f"{result.nodes / elapsed:>10,.0f}", flush=True)
    searcher.set_option("MaxHelperThreads", 0)


if __name__ == "__main__":
    main()
