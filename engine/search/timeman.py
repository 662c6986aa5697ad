"""Time management: how a time limit becomes the search's budget and the deadlines.

A `bestmove time T` answer must arrive within T, counted from the arrival of the
command. The search may run until T less a reserve (25 ms and a twentieth of T, at
most 0.3 s); a quarter into the reserve the session asks it to stop, and half-way
in it answers with the best move found so far, even if the search overruns
(`plan`). The search itself is stopped a few milliseconds before its budget ends
(`stop_timer`).

A fixed time a move (`bestmove time T`, `seconds T`) is a budget that is lost if
it is not spent, so the search goes on until it is used up: a depth stopped in
the middle still counts the root moves it searched in full. It stops earlier only
when the result is forced (one legal move, a forced win or loss within the depth).

With a clock (`bestmove clock REMAINING INCREMENT`, `clock_budget`) the time saved
on one move is there for the next ones: the search aims at a share of the clock
(the soft budget) and may run up to a hard one. `Pacer` decides after each depth
whether to start another: the soft budget is stretched while the best move keeps
changing or the score falls, and shrunk while it is stable; in the middle of a
depth the search is stopped at the stretched budget only if that depth has not
changed the best move (`Pacer.may_stop_now`), so an unstable depth is finished.
After SIGINT the answer comes out within a second, stopped or not
(`interrupt_deadline`).

>>> plan(None, 0.0)
TimePlan(search_seconds=None, stop_at=inf, answer_at=inf)
>>> Pacer(1.0).go_on(0.9, 5, 1, 0), Pacer(1.0, soft=0.2).go_on(0.5, 5, 1, 0)
(True, False)
"""

import math
import threading
import time
from typing import NamedTuple, Optional

RESERVE_FIXED, RESERVE_FRACTION, RESERVE_MAX = 0.025, 0.05, 0.3  # of a time limit, kept back for answering
SAFETY_SECONDS = 0.003  # the search is stopped this long before its budget ends
# A clock's soft budget is what is left over this many more moves, plus most of
# the increment; the hard one at most this share of what is left and this many
# soft budgets.
CLOCK_MOVES, CLOCK_INCREMENT_SHARE = 25, 0.8
CLOCK_MAX_SHARE, CLOCK_MAX_STRETCH = 0.25, 4.0
# With a clock, a new depth is started only while less than this share of the
# (stretched) soft budget is spent: the next depth usually costs a few times more.
NEW_DEPTH_SHARE = 0.5
# How the soft budget is stretched: by STRETCH_PER_CHANGE for each change of the
# best move (halved at each depth), by up to STRETCH_PER_DROP for a score fallen
# by DROP_SCALE or more, between MIN_STRETCH and MAX_STRETCH.
BASE_STRETCH, STRETCH_PER_CHANGE, STRETCH_PER_DROP, DROP_SCALE = 0.6, 0.8, 0.6, 100
MIN_STRETCH, MAX_STRETCH = 0.4, 2.5
INTERRUPT_GRACE_SECONDS = 1.0  # after SIGINT the answer comes out within this long
# At the end of input a command with a limit may run this much longer on its own
# (so that a short search or perft sent just before the end still completes),
# then it is stopped as by SIGINT; one without a limit is stopped at once.
END_OF_INPUT_GRACE_SECONDS = 0.3
# SIGINTs this soon after one that stopped a command are part of the same stop
# (a viewer's button pressed twice), not a request to exit.
REPEATED_STOP_SECONDS = 1.0
# Time limits longer than this (a year) are cut to it: a timer cannot wait
# much longer (threading.TIMEOUT_MAX), and no game is played that slowly.
MAX_LIMIT_SECONDS = 365 * 86400.0


class TimePlan(NamedTuple):
    search_seconds: Optional[float]  # the search's budget; None: no limit
    stop_at: float  # time.monotonic() from which the search is asked to stop
    answer_at: float  # time.monotonic() at which the best move so far is answered


def reserve(seconds):
    """What is kept back of a time limit of `seconds` for stopping and answering.

    >>> [round(reserve(t), 3) for t in (0.1, 1.0, 10.0)]
    [0.03, 0.075, 0.3]
    """
    return min(RESERVE_MAX, RESERVE_FIXED + RESERVE_FRACTION * seconds)


def plan(seconds, received):
    """The TimePlan of a bestmove received at `received` (time.monotonic()) that
    must be answered within `seconds` (None: no limit)."""
    if seconds is None:
        return TimePlan(None, math.inf, math.inf)
    kept = reserve(seconds)
    deadline = received + seconds
    return TimePlan(max(0.0, deadline - kept - time.monotonic()), deadline - kept * 0.75, deadline - kept / 2)


def clock_budget(remaining, increment):
    """(soft, hard) seconds for one move with `remaining` seconds on the clock and
    `increment` seconds added after the move; the hard one is the move's time
    limit, as `bestmove time` would give it.

    >>> clock_budget(60.0, 0.0), [round(x, 2) for x in clock_budget(10.0, 1.0)]
    ((2.4, 9.6), [1.2, 3.5])
    """
    soft = remaining / CLOCK_MOVES + CLOCK_INCREMENT_SHARE * increment
    hard = min(CLOCK_MAX_SHARE * remaining + increment, CLOCK_MAX_STRETCH * soft, remaining)
    return min(soft, hard), hard


class Pacer:
    """Whether a search with a `hard` budget (seconds from its start; None: no
    limit) and, with a clock, a `soft` one goes on to another depth.

    Without a soft budget the search goes on until the hard one stops it. With
    one, the soft budget is stretched by how unstable the best move is
    (`stretch`), a new depth is started only while less than NEW_DEPTH_SHARE of
    the stretched budget is spent, and a depth still running at the stretched
    budget is stopped unless it has changed the best move (`may_stop_now`)."""

    def __init__(self, hard, soft=None):
        self.hard, self.soft = hard, soft
        self.move, self.score = None, None
        self.changes = 0.0  # changes of the best move, each halved at every later depth
        self.drop = 0  # how far the score fell at the last depth

    def stretch(self):
        """The factor the soft budget is multiplied by."""
        factor = (BASE_STRETCH + STRETCH_PER_CHANGE * self.changes) * (1 + STRETCH_PER_DROP * min(self.drop, DROP_SCALE) / DROP_SCALE)
        return min(MAX_STRETCH, max(MIN_STRETCH, factor))

    def soft_deadline(self):
        """Seconds from the start at which a stable search stops; None without a soft budget."""
        if self.soft is None:
            return None
        return min(self.hard, self.soft * self.stretch())

    def go_on(self, elapsed, depth, move, score):
        """Record the completed `depth` (its best move and score) at `elapsed`
        seconds; return whether to start the next one."""
        self.changes /= 2
        if self.move is not None and move != self.move:
            self.changes += 1
        self.drop = max(0, self.score - score) if self.score is not None else 0
        self.move, self.score = move, score
        if self.hard is None:
            return True
        if self.soft is None:
            return elapsed < self.hard
        return elapsed < NEW_DEPTH_SHARE * self.soft_deadline()

    def may_stop_now(self, move_in_progress):
        """At the soft deadline, in the middle of a depth whose best move so far
        is `move_in_progress` (None when none is searched in full yet): whether
        to stop."""
        return move_in_progress is None or move_in_progress == self.move


def clamp_limit(seconds):
    """A time limit as the engine keeps it: at most MAX_LIMIT_SECONDS.

    >>> clamp_limit(2.5), clamp_limit(99999999999.0) == MAX_LIMIT_SECONDS, clamp_limit(math.inf) == MAX_LIMIT_SECONDS
    (2.5, True, True)
    """
    return min(seconds, MAX_LIMIT_SECONDS)


def start_timer(seconds, action):
    """A started daemon Timer that calls `action()` after `seconds`; cancel it
    when the search ends. None when `seconds` is None."""
    if seconds is None:
        return None
    timer = threading.Timer(max(0.0, seconds), action)
    timer.daemon = True
    timer.start()
    return timer


def stop_timer(budget, stop):
    """A started daemon Timer that calls `stop()` shortly before `budget` seconds
    have passed; cancel it when the search ends. None when there is no budget."""
    return start_timer(None if budget is None else budget - SAFETY_SECONDS, stop)


def interrupt_deadline(interrupted_at):
    """When the answer is due after a SIGINT at `interrupted_at` (time.monotonic())."""
    return interrupted_at + INTERRUPT_GRACE_SECONDS
