"""Time management: how a time limit becomes the search's budget and the deadlines.

A `bestmove time T` answer must arrive within T, counted from the arrival of the
command. The search gets T less a reserve (a fifth, at most 0.3 s); half-way into
the reserve the session asks it to stop, and three quarters in it answers with
the best move found so far, even if the search overruns (`plan`). Within its
budget the search starts a new depth only while less than 40% of it is spent, as
the next depth usually costs several times more (`may_start_depth`), and is
stopped shortly before the budget ends (`stop_timer`). After SIGINT the answer
comes out within a second, stopped or not (`interrupt_deadline`).

>>> plan(None, 0.0)
TimePlan(search_seconds=None, stop_at=inf, answer_at=inf)
>>> [may_start_depth(elapsed, 1.0) for elapsed in (0.3, 0.5)], may_start_depth(99.0, None)
([True, False], True)
"""

import math
import threading
import time
from typing import NamedTuple, Optional

RESERVE_FRACTION, RESERVE_MAX = 0.2, 0.3  # of a time limit, kept back for answering
NEW_DEPTH_SHARE = 0.4  # a new depth is started only while less than this share of the budget is spent
SAFETY_SECONDS = 0.03  # the search is stopped this long before its budget ends
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


def plan(seconds, received):
    """The TimePlan of a bestmove received at `received` (time.monotonic()) that
    must be answered within `seconds` (None: no limit)."""
    if seconds is None:
        return TimePlan(None, math.inf, math.inf)
    reserve = min(RESERVE_MAX, RESERVE_FRACTION * seconds)
    deadline = received + seconds
    return TimePlan(max(0.0, deadline - reserve - time.monotonic()), deadline - reserve / 2, deadline - reserve / 4)


def clamp_limit(seconds):
    """A time limit as the engine keeps it: at most MAX_LIMIT_SECONDS.

    >>> clamp_limit(2.5), clamp_limit(99999999999.0) == MAX_LIMIT_SECONDS, clamp_limit(math.inf) == MAX_LIMIT_SECONDS
    (2.5, True, True)
    """
    return min(seconds, MAX_LIMIT_SECONDS)


def may_start_depth(elapsed, budget):
    """Whether the search, `elapsed` seconds into its `budget` (None: no limit),
    may start another depth."""
    return budget is None or elapsed <= NEW_DEPTH_SHARE * budget


def stop_timer(budget, stop):
    """A started daemon Timer that calls `stop()` shortly before `budget` seconds
    have passed; cancel it when the search ends. None when there is no budget."""
    if budget is None:
        return None
    timer = threading.Timer(max(0.0, budget - SAFETY_SECONDS), stop)
    timer.daemon = True
    timer.start()
    return timer


def interrupt_deadline(interrupted_at):
    """When the answer is due after a SIGINT at `interrupted_at` (time.monotonic())."""
    return interrupted_at + INTERRUPT_GRACE_SECONDS
