"""Readers for the reference data in tests/data (see its README for sources), and shared fixtures."""

import io
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"

# A Base+MLP middle game of hexbee against itself with two stacks (README.md, "Pictures").
MIDGAME = (
    r"Base+MLP;InProgress;White[16];wA1;bL -wA1;wB1 wA1-;bG1 -bL;wB2 wA1\;bB1 -bG1;"
    r"wQ wB1/;bQ \bG1;wP -wQ;bB2 \bL;wA2 wB1\;bG1 wQ\;wA2 \bQ;bB1 bQ\;wB2 bL\;bP bG1-;"
    r"wM wA1\;bS1 bB2/;wM bS1/;bP bG1/;wQ \bP;bB1 bB2;wS1 wQ/;bM bG1\;wA3 wA1\;"
    r"bM /wQ;wB1 bG1;bP -wQ;wA3 /bQ;bP wQ\ "
).strip()


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


def engine_process(*args):
    """This checkout's engine, `python -m engine *args`, launched with its stderr
    kept (a bench.uhp_client.EngineProcess; use it in a `with`)."""
    from bench.uhp_client import EngineProcess, this_engine

    return EngineProcess(this_engine(*args), capture_stderr=True).launch()


def file_lines(path):
    """The lines of a text file, none if it does not exist (yet)."""
    return path.read_text().splitlines() if path.exists() else []


def interrupted_arena(argv, out, games=2, timeout=300, group=False):
    """Run `python -m bench.arena *argv` (results in `out`) until `games`
    games are in its games.jsonl, then SIGINT it (with `group`, its whole
    process group, as Ctrl-C in a terminal does); its exit status and its
    output (stdout and stderr)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    # The arena takes SIGINT by default whatever this process does with it: a
    # pytest started with SIGINT ignored (nohup, `&` in a script, some CI
    # wrappers) would hand the ignoring on through exec, and nothing would stop.
    process = subprocess.Popen([sys.executable, "-m", "bench.arena", *argv], cwd=Path(__file__).parent.parent,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=group,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + timeout  # start-up may compile the kernels
        while time.monotonic() < deadline and len(file_lines(out / "games.jsonl")) < games:
            time.sleep(0.05)
        if group:
            os.killpg(process.pid, signal.SIGINT)
        else:
            process.send_signal(signal.SIGINT)
        output, _ = process.communicate(timeout=60)
    finally:
        process.kill()
    return process.returncode, output


@pytest.fixture(scope="session")
def kernel_cache():
    """Compile or load every kernel in this process first, so that the engine
    processes that tests start find them in numba's cache instead of each
    compiling them."""
    from engine.protocol.warmup import warm_up

    warm_up()


class SessionDriver:
    """An in-process UHP Session (engine/protocol/uhp.py) whose answers are checked for
    the protocol's shape: one `ok`, last, and nothing else empty."""

    def __init__(self, searcher=None):
        from engine.protocol.uhp import Session

        self.out = io.StringIO()
        self.session = Session(self.out, searcher)

    def ask(self, command):
        """The answer's lines before its `ok`."""
        start = len(self.out.getvalue())
        self.session.handle(command)
        lines = self.out.getvalue()[start:].split("\n")
        assert lines.pop() == "", "an answer ends with a newline"
        assert lines and lines[-1] == "ok" and lines.count("ok") == 1, f"{command!r} answered {lines}"
        assert all(lines), f"{command!r} answered an empty line"
        return lines[:-1]

    @property
    def game_string(self):
        board = self.session.board
        return None if board is None else board.game_string()
