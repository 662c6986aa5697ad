"""Objects kept between games and lent to one game at a time: the engine
processes of the match runner's workers (local threads or Dask workers) and
the self-play Searchers of a Dask worker.

Starting an engine costs a process and loading its kernels (0.5 s and more); a
Searcher allocates its transposition table. A Pool makes one on demand when
none is free, takes it back after the game and closes them all at the end.
"""

import threading
from contextlib import contextmanager


class Pool:
    """Objects made by `make()`, each lent to one borrower at a time."""

    def __init__(self, make):
        self._make = make
        self._lock = threading.Lock()
        self._idle = []
        self.made = []  # every object made, lent or idle

    def take(self):
        """An idle object, or a new one."""
        with self._lock:
            if self._idle:
                return self._idle.pop()
        thing = self._make()
        with self._lock:
            self.made.append(thing)
        return thing

    def give_back(self, thing):
        with self._lock:
            self._idle.append(thing)

    @contextmanager
    def borrowed(self):
        thing = self.take()
        try:
            yield thing
        finally:
            self.give_back(thing)

    def close(self):
        """Close every object made (those with a `close` method) and forget them."""
        with self._lock:
            made, self.made, self._idle = self.made, [], []
        for thing in made:
            close = getattr(thing, "close", None)
            if close is not None:
                close()
