"""Golden UHP sessions (uhp_transcripts/*.uhp), replayed against a real engine process.

A transcript is the session as a viewer sees it, one line each:

    # a comment                  ignored
    > command                    sent to the engine (`>` alone sends an empty line)
    text                         an answer line, exactly ({version} is the engine's version)
    ~ regex                      an answer line matching the regex (timings, for example)
    ~* regex                     any number of answer lines matching the regex
    <legal move>                 an answer line that is a legal MoveString, in canonical form,
                                 in the position of the last GameString answered

Commands are written to the engine all at once and its input is then closed,
so a transcript without `exit` also checks that end of input ends the engine.
The last two markers keep the transcripts independent of which move the
search prefers.
"""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench.uhp_client import DEFAULT_TIMEOUT as TIMEOUT
from bench.uhp_client import ROOT
from engine import __version__
from engine.game import Board


TRANSCRIPTS = sorted((ROOT / "uhp_transcripts").glob("*.uhp"))
LEGAL_MOVE = "<legal move>"
_GAME_STRING_RE = re.compile(r"Base(\+[MLP]+)?;(NotStarted|InProgress|Draw|WhiteWins|BlackWins);.*")


def parse_transcript(text):
    """(commands, expected) of a transcript; expected holds (kind, value) pairs."""
    commands, expected = [], []
    for line in text.split("\n"):
        if line.startswith("#") or not line:
            continue
        if line == ">" or line.startswith("> "):
            commands.append(line[2:])
        elif line.startswith("~* "):
            expected.append(("many", re.compile(line[3:])))
        elif line.startswith("~ "):
            expected.append(("regex", re.compile(line[2:])))
        elif line == LEGAL_MOVE:
            expected.append(("legal", None))
        else:
            expected.append(("exact", line.replace("{version}", __version__)))
    return commands, expected


def mismatch(expected, actual):
    """None if the answer lines fit the expectations, else what went wrong."""
    position = None
    i = 0
    for kind, value in expected:
        if kind == "many":
            while i < len(actual) and value.fullmatch(actual[i]):
                i += 1
            continue
        if i == len(actual):
            return f"the output ended; expected {value.pattern if kind != 'exact' else value!r}"
        line = actual[i]
        if kind == "exact" and line != value:
            return f"line {i + 1}: {line!r} != {value!r}"
        if kind == "regex" and not value.fullmatch(line):
            return f"line {i + 1}: {line!r} does not match {value.pattern!r}"
        if kind == "legal":
            problem = _not_legal(position, line)
            if problem:
                return f"line {i + 1}: {line!r} {problem}"
        if _GAME_STRING_RE.fullmatch(line):
            position = line
        i += 1
    if i < len(actual):
        return f"line {i + 1}: unexpected {actual[i]!r}"
    return None


def _not_legal(position, line):
    if position is None:
        return "is not after a GameString"
    board = Board.from_game_string(position)
    try:
        move = board.parse_uhp(line)
    except ValueError as error:
        return f"is not legal in {position}: {error}"
    if board.uhp(move) != line:
        return f"is not written as {board.uhp(move)!r}"
    return None


def test_the_matcher_reports_what_differs():
    _, expected = parse_transcript("> newgame\nBase;NotStarted;White[1]\nok\n> bestmove depth 1\n"
                                   "~* \\S+;\\d+;.*\n<legal move>\nok\n")
    assert mismatch(expected, ["Base;NotStarted;White[1]", "ok", "wS1;1;0;wS1", "wS1", "ok"]) is None
    assert mismatch(expected, ["Base;NotStarted;White[1]", "ok", "wQ", "ok"]) == (
        "line 3: 'wQ' is not legal in Base;NotStarted;White[1]: You can't play your Queen Bee on your first turn."
    )
    assert mismatch(expected, ["Base;NotStarted;White[1]", "ok", "wS1", "ok", "ok"]) == "line 5: unexpected 'ok'"


@pytest.mark.usefixtures("kernel_cache")
@pytest.mark.parametrize("path", TRANSCRIPTS, ids=[path.stem for path in TRANSCRIPTS])
def test_transcript(path: Path):
    commands, expected = parse_transcript(path.read_text(encoding="utf-8"))
    run = subprocess.run(
        [sys.executable, "-m", "engine"],
        cwd=ROOT,
        input="".join(command + "\n" for command in commands),
        capture_output=True,
        encoding="utf-8",
        timeout=TIMEOUT * 2,
    )
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    problem = mismatch(expected, run.stdout.split("\n")[:-1])
    assert problem is None, f"{path.name}: {problem}\n--- output ---\n{run.stdout}"
