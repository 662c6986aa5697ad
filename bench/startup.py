"""Start-up latency of the engine process, as a viewer or a bot bridge sees it.

    python -m bench.startup               # 5 runs of each warm measure, 1 with an empty cache
    python -m bench.startup --runs 10 --cold-runs 2

Measures, from the moment the process is started:
  banner        the `ok` of the unprompted banner;
  warm answer   the answer to `newgame Base+MLP` + `validmoves` sent at once, with
                numba's cache filled (run `python -m engine --warmup` first);
  cold answer   the same with an empty cache (NUMBA_CACHE_DIR set to a fresh
                folder), so every kernel is compiled;
  hivegame call a whole call of hivegame.com's bot bridge: a fresh process,
                `newgame <a 30-ply GameString>`, `bestmove depth 2`, end of
                input, until the process has exited.
Targets: banner within 0.3 s, warm answer within 2 s.
"""

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

from .uhp_client import ROOT, EngineProcess, this_engine

# A Base+MLP game of 30 plies, from tests/data/validmoves_random.tsv (nokamute's random games).
GAME_30_PLIES = (
    "Base+MLP;InProgress;White[16];wB1;bP wB1\\;wL wB1/;bM bP-;wA1 wL/;bB1 bM-;wQ -wA1;bQ /bP;wP wA1-;"
    "bA1 /bQ;wB2 \\wA1;bL bB1-;wA2 /wQ;bA1 -wB2;wA2 wP\\;bA1 wA2\\;wG1 \\wB2;bA1 \\wG1;wM \\wP;bA2 bB1\\;"
    "wA2 /wQ;bA2 bM\\;wQ /wG1;bA1 bB1\\;wM bQ\\;bS1 bL/;wA2 wA1\\;bA2 -wG1;wA2 bS1\\;bS2 /bA1"
)
TIMEOUT = 600


def first_answer(env=None):
    """(seconds to the banner's ok, seconds to the validmoves answer's ok)."""
    began = time.perf_counter()
    with EngineProcess(this_engine(env=env)).launch() as engine:
        engine.send("newgame Base+MLP\nvalidmoves")
        engine.read_answer(TIMEOUT)
        banner = time.perf_counter() - began
        engine.read_answer(TIMEOUT)
        engine.read_answer(TIMEOUT)
        answer = time.perf_counter() - began
        engine.close_input()
        engine.wait(TIMEOUT)
    return banner, answer


def hivegame_call():
    began = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "engine"], cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT,
                         input=f"newgame {GAME_30_PLIES}\nbestmove depth 2\n")
    seconds = time.perf_counter() - began
    if out.returncode != 0 or out.stdout.count("ok\n") != 3:
        raise RuntimeError(f"unexpected hivegame call: {out.returncode} {out.stdout!r}")
    return seconds


def cold_answer():
    with tempfile.TemporaryDirectory(prefix="hexbee-numba-cache-") as cache:
        return first_answer(dict(os.environ, NUMBA_CACHE_DIR=cache))[1]


def summary(name, values, target=None):
    line = (f"{name:<14} median {statistics.median(values):6.2f} s   min {min(values):6.2f} s   "
            f"max {max(values):6.2f} s   ({len(values)} runs)")
    if target is not None:
        line += f"   target {target} s: {'met' if statistics.median(values) <= target else 'MISSED'}"
    return line


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each warm measure (default 5)")
    parser.add_argument("--cold-runs", type=int, default=1, help="runs with an empty cache (default 1; ~1 min each)")
    args = parser.parse_args()
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    first_answer()  # fill numba's cache if it is empty, and warm the OS file cache
    warm = [first_answer() for _ in range(args.runs)]
    print(summary("banner", [banner for banner, _ in warm], 0.3), flush=True)
    print(summary("warm answer", [answer for _, answer in warm], 2.0), flush=True)
    if args.cold_runs:
        print(summary("cold answer", [cold_answer() for _ in range(args.cold_runs)]), flush=True)
    print(summary("hivegame call", [hivegame_call() for _ in range(args.runs)]), flush=True)


if __name__ == "__main__":
    main()
