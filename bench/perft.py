"""Perft speed: leaves per second, single-threaded and parallel, optionally against a baseline.

    python -m bench.perft                    # start positions and the Base+MLP mid-game rows
    python -m bench.perft --quick            # shallower
    python -m bench.perft --fan              # the fan game types from the start, beside
                                             # Base and Base+MLP
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
# (game type, depth) from the start: the fan pieces' goal is half of Base+MLP's rate.
FAN_CASES = (
    ("Base", 6), ("Base+MLP", 6), ("Base+Guardians", 6), ("Base+Dx", 6), ("Base+E", 6), ("Base+J", 6),
    ("Base+MLP+Guardians+Dx+E+J", 5), ("Base+Venom", 6), ("Base+MLP+Venom", 5), ("Base+Predators", 6),
    ("Base+MP+Venom+Predators", 5), ("Base+MLP+Venom+Predators", 5), ("Base+Vx", 6), ("Base+M+Venom+Vx", 5),
    ("Base+Wx", 6), ("Base+Fx", 6), ("Base+Nx", 6), ("Base+MP+Fx+Wx", 5), ("Base+HoneyCombo", 5),
    ("Base+MLP+HoneyCombo", 5), ("Base+Swarm", 6), ("Base+MLP+Swarm", 5),
)

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
    wall, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        count = board.perft(depth, threads=threads)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    print(json.dumps([count, min(wall), min(cpu)]), flush=True)
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
        count, wall, cpu = json.loads(self.process.stdout.readline())
        return count, wall, cpu

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def cases(quick, fan=False):
    """(name, position, depth): the positions the rules-core targets name, or the
    fan game types' start positions."""
    if fan:
        return [(game_type, game_type, depth - quick) for game_type, depth in FAN_CASES]
    start_depth = 4 if quick else 5
    rows = [(name, name, start_depth) for name in GAME_TYPES]
    rows += [("Base", "Base", 5 if quick else 6), ("Base+MLP", "Base+MLP", 5 if quick else 6)]
    rows += [(f"Base+MLP_ply{ply}", midgame_position(f"Base+MLP_ply{ply}"), 3 if quick else 4) for ply in (12, 24, 40)]
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one ply shallower everywhere")
    parser.add_argument("--fan", action="store_true", help="the fan game types from the start instead")
    parser.add_argument("--baseline", type=Path, help="another source tree to time against, one thread")
    parser.add_argument("--repeat", type=int, default=3, help="timings per position; the best counts (default 3)")
    args = parser.parse_args()
    threads = os.cpu_count() or 1
    print(f"# {platform.processor() or platform.machine()}, {threads} cores, Python {platform.python_version()}")
    if args.baseline:
        ours, theirs = Timer(ROOT, 1, args.repeat), Timer(args.baseline.resolve(), 1, args.repeat)
        print("# seconds: best wall-clock time of --repeat runs; cpu: best CPU time of the process,")
        print("# which a shared machine's stolen time does not inflate")
        print(f"{'position':<26} {'depth':>5} {'leaves':>12} {'this s':>7} {'cpu':>6} {'M/s':>5} "
              f"{'base s':>7} {'cpu':>6} {'M/s':>5} {'ratio':>6} {'cpu':>6}")
        for name, position, depth in cases(args.quick, args.fan):
            count, wall, cpu = ours.time(position, depth)
            base_count, base_wall, base_cpu = theirs.time(position, depth)
            assert count == base_count, f"{name}: {count} leaves here, {base_count} in the baseline"
            print(f"{name:<26} {depth:>5} {count:>12,} {wall:>7.3f} {cpu:>6.3f} {count / wall / 1e6:>5.0f} "
                  f"{base_wall:>7.3f} {base_cpu:>6.3f} {count / base_wall / 1e6:>5.0f} "
                  f"{base_wall / wall:>5.2f}x {base_cpu / cpu:>5.2f}x", flush=True)
        ours.close()
        theirs.close()
        return
    single, parallel = Timer(ROOT, 1, args.repeat), Timer(ROOT, threads, args.repeat)
    print(f"{'position':<26} {'depth':>5} {'leaves':>12} {'1 thread s':>10} {'M/s':>6} {f'{threads} threads s':>12} {'M/s':>6}")
    for name, position, depth in cases(args.quick, args.fan):
        count, one, _ = single.time(position, depth)
        parallel_count, many, _ = parallel.time(position, depth)
        assert parallel_count == count
        print(f"{name:<26} {depth:>5} {count:>12,} {one:>10.3f} {count / one / 1e6:>6.1f} "
              f"{many:>12.3f} {count / many / 1e6:>6.1f}", flush=True)
    single.close()
    parallel.close()


if __name__ == "__main__":
    main()
