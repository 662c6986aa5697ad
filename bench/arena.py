"""Engine-vs-engine matches and round robins between any UHP engines.

    python -m bench.arena --engine "cmd=python -m engine" name=d1 depth=1 \\
                          --engine "cmd=python -m engine" name=d2 depth=2 --games 200

Each --engine is a list of key=value words: cmd=COMMAND LINE (required),
name=NAME, dir=WORKING DIRECTORY, option.NAME=VALUE (sent as `options set NAME
VALUE` at start-up), and one time control: depth=N, movetime=SECONDS or
tc=BASE+INCREMENT (a clock in seconds); limit=time, seconds or clock is the
form of its time limits (bestmove time hh:mm:ss, bestmove seconds S, or with a
clock hexbee's bestmove clock REMAINING INCREMENT). --each gives defaults for all engines.
Two engines play a match, more a round robin. Results go to --out: games.jsonl,
games.pgn, summary.txt, match.json (the arguments) and each engine's stderr.

The games are played on Dask distributed (the `bench` extra, pip install -e
'.[bench]'): a LocalCluster of --concurrency worker processes, or with
--scheduler ADDRESS the cluster behind that scheduler; without Dask, or with
--local, on threads of this process. --resume DIR plays on the match saved in
DIR (its arguments from DIR/match.json), only the games not in its games.jsonl
(games.pgn is written again from games.jsonl, which is the record).
"""

import argparse
import json
import os
import signal
import sys
import threading
from collections import Counter
from datetime import datetime
from pathlib import Path

from . import workers
from .elo import PAIR_SCORES, Sprt
from .openings import OPENING_PLIES, default_openings_file, generate_openings, load_openings
from .records import GameLog, resume_records
from .referee import GameSettings
from .scoreboard import Scoreboard
from .timecontrol import TimeControl
from .tournament import ArenaError, Entrant, Tournament, schedule
from .uhp_client import EngineSpec

DEFAULTS = GameSettings()
RESULTS = Path(__file__).resolve().parent / "results"
TIME_CONTROL_KEYS = ("depth", "movetime", "tc")
MATCH_FILE = "match.json"  # the arguments of a match, for --resume
MATCH_ARGUMENTS = ("--engine", "--each", "--out")  # what a resumed match keeps from its first run
RUN_ARGUMENTS = {"--resume": 1, "--scheduler": 1, "--local": 0}  # how a run plays, not saved in match.json


def parse_entrant(words, defaults, number):
    """An Entrant from `key=value` words, `defaults` filled in first."""
    fields = {}
    options = []
    for word in list(defaults) + list(words):
        key, equals, value = word.partition("=")
        if not equals:
            raise ArenaError(f"engine setting {word!r} is not key=value")
        if key.startswith("option."):
            options.append((key[len("option."):], value))
        elif key in ("cmd", "name", "dir", "limit") or key in TIME_CONTROL_KEYS:
            if key in TIME_CONTROL_KEYS:  # a later time control replaces a default one
                for other in TIME_CONTROL_KEYS:
                    fields.pop(other, None)
            fields[key] = value
        else:
            raise ArenaError(f"unknown engine setting {key!r} (cmd, name, dir, option.NAME, depth, movetime, tc, limit)")
    if "cmd" not in fields:
        raise ArenaError(f"engine {number} has no cmd=")
    controls = [key for key in TIME_CONTROL_KEYS if key in fields]
    if not controls:
        raise ArenaError(f"engine {number} has no time control (depth=, movetime= or tc=)")
    try:
        control = TimeControl.parse(controls[0], fields[controls[0]])
        if "limit" in fields:
            control = control.with_form(fields["limit"])
    except ValueError as error:
        raise ArenaError(str(error)) from None
    spec = EngineSpec(fields.get("name", f"engine{number}"), fields["cmd"], tuple(options), fields.get("dir"))
    return Entrant(spec, control)


def parse_sprt(words):
    """(the Sprt, the pentanomial counts of the pairs played before this match
    (`before=P0-P1-P2-P3-P4`, a test continued from counts on record), or None)."""
    values, before = {"alpha": 0.05, "beta": 0.05}, None
    for word in words:
        key, _, value = word.partition("=")
        if key == "before":
            before = parse_pair_counts(value)
        elif key in ("elo0", "elo1", "alpha", "beta"):
            try:
                values[key] = float(value)
            except ValueError:
                raise ArenaError(f"SPRT setting {word!r} is not a number") from None
        else:
            raise ArenaError(f"unknown SPRT setting {word!r} (elo0, elo1, alpha, beta, before)")
    if "elo0" not in values or "elo1" not in values:
        raise ArenaError("--sprt needs elo0= and elo1=")
    return Sprt(values["elo0"], values["elo1"], values["alpha"], values["beta"]), before


def parse_pair_counts(text):
    counts = text.split("-")
    if len(counts) != len(PAIR_SCORES) or not all(count.isdigit() for count in counts):
        raise ArenaError(f"before={text!r}: give the pairs scoring 0, 1/2, 1, 3/2 and 2 points as N-N-N-N-N")
    return Counter(dict(zip(PAIR_SCORES, map(int, counts))))


def build_parser():
    parser = argparse.ArgumentParser(
        prog="python -m bench.arena",
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 2)[2],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--engine", nargs="+", action="append", metavar="KEY=VALUE",
                        help="one engine (give two or more)")
    parser.add_argument("--each", nargs="+", default=[], metavar="KEY=VALUE", help="defaults for every engine")
    parser.add_argument("--game-type", default="Base+MLP", help="for the default openings file and random openings")
    parser.add_argument("--openings", type=Path, help="a file of GameStrings (default: bench/data/openings-TYPE.txt)")
    parser.add_argument("--random-openings", action="store_true",
                        help="balanced random openings from --seed instead of a file")
    parser.add_argument("--opening-plies", type=int, default=OPENING_PLIES)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=100, help="games per pairing (rounded up to even)")
    parser.add_argument("--concurrency", type=int, default=os.cpu_count() or 1,
                        help="games at once: LocalCluster workers or local threads")
    workers.add_arguments(parser, "play on threads of this process, not on Dask")
    parser.add_argument("--resume", type=Path, metavar="DIR",
                        help="go on with the match saved in DIR: play the games not yet in its games.jsonl")
    parser.add_argument("--max-plies", type=int, default=DEFAULTS.max_plies, help="adjudicate a draw here")
    parser.add_argument("--margin", type=float, default=DEFAULTS.margin,
                        help="seconds an engine may overrun its time")
    parser.add_argument("--command-timeout", type=float, default=DEFAULTS.command_timeout,
                        help="seconds to answer newgame or play")
    parser.add_argument("--hang-timeout", type=float, default=DEFAULTS.hang_seconds,
                        help="seconds to answer bestmove depth N")
    parser.add_argument("--startup-timeout", type=float, default=120.0,
                        help="seconds to start (a first numba compile is slow)")
    parser.add_argument("--sprt", nargs="+", metavar="KEY=VALUE",
                        help="elo0=E0 elo1=E1 [alpha=0.05 beta=0.05] [before=P0-P1-P2-P3-P4]: stop when H0 or H1 "
                             "is accepted; `before` adds the pairs of an earlier run whose games are lost")
    parser.add_argument("--out", type=Path, help="output folder (default: bench/results/arena-DATE-TIME)")
    return parser


def openings_for(args, pairs):
    if args.random_openings:
        return generate_openings(args.game_type, pairs, args.seed, args.opening_plies)
    path = args.openings or default_openings_file(args.game_type)
    if path is None:
        raise ArenaError(f"no openings file for {args.game_type}: give --openings or --random-openings")
    return load_openings(path)


SHOWN_GAMES = 4  # games in progress the live line names, so that it fits a terminal's width


class Progress:
    """The live line on stderr: rewritten in place on a terminal, with the length of
    each game in progress; one line a finished game otherwise. A Dask runner
    reports the games' lengths from another thread, hence the lock."""

    def __init__(self, scoreboard, total, stream=None):
        self.scoreboard, self.total = scoreboard, total
        self.stream = stream or sys.stderr
        self.in_place = self.stream.isatty()
        self.running = {}  # game number -> plies so far
        self.finished = set()  # a late report of a finished game is not news
        self.lock = threading.Lock()

    def __call__(self, record):
        with self.lock:
            self.running.pop(record.get("number"), None)
            self.finished.add(record.get("number"))
            line = self.scoreboard.progress_line(self.total)
            self._write(line)

    def ply(self, number, plies):
        if not self.in_place:
            return
        with self.lock:
            if number in self.finished:
                return
            self.running[number] = plies
            self._write(self.scoreboard.progress_line(self.total))

    def _write(self, line):
        if self.in_place:
            if self.running:
                games = [f"#{number} ply {plies}" for number, plies in sorted(self.running.items())]
                more = f" +{len(games) - SHOWN_GAMES} more" if len(games) > SHOWN_GAMES else ""
                line += "  playing " + ", ".join(games[:SHOWN_GAMES]) + more
            self.stream.write(f"\r\x1b[K{line}")
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def finish(self):
        if self.in_place:
            self.stream.write("\n")


def without(argv, options=RUN_ARGUMENTS):
    """`argv` less `options` (option -> how many values follow it) and their values."""
    rest, words = [], iter(argv)
    for word in words:
        if word in options:
            for _ in range(options[word]):
                next(words, None)
        elif word.split("=", 1)[0] not in options:
            rest.append(word)
    return rest


def resumed_arguments(directory, argv):
    """The arguments of the match saved in `directory`, then those of `argv`
    (they may change how it is run and add games, not who plays). A folder
    without match.json (a match of an older arena) takes `argv` as they are."""
    rest = without(argv, {"--resume": 1})
    path = directory / MATCH_FILE
    if not path.exists() and "--engine" in rest:
        return [*rest, "--out", str(directory)]
    given = [word for word in rest if word.split("=", 1)[0] in MATCH_ARGUMENTS]
    if given:
        raise ArenaError(f"a resumed match keeps its engines and folder: leave out {', '.join(given)}")
    try:
        saved = without(json.loads(path.read_text(encoding="utf-8"))["argv"], {"--out": 1})
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ArenaError(f"cannot resume from {directory}: no readable {MATCH_FILE} ({error}); "
                         "give the match's --engine arguments") from None
    return [*saved, *rest, "--out", str(directory)]


def parse_arguments(argv):
    """(arguments, the arguments to save in match.json, records already
    played) of a new or a resumed match."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.resume is None:
        if not args.engine:
            raise ArenaError("give at least two engines (--engine cmd=... --engine cmd=...), or --resume DIR")
        return args, without(argv), []
    directory = args.resume
    match = resumed_arguments(directory, argv)
    args = parser.parse_args(match)
    args.resume = directory
    try:
        played, cut = resume_records(args.out)
        if cut:
            print(f"note: the last line of {args.out}/games.jsonl was cut short; its game is played again",
                  file=sys.stderr)
    except (OSError, ValueError) as error:
        raise ArenaError(f"cannot read the games in {args.out}: {error}") from None
    return args, without(match), played


def make_runner(args):
    """The runner of the games (None: tournament.LocalRunner) and the Dask
    cluster it needs (bench/workers.py)."""
    try:
        cluster = workers.cluster_from(args, args.concurrency, "this process's threads")
    except workers.WhereError as error:
        raise ArenaError(str(error)) from None
    if cluster is None:
        return None, None
    from .cluster import DaskRunner

    return DaskRunner(cluster), cluster


def main(argv=None):
    """The console script: SIGTERM stops the match like Ctrl-C does."""

    def terminate(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, terminate)
    return run(argv)


def run(argv=None):
    """Run a match from command-line arguments; return the exit status (0,
    2 for a match that cannot be run, 130 when interrupted)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args, saved, played = parse_arguments(argv)
        entrants = [parse_entrant(words, args.each, number) for number, words in enumerate(args.engine, start=1)]
        if len(entrants) < 2:
            raise ArenaError("give at least two engines")
        sprt, pairs_before = parse_sprt(args.sprt) if args.sprt else (None, None)
        if sprt and len(entrants) != 2:
            raise ArenaError("--sprt needs exactly two engines (it tests the first against the second)")
        pairs = (args.games + 1) // 2
        openings = openings_for(args, pairs)
        tasks = schedule(len(entrants), openings, args.games)
        runner, cluster = make_runner(args)
        settings = GameSettings(args.max_plies, args.margin, args.command_timeout, args.hang_timeout)
        scoreboard = Scoreboard([entrant.name for entrant in entrants], sprt, pairs_before)
        out = args.out or RESULTS / f"arena-{datetime.now():%Y%m%d-%H%M%S}"
        log = GameLog(out, played=played)
        progress = Progress(scoreboard, len(tasks))
        tournament = Tournament(entrants, tasks, settings, log, scoreboard, concurrency=args.concurrency,
                                startup_timeout=args.startup_timeout, on_game=progress, on_ply=progress.ply,
                                played=played)
    except (ArenaError, ValueError, OSError) as error:
        print(f"arena: {error}", file=sys.stderr)
        return 2
    (out / MATCH_FILE).write_text(json.dumps({"argv": saved}, indent=1) + "\n", encoding="utf-8")
    on_file = scoreboard.played
    for entrant in entrants:
        print(f"{entrant.name}: {entrant.spec.command} {entrant.control}"
              + "".join(f" {name}={value}" for name, value in entrant.spec.options))
    if pairs > len(openings):  # deterministic engines then replay the same games
        print(f"note: {len(openings)} openings for {pairs} pairs of games: openings are reused")
    if args.resume is not None:
        print(f"resumed: {on_file} games on file, {len(tournament.pending)} to play")
    status, ending = 1, "stopped by an error in the runner"
    try:
        if cluster is not None and tournament.pending:
            with cluster:
                print(f"{len(tasks)} games on {cluster.describe()}, results in {out}", flush=True)
                tournament.run(runner)
        else:
            print(f"{len(tasks)} games, {args.concurrency} at once, results in {out}", flush=True)
            tournament.run(runner)
        status, ending = 0, tournament.stopped_by or "all games played"
    except ArenaError as error:
        print(f"arena: {error}", file=sys.stderr)
        ending, status = f"stopped: {error}", 2
    except KeyboardInterrupt:
        ending, status = "interrupted", 130
    except OSError as error:  # a scheduler that cannot be reached
        print(f"arena: {error}", file=sys.stderr)
        ending, status = f"stopped: {error}", 2
    finally:
        progress.finish()
        before = f", {on_file} of them before this run" if on_file else ""
        summary = f"{scoreboard.table()}\n{scoreboard.played} of {len(tasks)} games played{before} ({ending})"
        print(summary)
        log.write_summary(summary)
        log.close()
    return status


if __name__ == "__main__":
    sys.exit(main())
