"""The warm-up's stages (engine/protocol/warmup.py): the first loads what the first answers
need and nothing else; the rest loads in the background."""

import json
import subprocess
import sys

import pytest

from bench.uhp_client import DEFAULT_TIMEOUT as TIMEOUT
from bench.uhp_client import ROOT

from engine.protocol import warmup

pytestmark = pytest.mark.usefixtures("kernel_cache")

# Runs in a fresh process (this one has loaded every kernel): the engine's kernels
# with a loaded machine code after each step, as {step: [kernel names]}.
_LOADED = r"""
import io, json
from numba.core.dispatcher import Dispatcher
import engine.protocol.uhp
from engine.protocol import warmup
from engine.protocol.uhp import Session

def loaded():
    return sorted(f"{module}.{name}" for module, names in KERNELS.items() for name in names
                  if getattr(__import__(module, fromlist=[name]), name).signatures)

KERNELS = {}
import sys
for module_name, module in list(sys.modules.items()):
    if module_name.startswith("engine."):
        names = [name for name, value in vars(module).items()
                 if isinstance(value, Dispatcher) and getattr(value, "__module__", module_name) == module_name]
        KERNELS[module_name] = names
steps = {"imported": loaded()}
session = Session(io.StringIO())
warmup.warm_up_first(session.searcher)
steps["first stage"] = loaded()
for command in ["newgame Base+MLP", "validmoves", "play wS1", "bestmove depth 2",
                "newgame Base+MLP;InProgress;White[3];wS1;bB1 wS1-;wB1 -wS1;bQ bB1-",  # wB1 may climb wS1
                "validmoves", "bestmove time 00:00:00.2", "pv"]:
    session.handle(command)
steps["first answers"] = loaded()
warmup.warm_up_rest_in_background().join()
steps["background"] = loaded()
print(json.dumps(steps))
"""


@pytest.fixture(scope="module")
def loaded_after_each_step():
    out = subprocess.run([sys.executable, "-c", _LOADED], cwd=ROOT, capture_output=True, text=True,
                         timeout=TIMEOUT, check=True)
    return json.loads(out.stdout)


def test_importing_the_engine_loads_no_kernel(loaded_after_each_step):
    assert loaded_after_each_step["imported"] == []


def test_the_first_answers_load_no_kernel_beyond_the_first_stage(loaded_after_each_step):
    """newgame (also from a GameString), validmoves, play and bestmove of a
    fresh process never wait for a kernel to load (or compile)."""
    first = loaded_after_each_step["first stage"]
    assert {"engine.rules.movegen.generate_moves", "engine.search.search.search_depth", "engine.rules.board.top_piece"} <= set(first)
    assert loaded_after_each_step["first answers"] == first


def test_the_first_stage_leaves_out_what_only_some_commands_need(loaded_after_each_step):
    first = set(loaded_after_each_step["first stage"])
    assert not first & {"engine.rules.movegen.is_pinned", "engine.rules.board.unmake_move", "engine.rules.perft.perft_kernel"}


def test_the_background_stage_loads_the_reasons_and_undo_but_not_perft(loaded_after_each_step):
    later = set(loaded_after_each_step["background"]) - set(loaded_after_each_step["first stage"])
    assert {"engine.rules.movegen.is_pinned", "engine.rules.movegen.is_covered", "engine.rules.board.unmake_move"} <= later
    assert not any(name.startswith("engine.rules.perft.") for name in later)


def test_steps_name_each_stage_and_perft_only_when_asked():
    assert [name for name, _ in warmup.steps()] == ["new game, moves, search", "illegal moves, undo", "perft"]
    assert [name for name, _ in warmup.steps(perft=False)][-1] != "perft"
    assert warmup.warm_up(perft=False) >= 0
