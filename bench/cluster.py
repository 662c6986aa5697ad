"""Playing games on Dask distributed: a LocalCluster of this machine's cores by
default, or the cluster of any number of machines behind a scheduler's address.

Each game is one Dask task. A worker keeps what its games need between them
(engine processes for the arena, Searchers for self-play) in a WorkerCache, a
worker plugin registered for one run and torn down at its end, so that a
worker starts its engines once, not once a game. Results come back as games
finish (`as_completed`). When a worker dies, the scheduler gives its games to
another worker (up to `distributed.scheduler.allowed-failures` times a game):
a game task only plays and returns its result, and the caller counts each
result once, so a replayed game is never counted twice.

Needs the `bench` extra: `pip install -e '.[bench]'`.
"""

import logging
import os
import signal
import threading
import uuid
from pathlib import Path

import dask
from distributed import CancelledError, Client, KilledWorker, LocalCluster, WorkerPlugin, as_completed, get_worker

from . import tournament as tournaments
from .pool import Pool
from .tournament import ArenaError, EngineSet, check_engines, play_task

# What Dask's nanny sets in a worker's environment for the worker's own libraries.
# A fixed MALLOC_TRIM_THRESHOLD_ also turns off glibc's adaptive mmap threshold, so
# that every large allocation of a process goes to the kernel and back: an engine
# inheriting it took twice the time a move at depth 1, three times the system time.
NANNY_ENVIRONMENT = "distributed.nanny.pre-spawn-environ"


class WorkerCache(WorkerPlugin):
    """A Pool of objects made by `make(worker)` on each worker, for the tasks
    of one run (`cache(name)` finds it); closed when the run ends or the
    worker does."""

    def __init__(self, name, make):
        self.name = name
        self.make = make

    def setup(self, worker):
        self.pool = Pool(lambda: self.make(worker))

    def teardown(self, worker):
        self.pool.close()


class IgnoreInterrupts(WorkerPlugin):
    """Workers of the runner's LocalCluster ignore SIGINT: Ctrl-C in a terminal
    reaches the runner's whole process group, and the runner stops its workers
    itself (a worker interrupted prints its tracebacks and loses its game)."""

    name = "hexbee-ignore-sigint"

    def setup(self, worker):
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, signal.SIG_IGN)


def _silence_dask_logs():
    logging.getLogger("distributed").setLevel(logging.CRITICAL)


def cache(name):
    """The WorkerCache `name` of the worker running this task."""
    return get_worker().plugins[name]


class Cluster:
    """A Client for a run's tasks: of a new LocalCluster of `workers`
    processes (one task at a time each) when `scheduler` is None, else of the
    running cluster at that address."""

    def __init__(self, scheduler=None, workers=1, memory_limit="auto"):
        self.scheduler = scheduler
        self.workers = workers
        self.memory_limit = memory_limit
        self._local = None
        self.client = None

    def __enter__(self):
        if self.scheduler is None:
            # The dashboard on any free port: None does not turn it off (dask/distributed#8136), and
            # 8787 taken by another cluster printed a warning.
            with dask.config.set({f"{NANNY_ENVIRONMENT}.MALLOC_TRIM_THRESHOLD_": None}):  # for the Searchers
                self._local = LocalCluster(n_workers=self.workers, threads_per_worker=1, processes=True,
                                           memory_limit=self.memory_limit, dashboard_address=":0",
                                           plugins={IgnoreInterrupts()})
            self.client = Client(self._local)
        else:
            try:
                self.client = Client(self.scheduler, timeout=30)
            except (OSError, ValueError) as error:
                raise OSError(f"cannot reach the Dask scheduler at {self.scheduler}: {error}") from None
        return self

    def __exit__(self, *exc):
        if self._local is not None:
            # A game still being played when the match stops (an SPRT decision,
            # Ctrl-C) keeps its worker busy while the scheduler closes, and the
            # worker logs a traceback for every heartbeat it then misses.
            try:
                self.client.run(_silence_dask_logs)
            except Exception:  # a worker already gone has nothing left to say
                pass
        if self.client is not None:
            self.client.close()
        if self._local is not None:
            self._local.close()

    def describe(self):
        """Where the games are played, for the runner's first lines."""
        threads = sum(self.client.nthreads().values())
        where = "a LocalCluster" if self.scheduler is None else f"the Dask cluster at {self.scheduler}"
        return f"{where} ({len(self.client.nthreads())} workers, {threads} games at once)"

    def cached(self, make, kind="hexbee"):
        """Register a WorkerCache of objects made by `make(worker)` and return its name."""
        name = f"{kind}-{uuid.uuid4().hex[:12]}"
        self.client.register_plugin(WorkerCache(name, make), name=name)
        return name

    def uncache(self, name):
        """Tear the WorkerCache down on every worker (its objects closed)."""
        try:
            self.client.unregister_worker_plugin(name)
        except Exception:  # a worker gone or the scheduler closing: its processes end with it
            pass

    def stream(self, function, argument_lists, keys, accept):
        """Run `function(*arguments)` for each argument list as a task named by
        its key, passing each result to `accept(result)` as it finishes, until
        all have or `accept` returns False. An error in a task is raised here
        (after the tasks not yet finished are cancelled); so is an interrupt.
        Before returning, results that finished meanwhile are passed on too."""
        futures = [self.client.submit(function, *arguments, key=key, pure=False)
                   for arguments, key in zip(argument_lists, keys)]
        taken = set()
        try:
            for future in as_completed(futures):
                taken.add(future.key)
                if not accept(future.result()):
                    return
        finally:
            self.client.cancel([future for future in futures if not future.done()])
            for future in futures:
                if future.key not in taken and future.status == "finished":
                    accept(future.result())


def engine_environment():
    """This worker's environment less what Dask's nanny set in it (NANNY_ENVIRONMENT)."""
    nanny = dask.config.get(NANNY_ENVIRONMENT, default={}) or {}
    return {name: value for name, value in os.environ.items() if name not in nanny}


class _Engines:
    """Makes an EngineSet on a worker: the engines in engine_environment()
    unless their spec sets one, stderr logs in the match's folder when the
    worker sees it (this machine, a shared disk), else in the worker's own."""

    def __init__(self, entrants, startup_timeout, directory):
        self.entrants, self.startup_timeout, self.directory = entrants, startup_timeout, directory

    def __call__(self, worker):
        directory = Path(self.directory)
        if not directory.is_dir():
            directory = Path(worker.local_directory)
        environment = engine_environment()
        entrants = [entrant if entrant.spec.env is not None else
                    entrant._replace(spec=entrant.spec._replace(env=environment)) for entrant in self.entrants]
        return EngineSet(entrants, self.startup_timeout, directory)


def _check(name, tasks):
    """Start one worker's engines once before any game (tournament.check_engines)."""
    plugin = cache(name)
    with plugin.pool.borrowed() as engines:
        check_engines(engines, plugin.make.entrants, tasks)


def _play(name, task, settings, every):
    plugin = cache(name)
    worker = get_worker()
    with plugin.pool.borrowed() as engines:
        return play_task(engines, plugin.make.entrants, task, settings, every=every,
                         on_ply=lambda number, plies: worker.log_event(_ply_topic(name), (number, plies)))


def _ply_topic(name):
    """The event topic on which the workers report the lengths of a match's games."""
    return f"{name}-plies"


class DaskRunner:
    """Plays a Tournament's games on a Cluster (bench/tournament.py's runners)."""

    def __init__(self, cluster):
        self.cluster = cluster

    def run(self, tournament, tasks):
        t = tournament
        name = self.cluster.cached(_Engines(t.entrants, t.startup_timeout, str(t.log.directory.resolve())), "arena")
        topic = _ply_topic(name)
        # Called on the client's event loop: Progress takes a lock for it.
        self.cluster.client.subscribe_topic(topic, lambda event: t.on_ply(*event[1]))
        try:
            self.cluster.client.submit(_check, name, tasks, pure=False).result()
            self.cluster.stream(_play, [(name, task, t.settings, tournaments.PLY_NOTE_SECONDS) for task in tasks],
                                [f"{name}-game-{task.number}" for task in tasks], t.accept)
        except KilledWorker as error:  # the game is kept from the workers it keeps killing
            raise ArenaError(f"workers died playing a game, {dask.config.get('distributed.scheduler.allowed-failures')}"
                             f" times or more: {error}") from None
        except CancelledError:
            raise ArenaError("the Dask scheduler cancelled the games (did it stop?)") from None
        finally:
            self.cluster.client.unsubscribe_topic(topic)
            self.cluster.uncache(name)
