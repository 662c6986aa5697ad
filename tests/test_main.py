"""The engine as a process (__main__.py): banner, start-up, signals, end of input."""

import os
import signal
import subprocess
import sys
import time

import pytest

from engine import info_lines

from bench.uhp_client import DEFAULT_TIMEOUT as TIMEOUT
from bench.uhp_client import ROOT

from .conftest import engine_process

BANNER = info_lines() + ["ok"]  # as rest() reads it
pytestmark = pytest.mark.usefixtures("kernel_cache")


def test_the_entry_point_imports_nothing_heavy():
    """The banner must not wait for numba (uhp.md, "Transport")."""
    code = "import sys, engine.__main__; print(sorted(m for m in ('numba', 'numpy') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT)
    assert out.stdout.strip() == "[]"


def test_banner_then_commands_then_exit():
    with engine_process() as engine:
        assert engine.read_answer().lines == info_lines()
        assert engine.ask("newgame Base+MLP").lines == ["Base+MLP;NotStarted;White[1]"]
        engine.send("exit")
        assert engine.wait() == 0
        assert engine.rest() == []


def test_end_of_input_finishes_the_command_in_hand_and_exits_0():
    with engine_process() as engine:
        engine.send("newgame Base\nplay wS1\nundo")
        engine.close_input()
        assert engine.wait() == 0
        assert engine.rest() == BANNER + ["Base;NotStarted;White[1]", "ok", "Base;InProgress;Black[1];wS1", "ok",
                                          "Base;NotStarted;White[1]", "ok"]
        assert "Traceback" not in engine.stderr


def test_end_of_input_stops_a_perft_without_a_depth():
    with engine_process() as engine:
        engine.send("newgame Base+MLP\nperft")
        engine.close_input()
        assert engine.wait() == 0
        lines = engine.rest()
        assert lines[-1] == "ok" and lines[-2].startswith("perft(")


def test_sigint_when_idle_exits_0():
    with engine_process() as engine:
        assert engine.read_answer().lines == info_lines()
        assert engine.ask("newgame").lines == ["Base;NotStarted;White[1]"]
        engine.send_signal(signal.SIGINT)
        assert engine.wait() == 0
        assert engine.rest() == []
        assert "Traceback" not in engine.stderr


def test_sigint_while_loading_exits_0():
    with engine_process() as engine:
        assert engine.read_answer().lines == info_lines()
        engine.send_signal(signal.SIGINT)
        assert engine.wait() == 0
        assert "Traceback" not in engine.stderr


def test_sigint_stops_a_running_perft_which_answers_ok():
    """`perft` without a depth counts until stopped, as in MzingaEngine."""
    with engine_process() as engine:
        engine.read_answer()
        engine.ask("newgame Base+MLP")
        engine.send("perft")
        assert engine.read_line().startswith("perft(0) = 1 in ")
        time.sleep(0.5)
        engine.send_signal(signal.SIGINT)
        lines = engine.read_answer(timeout=5).lines
        assert all(line.startswith("perft(") for line in lines)
        assert engine.ask("undo").lines == ["err Unable to undo 1 moves: 0 played."]  # still serving
        engine.send("exit")
        assert engine.wait() == 0


def test_bestmove_time_answers_within_the_limit():
    with engine_process() as engine:
        engine.read_answer()
        engine.ask("newgame Base+MLP;InProgress;White[2];wG1;bL /wG1")
        start = time.monotonic()
        answer = engine.ask("bestmove time 00:00:00.5")
        assert time.monotonic() - start < 0.5
        assert len(answer.lines) == 1


def test_the_time_limit_includes_the_wait_for_the_kernels():
    """A runner may send its first bestmove while the engine still loads."""
    start = time.monotonic()
    with engine_process() as engine:
        engine.send("newgame Base+MLP;InProgress;White[2];wG1;bL /wG1\nbestmove time 00:00:03")
        assert engine.read_answer().lines == info_lines()  # the banner
        assert engine.read_answer().lines[0].startswith("Base+MLP")
        assert len(engine.read_answer().lines) == 1
        assert time.monotonic() - start < 3.0


def test_undecodable_bytes_control_characters_and_crlf_are_answered():
    with engine_process() as engine:
        engine.read_answer()
        engine.send(b"\xff\xfe\x00garbage\r\n")
        assert engine.read_answer().lines == ["err Invalid command. Try 'help' to see a list of valid commands."]
        engine.send(b"newgame Base\r\n")
        assert engine.read_answer().lines == ["Base;NotStarted;White[1]"]
        engine.send(b"play w\x07S1\r\n")
        assert engine.read_answer().lines == ["invalidmove Unknown piece 'w?S1'."]
        engine.send("play " + "wS1" * 100_000)
        assert len(engine.read_answer().lines) == 1
        engine.close_input()
        assert engine.wait() == 0


def test_options_can_be_set_on_the_command_line():
    """hivegame.com's bridge only sends newgame and bestmove; its Queen-first games
    need the option set when the engine starts."""
    with engine_process("--option", "AllowQueenOnFirstTurn=True", "--option", "RepetitionDraw = true") as engine:
        engine.read_answer()
        assert engine.ask("newgame Base;InProgress;White[2];wQ;bQ wQ-").lines == ["Base;InProgress;White[2];wQ;bQ wQ-"]
        assert engine.ask("options get RepetitionDraw").lines == ["RepetitionDraw;bool;True;False"]
    with engine_process("--option", "AllowQueenOnFirstTurn=maybe") as engine:
        assert engine.wait() == 2
        assert "AllowQueenOnFirstTurn must be True or False, not 'maybe'." in engine.stderr


def test_warmup_loads_the_kernels_and_exits_0():
    with engine_process("--warmup") as engine:
        assert engine.wait() == 0
        assert engine.rest() == []
        assert "kernels ready" in engine.stderr


def test_console_script_runs_the_engine():
    script = os.path.join(os.path.dirname(sys.executable), "hexbee")
    if not os.path.exists(script):
        pytest.skip("the hexbee console script is not installed next to this Python")
    out = subprocess.run([script], input="info\n", capture_output=True, text=True, timeout=TIMEOUT)
    assert out.returncode == 0
    assert out.stdout.splitlines() == BANNER * 2
