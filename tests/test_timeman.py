"""Time management (engine/timeman.py): budgets and deadlines of a time limit."""

import time

import pytest

from engine import timeman


@pytest.mark.parametrize("seconds,reserve", [(1.0, 0.065), (5.0, 0.265), (0.1, 0.02), (10.0, 0.3)])
def test_a_time_limit_keeps_a_reserve_for_the_answer(seconds, reserve):
    received = time.monotonic()
    plan = timeman.plan(seconds, received)
    assert plan.search_seconds == pytest.approx(seconds - reserve, abs=0.01)
    assert plan.stop_at == pytest.approx(received + seconds - reserve * 0.75)
    assert plan.answer_at == pytest.approx(received + seconds - reserve / 2)


def test_the_budget_counts_from_the_arrival_of_the_command():
    plan = timeman.plan(1.0, time.monotonic() - 0.5)
    assert plan.search_seconds == pytest.approx(0.435, abs=0.01)
    assert timeman.plan(1.0, time.monotonic() - 5.0).search_seconds == 0.0


def test_the_stop_timer_fires_just_before_the_budget_ends():
    stopped = []
    timer = timeman.stop_timer(0.1, lambda: stopped.append(time.monotonic()))
    start = time.monotonic()
    timer.join(1.0)
    assert stopped and stopped[0] - start < 0.1
    assert timeman.stop_timer(None, stopped.clear) is None
