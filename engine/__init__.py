"""hexbee: a Hive engine (Mosquito, Ladybug, Pillbug) speaking the Universal Hive Protocol.

This module stays free of heavy imports: the UHP banner is printed from it
before numpy and numba are loaded (see __main__.py).
"""

import _signal  # the builtin: `import signal` takes a millisecond (its enums), in which a SIGINT would be lost
import os
import sys

SIGINTS_AT_START = []  # SIGINTs that came before the engine could act on them (__main__.py)


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
# package's first statements, it is only noted, and __main__.main acts on it.
if _started_as_the_engine():
    _signal.signal(_signal.SIGINT, _note_sigint)

import hashlib  # noqa: E402
from pathlib import Path  # noqa: E402

from .bugs import CAPABILITIES, FAN_CAPABILITIES

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
    old code; with one folder per version of the sources, any edit starts afresh."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / NAME / "numba" / digest.hexdigest()[:16]


# Must be set before numba is imported; an explicit NUMBA_CACHE_DIR wins.
os.environ.setdefault("NUMBA_CACHE_DIR", str(numba_cache_dir()))
