"""Running many games: the schedule, the games' identity, playing one game on a
set of engine processes, and a Tournament that counts each finished game once
and stops (Ctrl-C, an SPRT decision) keeping every finished game. Where the
games are played is a runner's business: LocalRunner's threads here, each with
its own process per engine, or Dask workers (bench/cluster.py).

Games are scheduled in pairs: one opening, played once with each engine as
white. Every pairing of engines (two for a match, all pairs for a round robin)
gets the same openings. A game is identified by its players and its round (the
opening's turn in the schedule), so a match resumed from its games.jsonl plays
only the games not on file.
"""

import queue
import re
import threading
import time
from datetime import datetime, timezone
from itertools import combinations
from pathlib import Path
from typing import NamedTuple

from engine.rules.bugs import EXPANSION_BIT, EXPANSION_NAMES
from engine.rules.notation import parse_game_type

from .pool import Pool
from .referee import FORFEITS, play_game
from .timecontrol import TimeControl
from .uhp_client import EngineError, EngineProcess, EngineSpec


class ArenaError(Exception):
    """A match that cannot be run as asked (an engine that does not start, ...)."""


class Entrant(NamedTuple):
    spec: EngineSpec
    control: TimeControl

    @property
    def name(self):
        return self.spec.name


class GameTask(NamedTuple):
    number: int  # 1-based, in schedule order
    pair: int  # the two games of one opening and pairing share it
    white: int  # entrant indices
    black: int
    opening: str
    round: int = 1  # 1-based: the opening's turn in the schedule (openings repeat when there are few)


def schedule(entrant_count, openings, games_per_pairing):
    """Tasks for every pairing: openings in order (cycling when there are fewer
    than needed), each played twice with colours swapped, so an odd number of
    games is rounded up."""
    tasks = []
    pairings = list(combinations(range(entrant_count), 2))
    for round_index in range((games_per_pairing + 1) // 2):
        opening = openings[round_index % len(openings)]
        for first, second in pairings:
            pair = len(tasks) // 2 + 1
            tasks.append(GameTask(len(tasks) + 1, pair, first, second, opening, round_index + 1))
            tasks.append(GameTask(len(tasks) + 1, pair, second, first, opening, round_index + 1))
    return tasks


def game_id(white, black, round_number):
    """What identifies a game of a match: who had White, who had Black, and the
    round (a pairing plays each round's opening once with each colour)."""
    return f"{white} vs {black} round {round_number}"


def record_id(record, pairings=1):
    """The game_id of a saved game; a record written before rounds were saved
    has its round from its pair number (`pairings` pairs of games a round)."""
    round_number = record.get("round") or (record["pair"] - 1) // pairings + 1
    return game_id(record["white"], record["black"], round_number)


def required_capabilities(game_type):
    """The UHP capability words an engine must announce to play `game_type`."""
    bits = parse_game_type(game_type)
    return {EXPANSION_NAMES[token] for token, bit in EXPANSION_BIT.items() if bits & bit}


class EngineSet(list):
    """One process per entrant (EngineProcess objects, in the entrants' order),
    started when a game first needs them and reused for the next games."""

    def __init__(self, entrants, startup_timeout, stderr_dir):
        super().__init__()
        for entrant in entrants:
            stem = re.sub(r"[^\w.+-]", "_", entrant.name)
            self.append(EngineProcess(entrant.spec, startup_timeout, Path(stderr_dir) / f"{stem}.stderr.log"))

    def kill(self):
        for engine in self:
            engine.kill()

    def close(self, grace=1.0):
        for engine in self:
            engine.close(grace)


def check_engines(engines, entrants, tasks):
    """Start each engine of `engines` (an EngineSet), before any game: a bad
    command line, an option it refuses or a missing expansion stops the match
    here (ArenaError) instead of forfeiting every game. One at a time, so that
    a first numba compile is not run twice at once."""
    game_types = {task.opening.split(";", 1)[0] for task in tasks}  # canonical (Board wrote them)
    needed = set().union(*(required_capabilities(game_type) for game_type in game_types))
    for entrant, engine in zip(entrants, engines):
        try:
            engine.start()
        except EngineError as error:
            raise ArenaError(
                f"engine {entrant.name} ({entrant.spec.command}): {error}; its stderr is in {engine.stderr_path}"
            ) from None
        missing = needed - engine.capabilities
        if missing:
            raise ArenaError(f"engine {entrant.name} does not support {', '.join(sorted(missing))}")


# How often a game in progress reports its length (Tournament's on_ply): often
# enough for a live line, seldom enough for a cluster's event stream.
PLY_NOTE_SECONDS = 0.5


def play_task(engines, entrants, task, settings, on_ply=None, every=None):
    """Play one scheduled game on `engines` (an EngineSet) and return its record;
    `on_ply(number, plies)`, if given, hears the game's length while it runs, at
    most every `every` seconds (PLY_NOTE_SECONDS by default)."""
    white, black = entrants[task.white], entrants[task.black]
    every = PLY_NOTE_SECONDS if every is None else every
    started = noted = time.monotonic()

    def note(plies):
        nonlocal noted
        now = time.monotonic()
        if now - noted >= every:
            noted = now
            on_ply(task.number, plies)

    outcome = play_game(
        (engines[task.white], engines[task.black]),
        (white.name, black.name),
        (white.control, black.control),
        task.opening,
        settings,
        on_ply=note if on_ply is not None else None,
    )
    return _record(task, white, black, outcome, time.monotonic() - started)


class Tournament:
    """Plays `tasks` between `entrants` on a runner (LocalRunner by default),
    writing each finished game to `log` and counting it on `scoreboard`, once
    however often a runner delivers it; `on_game(record)` is called after each
    (for the progress line), `on_ply(number, plies)` now and then while game
    `number` runs. `played` are records already on file (a resumed
    match): they are counted, and their games are not played again."""

    def __init__(self, entrants, tasks, settings, log, scoreboard, *, concurrency=1,
                 startup_timeout=120.0, on_game=None, on_ply=None, played=()):
        names = [entrant.name for entrant in entrants]
        if len(set(names)) != len(names):
            raise ArenaError(f"engine names must differ: {names}")
        self.entrants = entrants
        self.tasks = tasks
        self.settings = settings
        self.log = log
        self.scoreboard = scoreboard
        self.concurrency = concurrency
        self.startup_timeout = startup_timeout
        self.on_game = on_game or (lambda record: None)
        self.on_ply = on_ply or (lambda number, plies: None)
        self.stopped_by = None  # "SPRT H0", "SPRT H1" or None
        self.pairings = len(list(combinations(range(len(entrants)), 2)))
        self.recorded = set()  # game_id of every game counted
        openings = {game_id(names[task.white], names[task.black], task.round): task.opening for task in tasks}
        for record in played:
            key = record_id(record, self.pairings)
            if openings.get(key) != record["opening"]:
                raise ArenaError(f"the game on file {key} (number {record.get('number')}) is not one of this "
                                 "match's games: other engines, openings or fewer games")
            if key not in self.recorded:
                self.recorded.add(key)
                self.scoreboard.add(record)

    @property
    def pending(self):
        """The tasks whose games are not on file yet."""
        names = [entrant.name for entrant in self.entrants]
        return [task for task in self.tasks
                if game_id(names[task.white], names[task.black], task.round) not in self.recorded]

    def _decided(self):
        sprt = self.scoreboard.sprt_status()
        if sprt is not None and sprt.decision:
            self.stopped_by = f"SPRT {sprt.decision}"
            return True
        return False

    def run(self, runner=None):
        """Play until every task is done, the SPRT decides or the caller is
        interrupted (KeyboardInterrupt propagates once the runner has stopped
        and the games already finished are saved)."""
        pending = self.pending
        if not pending or self._decided():
            return
        runner = runner or LocalRunner(self.concurrency)
        runner.run(self, pending)

    def accept(self, record):
        """Save and count one finished game, unless it is counted already (a
        game replayed after its worker was lost); False once the SPRT has decided."""
        key = record_id(record, self.pairings)
        if key not in self.recorded:
            self.recorded.add(key)
            try:
                self.log.write(record)
            finally:  # a SIGINT just after the write must not leave a game on file that the summary lacks
                self.scoreboard.add(record)
            self.on_game(record)
        return not self._decided()


class PlyNote(NamedTuple):
    """A game's length while it runs, passed from a runner's thread to the match's."""

    number: int
    plies: int


class LocalRunner:
    """Plays a tournament's games on `concurrency` threads of this process,
    each with its own set of engine processes."""

    def __init__(self, concurrency=1):
        self.concurrency = concurrency
        self._queue = queue.Queue()
        self._results = queue.Queue()
        self._stop = threading.Event()

    def run(self, tournament, tasks):
        t = tournament
        pool = Pool(lambda: EngineSet(t.entrants, t.startup_timeout, t.log.directory))
        workers = []
        try:
            first = pool.take()
            pool.give_back(first)
            check_engines(first, t.entrants, tasks)
            for task in tasks:
                self._queue.put(task)
            workers = [threading.Thread(target=self._work, args=(pool, t), daemon=True)
                       for _ in range(max(1, min(self.concurrency, len(tasks))))]
            for worker in workers:
                worker.start()
            while any(worker.is_alive() for worker in workers) or not self._results.empty():
                try:
                    item = self._results.get(timeout=0.1)
                except queue.Empty:
                    continue
                if not self._accept(t, item):
                    break
        finally:
            self._stop.set()
            for engines in pool.made:  # end the games in progress at once
                engines.kill()
            for worker in workers:
                worker.join(timeout=10)
            pool.close()  # including those of a stuck worker or a failed check
            while not self._results.empty():  # games that finished while stopping
                self._accept(t, self._results.get())

    @staticmethod
    def _accept(tournament, item):
        if isinstance(item, BaseException):
            raise item
        if isinstance(item, PlyNote):
            tournament.on_ply(*item)
            return True
        return tournament.accept(item)

    def _work(self, pool, tournament):
        try:
            with pool.borrowed() as engines:
                while not self._stop.is_set():
                    try:
                        task = self._queue.get_nowait()
                    except queue.Empty:
                        return
                    record = play_task(engines, tournament.entrants, task, tournament.settings,
                                       on_ply=lambda number, plies: self._results.put(PlyNote(number, plies)))
                    if self._stop.is_set() and record["termination"] in FORFEITS:
                        return  # most likely the stop killed the engine: not a result
                    self._results.put(record)
        except Exception as error:  # a bug in the runner: stop the match with it
            self._results.put(error)


def _record(task, white, black, outcome, seconds):
    """The saved form of one game (records.py writes it)."""
    return {
        "number": task.number,
        "pair": task.pair,
        "round": task.round,
        "white": white.name,
        "black": black.name,
        "white_control": str(white.control),
        "black_control": str(black.control),
        "result": outcome.result,
        "termination": outcome.termination,
        "reason": outcome.reason,
        "plies": len(outcome.game_string.split(";")) - 3,
        "opening": task.opening,
        "game_string": outcome.game_string,
        "white_seconds": outcome.seconds[0],
        "black_seconds": outcome.seconds[1],
        "duration": round(seconds, 3),
        "finished": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
