"""Search speed and time keeping.

    python -m bench.search                 # 1 s and 5 s per position, 1 thread and with a helper
    python -m bench.search --signature     # fixed depth, one thread: total nodes (changes only with the search)
    python -m bench.search --time-control  # how long `bestmove time T` takes to answer in a real engine
    python -m bench.search --time-to-depth 6  # seconds to a fixed depth, 1 thread and with a helper
    python -m bench.search --fan           # 1 s per mid-game position of the fan game types, 1 thread
    python -m bench.search --sample 40 --depth 6 --weights a.json b.json  # nodes over 40 real positions

Positions: an opening, two middle games and an end game (from tests/data); with --fan,
the official middle games and two mid-game positions of each main fan game type (the
first two of tests/data/perft_fan.tsv, 20 to 56 random plies in), by game type. Kernels
are loaded before anything is timed, except in --time-control's first call of each
process, which is meant to include loading them from numba's cache.

The four positions' node counts are a fingerprint of the search, not a measure of
its size: setting any one group of evaluation weights to a refit's raised their
depth-7 total 1.3 to 9 times, while over 40 positions of real games the whole
refit searched about as many nodes as before (docs/sprt.md, test 6). --sample N
measures on N positions drawn (seeded) from the games of SPRT test 5 in
docs/sprt/test5/ (plies 12 to 60), one thread from an empty table each, for each
weight set given (JSON lists, as bench.tune writes them; default the engine's).
"""

import argparse
import os
import random
import re
import time
from pathlib import Path

import numpy as np

from engine.game import Board
from engine.pgn import Game
from engine.search.search import Searcher

from .perft import ROOT, midgame_position
from .records import read_records
from .selfplay import read_weights
from .uhp_client import EngineProcess, this_engine

SIGNATURE_DEPTH = 5
# The games of SPRT test 5 (1,645 games at 0.2 s a move); one folder, so that
# later records do not change the sample.
SAMPLE_GAMES = Path(__file__).resolve().parent.parent / "docs" / "sprt" / "test5"
SAMPLE_PLIES = (12, 60)


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


FAN_TYPES = ("Base+Guardians", "Base+Dx", "Base+E", "Base+J", "Base+MLP+Guardians+Dx+E+J",
             "Base+Venom", "Base+LP+Venom", "Base+MLP+Venom", "Base+Predators", "Base+MP+Venom+Predators", "Base+Vx",
             "Base+Wx", "Base+Fx", "Base+Nx", "Base+MP+Fx+Wx", "Base+HoneyCombo", "Base+MLP+HoneyCombo",
             "Base+Swarm", "Base+MLP+Swarm")


def fan_positions():
    """(game type, GameString) of the official middle games and the fan game types'."""
    rows = [line.split("\t") for line in (ROOT / "tests" / "data" / "perft_fan.tsv").read_text().splitlines()
            if line and not line.startswith("#")]
    found = [("Base+MLP", midgame_position(name)) for name in ("Base+MLP_ply12", "Base+MLP_ply24")]
    for game_type in FAN_TYPES:
        mid = [text for name, text, depth, _ in rows if depth == "1" and re.fullmatch(re.escape(game_type) + r"_mid\d+", name)
               and not Board.from_game_string(text).draw_due]  # a due draw is the bag's, not a search's
        found += [(game_type, text) for text in mid[:2]]
    return found


def fan_speed(searcher, seconds):
    """Depths reached in `seconds` (one thread) and nodes per second of CPU time (which a
    loaded machine changes less than the depths), per game type."""
    print(f"{'game type':<28} {'positions':>9} {'depths':>8} {'nodes/s (CPU)':>14}")
    by_type = {}
    for game_type, game_string in fan_positions():
        start = time.thread_time()
        result, _ = run(searcher, game_string, seconds=seconds)
        entry = by_type.setdefault(game_type, [[], 0, 0.0])
        entry[0].append(result.depth)
        entry[1] += result.nodes
        entry[2] += time.thread_time() - start
    for game_type, (depths, nodes, cpu) in by_type.items():
        print(f"{game_type:<28} {len(depths):>9} {'/'.join(map(str, depths)):>8} {nodes / cpu:>14,.0f}", flush=True)


def run(searcher, game_string, **limits):
    board = Board.from_game_string(game_string)
    searcher.new_game()
    start = time.perf_counter()
    result = searcher.search(board, **limits)
    return result, time.perf_counter() - start


def time_control(limits, processes):
    """Seconds from sending `bestmove time T` to its answer: the first call of a
    fresh process (the kernels still loading from the cache) and later calls."""
    first, later = {t: [] for t in limits}, {t: [] for t in limits}
    for _ in range(processes):
        for t in limits:
            with EngineProcess(this_engine()).launch() as engine:
                engine.read_answer()  # the banner
                for index, (_, game_string) in enumerate(positions()):
                    # Both commands at once: the first one waits for the kernels to load.
                    start = time.perf_counter()
                    engine.send(f"newgame {game_string}\nbestmove time 00:00:{t:06.3f}")
                    engine.read_answer()
                    engine.read_answer()
                    (first if index == 0 else later)[t].append(time.perf_counter() - start)
                engine.close_input()
                engine.wait(30)
    print(f"{'T':>5} {'first call max':>15} {'later mean':>11} {'later max':>10}  (seconds over T)")
    for t in limits:
        print(f"{t:>5.2f} {max(first[t]) - t:>+15.3f} {sum(later[t]) / len(later[t]) - t:>+11.3f} "
              f"{max(later[t]) - t:>+10.3f}", flush=True)


def sample_positions(count, seed=1):
    """`count` positions in progress, each from a different game of the SPRT
    records (a ply from SAMPLE_PLIES, at most two before the game's end)."""
    records = read_records(SAMPLE_GAMES)
    rng = random.Random(seed)
    boards = []
    for record in rng.sample(records, len(records)):
        last = min(SAMPLE_PLIES[1], record["plies"] - 2)
        if last < SAMPLE_PLIES[0]:
            continue
        ply = rng.randint(SAMPLE_PLIES[0], last)
        for board in Game.from_game_string(record["game_string"]).positions(repetition_draw=True):
            if board.ply == ply:
                if len(board.legal_moves) > 1:
                    boards.append(board.copy())
                break
        if len(boards) == count:
            return boards
    raise SystemExit(f"--sample: only {len(boards)} positions in {SAMPLE_GAMES}")


def sample_nodes(boards, depth, weight_files):
    """Nodes and CPU seconds to `depth` over `boards`, per weight set."""
    print(f"{len(boards)} positions of the SPRT games, depth {depth}, one thread, an empty table each")
    print(f"{'weights':<30} {'total nodes':>12} {'median':>9} {'geo. mean':>9} {'CPU s':>7}")
    for path in weight_files or [None]:
        searcher = Searcher(weights=read_weights(path))
        nodes = []
        start = time.process_time()
        for board in boards:
            searcher.new_game()
            nodes.append(searcher.search(board, depth=depth).nodes)
        nodes = np.array(nodes)
        label = path or "the engine's"
        print(f"{label:<30} {nodes.sum():>12,} {int(np.median(nodes)):>9,} "
              f"{int(np.exp(np.log(nodes).mean())):>9,} {time.process_time() - start:>7.2f}", flush=True)


def time_to_depth(searcher, depth, threads_list):
    """Seconds to finish `depth` plies from an empty table, per thread count: the
    speed-up of helper threads as a player sees it (nodes per second overstate it,
    because the threads search some of the same nodes)."""
    print(f"{'position':<26} {'depth':>5} " + " ".join(f"{f'{t} thr s':>9}" for t in threads_list) + "  speed-up")
    totals = [0.0] * len(threads_list)
    for name, game_string in positions():
        times = []
        for threads in threads_list:
            searcher.set_option("MaxHelperThreads", threads - 1)
            _, elapsed = run(searcher, game_string, depth=depth)
            times.append(elapsed)
        totals = [a + b for a, b in zip(totals, times)]
        print(f"{name:<26} {depth:>5} " + " ".join(f"{t:>9.2f}" for t in times) + f"  {times[0] / times[-1]:>8.2f}",
              flush=True)
    print(f"{'all':<26} {depth:>5} " + " ".join(f"{t:>9.2f}" for t in totals) + f"  {totals[0] / totals[-1]:>8.2f}")
    searcher.set_option("MaxHelperThreads", 0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--signature", action="store_true", help=f"depth {SIGNATURE_DEPTH}, one thread: node count")
    parser.add_argument("--seconds", type=float, nargs="+", default=[1.0, 5.0])
    parser.add_argument("--time-control", action="store_true", help="answer times of bestmove time T")
    parser.add_argument("--time-to-depth", type=int, metavar="D", help="seconds to depth D, with and without helpers")
    parser.add_argument("--processes", type=int, default=3, help="fresh engines per T with --time-control")
    parser.add_argument("--fan", action="store_true", help="the fan game types beside Base+MLP, 1 thread, the first --seconds (1 s)")
    parser.add_argument("--sample", type=int, metavar="N", help="nodes to --depth over N positions of the SPRT games")
    parser.add_argument("--depth", type=int, default=6, help="with --sample")
    parser.add_argument("--weights", nargs="+", metavar="FILE", help="with --sample: weight sets (JSON lists) to compare")
    args = parser.parse_args()
    if args.time_control:
        time_control([0.1, 0.5, 1.0, 2.0], args.processes)
        return
    searcher = Searcher()
    run(searcher, positions()[0][1], depth=2)  # load the kernels
    if args.fan:
        fan_speed(searcher, args.seconds[0])
        return
    if args.sample:
        sample_nodes(sample_positions(args.sample), args.depth, args.weights)
        return
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
    if args.time_to_depth:
        time_to_depth(searcher, args.time_to_depth, [1, 1 + helpers])
        return
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
