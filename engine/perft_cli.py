"""Perft from the command line, in MzingaEngine's result lines.

    python -m engine.perft_cli <GameType|GameString> [max_depth] [--threads N]

prints, for each depth from 1, `perft(d) = <count> in <ms> ms. <KN/s> KN/s` (or
`in <1 ms.` with no rate), the line UHP's `perft` answers too (perft.perft_line).
On a terminal, stderr shows how far the depth in progress has got, rewritten in
place: `perft(7): 23/41 root moves, 1,234,567,890 leaves so far` (a pipe or a
log gets nothing there). Ctrl-C (SIGINT) stops the count within milliseconds:
the depths already printed are complete, the one in progress is named on
stderr, and the status is 130.
"""

import argparse
import io
import os
import signal
import sys
import time

from .game import Board
from .rules.errors import IllegalMoveError, NotationError
from .rules.perft import StopFlag, perft_line


CLEAR_LINE = "\r\x1b[K"  # back to the line's start and erase it


def count(board, depth, threads, stop, progress=None):
    """perft(depth) of `board`, None if `stop` was set. With `progress` (a
    terminal's stream) it is counted root move by root move, perft(depth - 1)
    after each, so that a line there can say how far a deep count has got; the
    counting under each root move is the kernels' as without it."""
    if progress is None or depth < 2:
        return board.perft(depth, threads=threads, stop=stop)
    moves = board.legal_moves
    total = 0
    for done, move in enumerate(moves):
        progress.write(f"{CLEAR_LINE}perft({depth}): {done}/{len(moves)} root moves, {total:,} leaves so far")
        progress.flush()
        board.push(move)
        try:
            below = board.perft(depth - 1, threads=threads, stop=stop)
        finally:
            board.pop()
        if below is None:
            return None
        total += below
    return total


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
    progress = sys.stderr if sys.stderr.isatty() else None
    # Load (or compile) the kernels before anything is timed, with progress also
    # the moves made and taken back from Python.
    count(board, 2, 1, StopFlag(), None if progress is None else io.StringIO())
    stop = StopFlag()
    previous = signal.signal(signal.SIGINT, lambda signum, frame: stop.set())
    try:
        for depth in range(1, args.depth + 1):
            start = time.perf_counter()
            leaves = count(board, depth, args.threads, stop, progress)
            seconds = time.perf_counter() - start
            if progress is not None:
                progress.write(CLEAR_LINE)
            if leaves is None:
                print(f"perft({depth}) interrupted after {seconds:.1f} s; the depths above are complete.",
                      file=sys.stderr)
                return 130
            print(perft_line(depth, leaves, seconds), flush=True)
    finally:
        signal.signal(signal.SIGINT, previous)
    return 0


if __name__ == "__main__":
    sys.exit(main())
