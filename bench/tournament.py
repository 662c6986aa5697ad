"""Running many games: the schedule, parallel workers that each own one process
per engine, and a stop (Ctrl-C, an SPRT decision) that keeps every finished game.

Games are scheduled in pairs: one opening, played once with each engine as
white. Every pairing of engines (two for a match, all pairs for a round robin)
gets the same openings.
"""

import queue
import re
import threading
import time
from datetime import datetime, timezone
from itertools import combinations
from typing import NamedTuple

from engine.bugs import EXPANSION_BIT, EXPANSION_NAMES
from engine.notation import parse_game_type

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
            tasks.append(GameTask(len(tasks) + 1, pair, first, second, opening))
            tasks.append(GameTask(len(tasks) + 1, pair, second, first, opening))
    return tasks


def required_capabilities(game_type):
    """The UHP capability words an engine must announce to play `game_type`."""
    bits = parse_game_type(game_type)
    return {EXPANSION_NAMES[token] for token, bit in EXPANSION_BIT.items() if bits & bit}


class Tournament:
    """Plays `tasks` between `entrants` on `concurrency` workers, writing each
    finished game to `log` and counting it on `scoreboard`; `on_game(record)`
    is called after each (for the progress line)."""

    def __init__(self, entrants, tasks, settings, log, scoreboard, *, concurrency=1,
                 startup_timeout=120.0, on_game=None):
        names = [entrant.name for entrant in entrants]
        if len(set(names)) != len(names):
            raise ArenaError(f"engine names must differ: {names}")
        self.entrants = entrants
        self.tasks = tasks
        self.settings = settings
        self.log = log
        self.scoreboard = scoreboard
        self.concurrency = max(1, min(concurrency, len(tasks)))
        self.startup_timeout = startup_timeout
        self.on_game = on_game or (lambda record: None)
        self.stopped_by = None  # "SPRT H0", "SPRT H1" or None
        self._queue = queue.Queue()
        self._results = queue.Queue()
        self._stop = threading.Event()
        self._engines = []  # every worker's processes, killed together on a stop

    def _new_engine(self, entrant):
        stem = re.sub(r"[^\w.+-]", "_", entrant.name)
        engine = EngineProcess(entrant.spec, self.startup_timeout, self.log.directory / f"{stem}.stderr.log")
        self._engines.append(engine)
        return engine

    def check_engines(self):
        """Start each engine once, before any game, and return them (for the
        first worker): a bad command line, an option it refuses or a missing
        expansion stops the match here instead of forfeiting every game. One
        at a time, so that a first numba compile is not run twice at once."""
        game_types = {task.opening.split(";", 1)[0] for task in self.tasks}  # canonical (Board wrote them)
        needed = set().union(*(required_capabilities(game_type) for game_type in game_types))
        engines = [self._new_engine(entrant) for entrant in self.entrants]
        for entrant, engine in zip(self.entrants, engines):
            try:
                engine.start()
            except EngineError as error:
                raise ArenaError(
                    f"engine {entrant.name} ({entrant.spec.command}): {error}; its stderr is in {engine.stderr_path}"
                ) from None
            missing = needed - engine.capabilities
            if missing:
                raise ArenaError(f"engine {entrant.name} does not support {', '.join(sorted(missing))}")
        return engines

    def run(self):
        """Play until every task is done, the SPRT decides or the caller is
        interrupted (KeyboardInterrupt propagates once the engines are killed
        and the games already finished are saved)."""
        workers = []
        try:
            engine_sets = [self.check_engines()]
            engine_sets += [[self._new_engine(e) for e in self.entrants] for _ in range(self.concurrency - 1)]
            for task in self.tasks:
                self._queue.put(task)
            workers = [threading.Thread(target=self._work, args=(engines,), daemon=True) for engines in engine_sets]
            for worker in workers:
                worker.start()
            while any(worker.is_alive() for worker in workers) or not self._results.empty():
                try:
                    item = self._results.get(timeout=0.1)
                except queue.Empty:
                    continue
                self._accept(item)
                sprt = self.scoreboard.sprt_status()
                if sprt is not None and sprt.decision:
                    self.stopped_by = f"SPRT {sprt.decision}"
                    break
        finally:
            self._stop.set()
            for engine in self._engines:
                engine.kill()
            for worker in workers:
                worker.join(timeout=10)
            for engine in self._engines:  # those no worker closed: a failed check, a stuck worker
                engine.close(grace=0)
            while not self._results.empty():  # games that finished while stopping
                self._accept(self._results.get())

    def _accept(self, item):
        if isinstance(item, BaseException):
            raise item
        try:
            self.log.write(item)
        finally:  # a SIGINT just after the write must not leave a game on file that the summary lacks
            self.scoreboard.add(item)
        self.on_game(item)

    def _work(self, engines):
        try:
            while not self._stop.is_set():
                try:
                    task = self._queue.get_nowait()
                except queue.Empty:
                    return
                white, black = self.entrants[task.white], self.entrants[task.black]
                started = time.monotonic()
                outcome = play_game(
                    (engines[task.white], engines[task.black]),
                    (white.name, black.name),
                    (white.control, black.control),
                    task.opening,
                    self.settings,
                )
                if self._stop.is_set() and outcome.termination in FORFEITS:
                    return  # most likely the stop killed the engine: not a result
                self._results.put(_record(task, white, black, outcome, time.monotonic() - started))
        except Exception as error:  # a bug in the runner: stop the match with it
            self._results.put(error)
        finally:
            for engine in engines:
                engine.close()


def _record(task, white, black, outcome, seconds):
    """The saved form of one game (records.py writes it)."""
    return {
        "number": task.number,
        "pair": task.pair,
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
