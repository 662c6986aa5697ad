"""`python -m engine` and the `hexbee` command: the UHP engine (engine/protocol/main.py),
or with `web` first the board in a browser (engine/web/cli.py).

Nothing heavy is imported here: the engine prints its banner before numba loads.
"""

import signal
import sys

from . import SIGINTS_AT_START
from .protocol.main import main as engine_main


def main(argv=None):
    """The program: `hexbee web ...` runs the web server, anything else the engine
    (protocol/main.py, which ends the process itself)."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    if arguments[:1] == ["web"]:
        return _web(arguments[1:])
    return engine_main(argv)


def _web(argv):
    """`hexbee web`: the web server, where Ctrl-C is the server's to handle."""
    if SIGINTS_AT_START:
        return 0
    signal.signal(signal.SIGINT, signal.default_int_handler)
    from .web.cli import main as web_main

    try:
        return web_main(argv)
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
