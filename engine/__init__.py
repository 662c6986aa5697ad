"""hexbee: a Hive engine (Mosquito, Ladybug, Pillbug) speaking the Universal Hive Protocol.

This module stays free of heavy imports: the UHP banner is printed from it
before numba is loaded (see __main__.py).
"""

NAME = "hexbee"
__version__ = "0.1.0"
# The expansion bugs this engine plays, as the UHP `info` command lists them.
CAPABILITIES = "Mosquito;Ladybug;Pillbug"


def info_lines():
    """The answer to `info` (before its `ok`): the id line and the capabilities."""
    return [f"id {NAME} v{__version__}", CAPABILITIES]
