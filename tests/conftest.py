"""Readers for the reference data in tests/data (see its README for sources), and shared fixtures."""

from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


def read_rows(name, encoding="utf-8"):
    """TAB-separated data rows of a data file, comments and blank lines skipped."""
    rows = []
    with open(DATA / name, encoding=encoding) as handle:
        for line in handle:
            line = line.rstrip("\n")
            if line and not line.startswith("#"):
                rows.append(line.split("\t"))
    return rows


def read_mzinga(name):
    """Rows of one of Mzinga's test files (UTF-8 with a BOM), with the comment
    line above each row, which names the rule it tests."""
    rows = []
    comment = ""
    with open(DATA / "mzinga" / name, encoding="utf-8-sig") as handle:
        for line in handle:
            line = line.rstrip("\n")
            if line.startswith("#"):
                comment = line.lstrip("# ")
            elif line:
                rows.append((comment, line.split("\t")))
    return rows


def read_nokamute_cases():
    """nokamute's UHP cases: (title, game string, expected validmoves line)."""
    cases = []
    title = ""
    lines = (DATA / "nokamute_uhp_tests.txt").read_text().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("#"):
            title = line.lstrip("# ")
        elif line:
            cases.append((title, line, lines[i + 1] if i + 1 < len(lines) else ""))
            i += 1
        i += 1
    return cases



@pytest.fixture(scope="session")
def kernel_cache():
    """Compile or load every kernel in this process first, so that the engine
    processes that tests start find them in numba's cache instead of each
    compiling them."""
    from engine.warmup import warm_up

    warm_up()
