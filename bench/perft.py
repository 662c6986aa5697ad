"""Perft speed: leaves per second, single-threaded and parallel, optionally against a baseline.

    python -m bench.perft                    # start positions and the Base+MLP mid-game rows
    python -m bench.perft --quick            # shallower
    python -m bench.perft --baseline ../base # the same positions, one thread, this tree
                                             # against another checkout (e.g. a worktree
                                             # of 4c37ca1), best of --repeat, with the ratio

Each engine is timed in a fresh subprocess that imports the `engine` package of its
own tree, loads its kernels before anything is timed, and prints one JSON line per
position; the two trees alternate position by position, so that a busy machine
weighs on both alike.
"""

import argparse
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "perft_midgame.tsv"
GAME_TYPES = ("Base", "Base+M", "Base+L", "Base+P", "Base+ML", "Base+MP", "Base+LP", "Base+MLP")

# Runs inside the subprocess, in the tree given as its first argument: only the
# public Board API, which the baseline has as well.
_TIMER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from engine.game import Board
threads, repeat = int(sys.argv[2]), int(sys.argv[3])
for line in sys.stdin:
    position, depth = json.loads(line)
    board = Board.from_game_string(position) if ";" in position else Board(position)
    board.perft(2, threads=threads)  # load the kernels
    best = None
    for _ in range(repeat):
        start = time.perf_counter()
        count = board.perft(depth, threads=threads)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    print(json.dumps([count, best]), flush=True)
"""


def midgame_position(name="Base+MLP_ply24"):
    """A mid-game GameString from the perft reference table (nokamute's counts)."""
    for line in DATA.read_text().splitlines():
        fields = line.split("\t")
        if fields[0] == name:
            return fields[1]
    raise KeyError(name)


class Timer:
    """A subprocess timing perft in one source tree."""

    def __init__(self, tree, threads, repeat):
        env = dict(os.environ, PYTHONPATH=str(tree))
        self.process = subprocess.Popen(
            [sys.executable, "-c", _TIMER, str(tree), str(threads), str(repeat)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=tree, env=env,
        )

    def time(self, position, depth):
        self.process.stdin.write(json.dumps([position, depth]) + "\n")
        self.process.stdin.flush()
        count, seconds = json.loads(self.process.stdout.readline())
        return count, seconds

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def cases(quick):
    """(name, position, depth): the positions the rules-core targets name."""
    start_depth = 4 if quick else 5
    rows = [(name, name, start_depth) for name in GAME_TYPES]
    rows += [("Base", "Base", 5 if quick else 6), ("Base+MLP", "Base+MLP", 5 if quick else 6)]
    rows += [(f"Base+MLP_ply{ply}", midgame_position(f"Base+MLP_ply{ply}"), 3 if quick else 4) for ply in (12, 24, 40)]
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one ply shallower everywhere")
    parser.add_argument("--baseline", type=Path, help="another source tree to time against, one thread")
    parser.add_argument("--repeat", type=int, default=3, help="timings per position; the best counts (default 3)")
    args = parser.parse_args()
    threads = os.cpu_count() or 1
    print(f"# {platform.processor() or platform.machine()}, {threads} cores, Python {platform.python_version()}")
    if args.baseline:
        ours, theirs = Timer(ROOT, 1, args.repeat), Timer(args.baseline.resolve(), 1, args.repeat)
        print(f"{'position':<18} {'depth':>5} {'leaves':>12} {'this s':>8} {'M/s':>6} {'baseline s':>10} {'M/s':>6} {'ratio':>6}")
        for name, position, depth in cases(args.quick):
            count, seconds = ours.time(position, depth)
            base_count, base_seconds = theirs.time(position, depth)
            assert count == base_count, f"{name}: {count} leaves here, {base_count} in the baseline"
            print(f"{name:<18} {depth:>5} {count:>12,} {seconds:>8.3f} {count / seconds / 1e6:>6.1f} "
                  f"{base_seconds:>10.3f} {count / base_seconds / 1e6:>6.1f} {base_seconds / seconds:>5.1f}x", flush=True)
        ours.close()
        theirs.close()
        return
    single, parallel = Timer(ROOT, 1, args.repeat), Timer(ROOT, threads, args.repeat)
    print(f"{'position':<18} {'depth':>5} {'leaves':>12} {'1 thread s':>10} {'M/s':>6} {f'{threads} threads s':>12} {'M/s':>6}")
    for name, position, depth in cases(args.quick):
        count, one = single.time(position, depth)
        parallel_count, many = parallel.time(position, depth)
        assert parallel_count == count
        print(f"{name:<18} {depth:>5} {count:>12,} {one:>10.3f} {count / one / 1e6:>6.1f} "
              f"{many:>12.3f} {count / many / 1e6:>6.1f}", flush=True)
    single.close()
    parallel.close()


if __name__ == "__main__":
    main()
