"""Long commands (bestmove, perft) run their work in a worker thread.

The main thread only waits for it, which keeps it free for what must happen on
time: Python runs signal handlers in the main thread only (SIGINT stops a
search, uhp.md "Transport"), and the answer to `bestmove time` must come out
within the limit even if the search overruns it.
"""

import math
import threading
import time

from .timeman import interrupt_deadline

# How often the waiting thread wakes up. It re-sends `stop` each time, because a
# stop that lands before the worker has started (and reset its flag) is lost.
POLL_SECONDS = 0.02


class Job:
    """`work()` run in a daemon thread; `stop()` (thread-safe) asks it to end early.

    The worker reports partial results through `publish`, which runs only while
    someone waits for the job, so that nothing is printed after its answer."""

    def __init__(self, work, stop):
        self._work = work
        self._stop = stop
        self._result = None
        self._error = None
        self._done = threading.Event()
        self._lock = threading.Lock()
        self._open = True
        self._interrupted_at = None
        self._thread = threading.Thread(target=self._run, name="hexbee-job", daemon=True)

    def start(self):
        self._thread.start()
        return self

    def _run(self):
        try:
            self._result = self._work()
        except BaseException as error:  # handed to the waiting thread, which reports it
            self._error = error
        finally:
            self._done.set()

    def publish(self, report):
        """Call `report()` unless the waiter has stopped waiting (worker side)."""
        with self._lock:
            if self._open:
                report()

    def interrupt(self):
        """SIGINT: stop now and answer by timeman's interrupt deadline."""
        self._interrupted_at = time.monotonic()
        self._stop()

    def wait(self, stop_at=math.inf, give_up_at=math.inf, interrupt_when=None, grace=0.0):
        """Wait until the work returns; from `stop_at` on (time.monotonic()) keep
        asking it to stop; at `give_up_at` stop waiting; `grace` seconds after
        the Event `interrupt_when` is seen set (the end of input), act as on
        SIGINT. Returns whether the work finished, and re-raises its error. The
        job is closed afterwards."""
        seen_at = None  # when interrupt_when was first seen set
        try:
            while not self._done.is_set():
                now = time.monotonic()
                if interrupt_when is not None and self._interrupted_at is None and interrupt_when.is_set():
                    seen_at = now if seen_at is None else seen_at
                    if now >= seen_at + grace:
                        self.interrupt()
                if self._interrupted_at is not None:
                    give_up_at = min(give_up_at, interrupt_deadline(self._interrupted_at))
                if now >= stop_at or self._interrupted_at is not None:
                    self._stop()
                if now >= give_up_at:
                    return False
                self._done.wait(min(POLL_SECONDS, give_up_at - now))
        finally:
            with self._lock:
                self._open = False
        if self._error is not None:
            raise self._error
        return True

    @property
    def result(self):
        return self._result

    def finish(self, timeout):
        """Stop the work and wait up to `timeout` seconds for the thread to end;
        True if it has."""
        self._stop()
        self._thread.join(timeout)
        return not self._thread.is_alive()
