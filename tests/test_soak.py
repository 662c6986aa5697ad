"""The soak test (bench/soak.py): engine processes playing each other with
signals, undos, bad lines and new games mixed in, every answer checked.

The short form runs in the default test run (a few seconds); the long form,
whose figures are in docs/tests.md, is

    pytest -m slow tests/test_soak.py   # or: python -m bench.soak --engines 4 --games 200 --max-plies 80 --max-seconds 240 --seed 1
"""

import pytest

from bench import soak

pytestmark = pytest.mark.usefixtures("kernel_cache")


def test_soak_short():
    report = soak.run(engines=2, games=2, max_plies=30, mischief=0.2, max_seconds=60.0, seed=11)
    assert report.games >= 1 and report.answers > 100
    assert report.worst_overrun < 0.5  # the arena's margin
    assert all(end < 2 * start + 400 for start, end in zip(report.rss_start, report.rss_end))


@pytest.mark.slow
def test_soak_long():
    report = soak.run(engines=4, games=200, max_plies=80, mischief=0.1, max_seconds=240.0, seed=1)
    print("\n".join(report.lines()))
    assert report.worst_overrun < 0.5
    assert all(end < 2 * start + 400 for start, end in zip(report.rss_start, report.rss_end))
