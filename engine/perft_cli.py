"""Perft from the command line, in MzingaEngine's result lines.

    python -m engine.perft_cli <GameType|GameString> [max_depth] [--threads N]

prints, for each depth from 1, `perft(d) = <count> in <ms> ms. <KN/s> KN/s`, the
line UHP's `perft` answers too.
"""

import argparse
import os
import sys
import time

from .rules.errors import IllegalMoveError, NotationError
from .game import Board
from .rules.perft import perft_line


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m engine.perft_cli", description=__doc__.split("\n\n")[0])
    parser.add_argument("position", help="a GameTypeString (e.g. Base+MLP) or a GameString")
    parser.add_argument("depth", nargs="?", type=int, default=5, help="deepest depth to count (default 5)")
    parser.add_argument("--threads", type=int, default=1, help=f"threads (this machine has {os.cpu_count()})")
    args = parser.parse_args(argv)
    try:
        board = Board.from_game_string(args.position) if ";" in args.position else Board(args.position)
    except (NotationError, IllegalMoveError) as error:
        parser.error(str(error))
    board.perft(1)  # load (or compile) the kernel before anything is timed
    for depth in range(1, args.depth + 1):
        start = time.perf_counter()
        count = board.perft(depth, threads=args.threads)
        print(perft_line(depth, count, time.perf_counter() - start), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
