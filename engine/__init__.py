"""hexbee: a Hive engine (Mosquito, Ladybug, Pillbug) speaking the Universal Hive Protocol.

This module stays free of heavy imports: the UHP banner is printed from it
before numpy and numba are loaded (see __main__.py).
"""

import hashlib
import os
from pathlib import Path

from .bugs import CAPABILITIES

NAME = "hexbee"
__version__ = "0.1.0"


def info_lines():
    """The answer to `info` (before its `ok`): the id line and the capabilities."""
    return [f"id {NAME} v{__version__}", CAPABILITIES]


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
