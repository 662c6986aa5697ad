"""hexbee: a Hive engine (Mosquito, Ladybug, Pillbug) speaking the Universal Hive Protocol.

The front door of the library, as python-chess's (`import chess; chess.Board()`):

>>> import engine
>>> board = engine.Board("Base+MLP")
>>> board.push_uhp("wG1"), board.outcome()
(Move(wG1), None)

The public names (`__all__`) are loaded on first use: this module stays free of
heavy imports, because the UHP banner is printed from it before numpy and numba
are loaded (see protocol/main.py). The layers under it import only downwards:
rules/ (the tables, the state, move generation, perft, notation), io/ (pictures),
game.py (Board), pgn.py, search/, protocol/, and at the top rl.py, web/ and the
command lines (__main__.py, svg.py, perft_cli.py).
"""

import _signal  # the builtin: `import signal` takes a millisecond (its enums), in which a SIGINT would be lost
import os
import sys

SIGINTS_AT_START = []  # SIGINTs that came before the engine could act on them (protocol/main.py)


def _note_sigint(signum, frame):
    SIGINTS_AT_START.append(signum)


def _started_as_the_engine():
    """Whether this process is the engine program: `python -m engine` or the
    console script `hexbee`, not a program that imports the package."""
    argv = getattr(sys, "orig_argv", [])
    run_as_module = any(flag == "-m" and name == "engine" for flag, name in zip(argv, argv[1:]))
    return run_as_module or "-mengine" in argv or os.path.basename(sys.argv[0] if sys.argv else "") == "hexbee"


# A SIGINT during start-up must end the engine cleanly (status 0, no traceback),
# not raise KeyboardInterrupt in the middle of an import: from here, the
# package's first statements, it is only noted, and protocol/main.py's main acts on it.
if _started_as_the_engine():
    _signal.signal(_signal.SIGINT, _note_sigint)

import hashlib  # noqa: E402
from pathlib import Path  # noqa: E402

from .rules.bugs import CAPABILITIES, FAN_CAPABILITIES

NAME = "hexbee"
__version__ = "0.1.0"
# The longest command line read (in characters, without its line end): a longer
# one is answered `err` and skipped unread, so that a runaway client cannot make
# the engine hold or parse megabytes.
MAX_LINE_CHARS = 64 * 1024


def info_lines(fan=False):
    """The answer to `info` (before its `ok`): the id line and the capabilities,
    which name the fan tokens too when `fan` (the FanBugs option) is on."""
    return [f"id {NAME} v{__version__}", FAN_CAPABILITIES if fan else CAPABILITIES]


def numba_cache_dir():
    """Where the compiled kernels are cached: a folder named after a hash of the
    package's sources. numba re-validates a cached kernel against its own file
    only, so a kernel that calls into an edited module would otherwise keep the
    old code; with one folder per version of the sources, any edit starts afresh.
    The web board's modules hold no kernels and are left out."""
    digest = hashlib.sha256()
    root = Path(__file__).parent
    for path in sorted(root.rglob("*.py")):
        name = path.relative_to(root)
        if name.parts[0] != "web":
            digest.update(str(name).encode() + b"\0" + path.read_bytes())
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / NAME / "numba" / digest.hexdigest()[:16]


# Must be set before numba is imported; an explicit NUMBA_CACHE_DIR wins.
os.environ.setdefault("NUMBA_CACHE_DIR", str(numba_cache_dir()))


# The public names and the module of each, imported when first asked for.
_PUBLIC = {
    **dict.fromkeys(("Board", "Move", "PASS", "Outcome", "WHITE", "BLACK", "QUEEN_SURROUNDED", "QUEEN_REMOVED",
                     "BOTH_QUEENS_SURROUNDED", "REPETITION", "PLY_LIMIT", "IllegalMoveError", "NotationError",
                     "axial", "cell_of", "side_index", "side_color"), "game"),
    **dict.fromkeys(("Game", "read_game", "read_games", "RESULTS"), "pgn"),
    "board_svg": "io.svg",
    "Searcher": "search.search",
    "Session": "protocol.uhp",
    "State": "rl",
}
__all__ = ["NAME", "__version__", "info_lines", *_PUBLIC]


def __getattr__(name):
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_PUBLIC))

