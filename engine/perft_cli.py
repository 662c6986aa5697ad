"""Perft from the command line, in MzingaEngine's result lines.

    python -m engine.perft_cli <GameType|GameString> [max_depth] [--threads N]

prints, for each depth from 1, `perft(d) = <count> in <ms> ms. <KN/s> KN/s` (or
`in <1 ms.` with no rate), the line UHP's `perft` answers too (perft.perft_line). Ctrl-C (SIGINT) stops the count within
milliseconds: the depths already printed are complete, the one in progress is
named on stderr, and the status is 130.
"""

import argparse
import os
import signal
import sys
import time

from .game import Board
from .rules.errors import IllegalMoveError, NotationError
from .rules.perft import StopFlag, perft_line


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
    stop = StopFlag()
    previous = signal.signal(signal.SIGINT, lambda signum, frame: stop.set())
    try:
        for depth in range(1, args.depth + 1):
            start = time.perf_counter()
            count = board.perft(depth, threads=args.threads, stop=stop)
            seconds = time.perf_counter() - start
            if count is None:
                print(f"perft({depth}) interrupted after {seconds:.1f} s; the depths above are complete.",
                      file=sys.stderr)
                return 130
            print(perft_line(depth, count, seconds), flush=True)
    finally:
        signal.signal(signal.SIGINT, previous)
    return 0


if __name__ == "__main__":
    sys.exit(main())
