"""Perft speed: single-threaded and parallel leaves per second.

    python -m bench.perft            # Base and Base+MLP to depth 6, and a mid-game position
    python -m bench.perft --quick    # depth 5 only

Kernels are loaded (compiled on first use) before anything is timed.
"""

import argparse
import os
import platform
import time
from pathlib import Path

from engine.game import Board

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "perft_midgame.tsv"


def midgame_position(name="Base+MLP_ply24"):
    """A mid-game GameString from the perft reference table (nokamute's counts)."""
    for line in DATA.read_text().splitlines():
        fields = line.split("\t")
        if fields[0] == name:
            return fields[1]
    raise KeyError(name)


def timed(board, depth, threads):
    start = time.perf_counter()
    count = board.perft(depth, threads=threads)
    return count, time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="depth 5 from the start, 3 from the mid-game")
    args = parser.parse_args()
    threads = os.cpu_count() or 1
    cases = [("Base", Board("Base"), 5), ("Base+MLP", Board("Base+MLP"), 5)]
    if not args.quick:
        cases += [("Base", Board("Base"), 6), ("Base+MLP", Board("Base+MLP"), 6)]
    cases.append(("Base+MLP mid-game", Board.from_game_string(midgame_position()), 3 if args.quick else 4))
    for _, board, _ in cases:  # load or compile the kernels outside the timed part
        board.perft(2)
        board.perft(4, threads=2)
    print(f"# {platform.processor() or platform.machine()}, {threads} cores, Python {platform.python_version()}")
    print(f"{'position':<20} {'depth':>5} {'leaves':>12} {'1 thread s':>10} {'Mleaves/s':>9} "
          f"{f'{threads} threads s':>12} {'Mleaves/s':>9}")
    for name, board, depth in cases:
        count, single = timed(board, depth, 1)
        parallel_count, parallel = timed(board, depth, threads)
        assert parallel_count == count
        print(f"{name:<20} {depth:>5} {count:>12,} {single:>10.2f} {count / single / 1e6:>9.1f} "
              f"{parallel:>12.2f} {count / parallel / 1e6:>9.1f}", flush=True)


if __name__ == "__main__":
    main()
