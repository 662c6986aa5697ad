"""Start-up latency of the engine process, as a viewer or a bot bridge sees it.

    python -m bench.startup                         # 5 runs of each warm measure, 1 with an empty cache
    python -m bench.startup --runs 10 --cold-runs 2
    python -m bench.startup --baseline ../base --runs 15 --cold-runs 0
                                                    # this tree against another checkout, run by run
    python -m bench.startup --phases                # where a fresh process's time goes

Measures, from the moment the process is started:
  banner        the `ok` of the unprompted banner;
  warm answer   the answer to `newgame Base+MLP` + `validmoves` sent at once, with
                numba's cache filled (run `python -m engine --warmup` first);
  first move    the answer to `newgame Base+MLP` + `bestmove time 00:00:00.3` sent
                at once, and (`late`) how long after its limit it came, and the
                process's CPU time up to it (less noisy than the wall clock on a
                shared machine);
  cold answer   the warm answer with an empty cache (NUMBA_CACHE_DIR set to a fresh
                folder), so every kernel is compiled;
  hivegame call a whole call of hivegame.com's bot bridge: a fresh process,
                `newgame <a 30-ply GameString>`, `bestmove depth 2`, end of
                input, until the process has exited.
Targets: banner within 0.3 s, warm answer within 2 s.

With --baseline the warm measures alternate between the two trees run by run (in
turns, each tree first every other run), each
tree's engine started as `python -m engine` in its own folder (with its own numba
cache), so that a busy machine weighs on both alike; the ratio is the baseline's
median over this tree's.

--phases starts fresh processes that time their own start-up step by step, as
`python -m engine` goes through it (engine/protocol/warmup.py's stages); with --baseline,
of both trees.
"""

import argparse
import json
import os
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .uhp_client import ROOT, EngineProcess, EngineSpec

# A Base+MLP game of 30 plies, from tests/data/validmoves_random.tsv (nokamute's random games).
GAME_30_PLIES = (
    "Base+MLP;InProgress;White[16];wB1;bP wB1\\;wL wB1/;bM bP-;wA1 wL/;bB1 bM-;wQ -wA1;bQ /bP;wP wA1-;"
    "bA1 /bQ;wB2 \\wA1;bL bB1-;wA2 /wQ;bA1 -wB2;wA2 wP\\;bA1 wA2\\;wG1 \\wB2;bA1 \\wG1;wM \\wP;bA2 bB1\\;"
    "wA2 /wQ;bA2 bM\\;wQ /wG1;bA1 bB1\\;wM bQ\\;bS1 bL/;wA2 wA1\\;bA2 -wG1;wA2 bS1\\;bS2 /bA1"
)
FIRST_MOVE_LIMIT = 0.3  # seconds: `bestmove time 00:00:00.3`, the example
TIMEOUT = 600


def engine_spec(tree=ROOT, env=None):
    """`python -m engine` run in `tree` (a checkout), importing that tree's package."""
    env = dict(os.environ if env is None else env, PYTHONPATH=str(tree))
    return EngineSpec(Path(tree).name, shlex.join([sys.executable, "-m", "engine"]), cwd=str(tree), env=env)


def first_answer(spec):
    """(seconds to the banner's ok, seconds to the validmoves answer's ok)."""
    began = time.perf_counter()
    with EngineProcess(spec).launch() as engine:
        engine.send("newgame Base+MLP\nvalidmoves")
        engine.read_answer(TIMEOUT)
        banner = time.perf_counter() - began
        engine.read_answer(TIMEOUT)
        engine.read_answer(TIMEOUT)
        answer = time.perf_counter() - began
        engine.close_input()
        engine.wait(TIMEOUT)
    return banner, answer


def first_move(spec):
    """(seconds from the start to the first bestmove's ok, seconds that came
    after its limit, the engine's CPU seconds up to then)."""
    began = time.perf_counter()
    with EngineProcess(spec).launch() as engine:
        engine.send(f"newgame Base+MLP\nbestmove time 00:00:{FIRST_MOVE_LIMIT:06.3f}")
        sent = time.perf_counter()
        for _ in range(3):  # the banner, newgame's answer, bestmove's
            engine.read_answer(TIMEOUT)
        answered = time.perf_counter()
        cpu = engine.cpu_seconds()
        engine.close_input()
        engine.wait(TIMEOUT)
    return answered - began, answered - sent - FIRST_MOVE_LIMIT, cpu


def hivegame_call(spec):
    began = time.perf_counter()
    out = subprocess.run(shlex.split(spec.command), cwd=spec.cwd, env=spec.env, capture_output=True, text=True,
                         timeout=TIMEOUT, input=f"newgame {GAME_30_PLIES}\nbestmove depth 2\n")
    seconds = time.perf_counter() - began
    if out.returncode != 0 or out.stdout.count("ok\n") != 3:
        raise RuntimeError(f"unexpected hivegame call: {out.returncode} {out.stdout!r}")
    return seconds


def cold_answer(tree=ROOT):
    with tempfile.TemporaryDirectory(prefix="hexbee-numba-cache-") as cache:
        return first_answer(engine_spec(tree, dict(os.environ, NUMBA_CACHE_DIR=cache)))[1]


# name, function of a spec returning a tuple of figures, (figure names), target of the first
WARM_MEASURES = (
    ("banner", lambda spec: first_answer(spec)[:1], 0.3),
    ("warm answer", lambda spec: first_answer(spec)[1:], 2.0),
    ("first move", first_move, None),
    ("hivegame call", lambda spec: (hivegame_call(spec),), None),
)
FIGURE_NAMES = {"first move": ("first move", "  late by", "  CPU")}


def summary(name, values, target=None):
    line = (f"{name:<14} median {statistics.median(values):6.3f} s   min {min(values):6.3f} s   "
            f"max {max(values):6.3f} s   ({len(values)} runs)")
    if target is not None:
        line += f"   target {target} s: {'met' if statistics.median(values) <= target else 'MISSED'}"
    return line


def measure(trees, runs):
    """{tree: {figure name: [values]}} of every warm measure, the trees alternating run by run."""
    figures = {tree: {} for tree in trees}
    for name, run, _ in WARM_MEASURES:
        names = FIGURE_NAMES.get(name, (name,))
        for index in range(runs):
            for tree in trees if index % 2 == 0 else trees[::-1]:  # neither tree always goes first
                for figure, value in zip(names, run(engine_spec(tree))):
                    if value is not None:
                        figures[tree].setdefault(figure, []).append(value)
    return figures


def report(trees, figures):
    targets = {name: target for name, _, target in WARM_MEASURES}
    if len(trees) == 1:
        for figure, values in figures[trees[0]].items():
            print(summary(figure, values, targets.get(figure)), flush=True)
        return
    ours, base = trees
    print(f"{'median (min-max)':<16} {ours.name + ' (this tree)':>26} {base.name:>26}   ratio")
    for figure, values in figures[ours].items():
        other = figures[base].get(figure, [])
        if not other:
            continue
        cells = [f"{statistics.median(v):.3f} ({min(v):.3f}-{max(v):.3f})" for v in (values, other)]
        ratio = statistics.median(other) / statistics.median(values) if statistics.median(values) > 0 else float("nan")
        print(f"{figure:<16} {cells[0]:>26} {cells[1]:>26}   {ratio:5.2f}", flush=True)


# Runs in a fresh process of a tree: the start-up of its __main__.main, step by
# step. A tree without warmup.steps (older ones) warms up in one step.
_PHASES = r"""
import io, json, sys, time
arrived = time.monotonic()  # the commands are taken to have come at once, as in `first move`
def stamp():
    return time.perf_counter(), time.process_time()
marks = [("python", stamp())]
import engine
marks.append(("engine package (the banner is printed here)", stamp()))
import numpy
marks.append(("import numpy", stamp()))
import numba
marks.append(("import numba", stamp()))
try:
    from engine.protocol.uhp import Session
    from engine.protocol import warmup
except ImportError:  # a tree from before the layer packages (0c60fdf and older)
    from engine.uhp import Session
    from engine import warmup
marks.append(("import the protocol (the engine's modules)", stamp()))
session = Session(io.StringIO())
marks.append(("Session()", stamp()))
if hasattr(warmup, "steps"):
    first, *later = warmup.steps(session.searcher, perft=False)
else:
    first, later = ("every kernel but perft's", lambda: warmup.warm_up(session.searcher, perft=False)), []
first[1]()
marks.append((f"warm-up: {first[0]}", stamp()))
session.handle("newgame Base+MLP", arrived)
session.handle("bestmove time 00:00:00.3", arrived)
marks.append(("newgame + bestmove (the first answer)", stamp()))
for name, step in later:
    step()
    marks.append((f"warm-up, later: {name}", stamp()))
print(json.dumps(marks))
"""


def phases(trees, runs):
    """Median milliseconds (wall clock and CPU) of each step of a fresh
    process's start-up, per tree, the trees alternating run by run (the
    interpreter's own start is timed as `python -c pass`)."""
    steps = {tree: {} for tree in trees}
    for index in range(runs):
        for tree in trees if index % 2 == 0 else trees[::-1]:
            spec = engine_spec(tree)
            began = time.perf_counter()
            subprocess.run([sys.executable, "-c", "pass"], check=True, env=spec.env)
            steps[tree].setdefault("interpreter start and exit (python -c pass)", []).append(
                (time.perf_counter() - began, None))
            out = subprocess.run([sys.executable, "-c", _PHASES], cwd=tree, env=spec.env, capture_output=True,
                                 text=True, timeout=TIMEOUT, check=True)
            marks = json.loads(out.stdout)
            for (_, before), (name, after) in zip(marks, marks[1:]):
                steps[tree].setdefault(name, []).append((after[0] - before[0], after[1] - before[1]))
            answered = next(mark for name, mark in marks if name.startswith("newgame + bestmove"))
            steps[tree].setdefault("from python to the first answer", []).append(
                (answered[0] - marks[0][1][0], answered[1] - marks[0][1][1]))
    for tree in trees:
        print(f"{tree.name}: {'wall':>8} {'CPU':>8}  (medians of {runs} runs)")
        for name, values in steps[tree].items():
            wall = statistics.median(w for w, _ in values) * 1000
            cpu = f"{statistics.median(c for _, c in values) * 1000:5.1f} ms" if values[0][1] is not None else ""
            print(f"  {wall:6.1f} ms {cpu:>8}  {name}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each warm measure (default 5)")
    parser.add_argument("--cold-runs", type=int, default=1, help="runs with an empty cache (default 1; ~1 min each)")
    parser.add_argument("--baseline", type=Path, help="another checkout to measure alternately with this one")
    parser.add_argument("--phases", action="store_true", help="time each step of a fresh process's start-up")
    args = parser.parse_args()
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    trees = [ROOT] + ([args.baseline.resolve()] if args.baseline else [])
    for tree in trees:
        first_answer(engine_spec(tree))  # fill numba's cache if it is empty, and warm the OS file cache
    if args.phases:
        phases(trees, args.runs)
        return
    report(trees, measure(trees, args.runs))
    for tree in trees if args.cold_runs else ():
        print(summary(f"cold answer {tree.name}", [cold_answer(tree) for _ in range(args.cold_runs)]), flush=True)


if __name__ == "__main__":
    main()
