"""The entry point of `python -m engine` (engine/__main__.py) and `hexbee`: the UHP
engine on stdin/stdout.

    python -m engine            # the engine, for a viewer or a tournament runner
    python -m engine --warmup   # compile (or load) every numba kernel, then exit
    python -m engine --option AllowQueenOnFirstTurn=True   # set options at start-up
    python -m engine web        # the board in a browser (engine/web/cli.py; the web extra)

Viewers wait for the unprompted banner (uhp.md, "Transport"), so it is printed
before anything slow: this module imports nothing heavy at the top, and numba
and the kernels are loaded only after the banner's `ok`. The first command is
read once the kernels of a new game, its moves and a search are loaded, so it
waits for them; the others load in the background once the engine is first
idle with no command in hand (warmup.py). This package's __init__ is empty, so
that importing this module imports nothing heavy either.
"""

import argparse
import io
import logging
import os
import queue
import signal
import sys
import threading
import time

from .. import MAX_LINE_CHARS, NAME, SIGINTS_AT_START, __version__, _note_sigint, info_lines


def main(argv=None):
    """Run the engine. It ends the process itself, with status 0 after `exit`,
    end of input or SIGINT when idle, so call it only as the program's entry point.

    A SIGINT during start-up ends the engine with status 0 at once (the banner,
    if it was already printed, is all the client sees); later, SIGINT stops a
    command or, when idle, ends the engine (Session.interrupt)."""
    signal.signal(signal.SIGINT, _note_sigint)  # engine/__init__.py did, if run as the program
    parser = argparse.ArgumentParser(prog=NAME, description="A Hive engine speaking the Universal Hive Protocol.",
                                     epilog=f"`{NAME} web --help`: the board in a browser.")
    parser.add_argument("--version", action="version", version=f"{NAME} v{__version__}")
    parser.add_argument("--warmup", action="store_true", help="compile or load every numba kernel, then exit")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="set an option before the first command, as `options set NAME VALUE` (repeatable)")
    args = parser.parse_args(argv)
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format=f"{NAME}: %(message)s")
    if args.warmup:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        if SIGINTS_AT_START:
            raise KeyboardInterrupt
        return _warm_up()
    # Bytes in, bytes out: undecodable input must not stop the engine, and the
    # answers end lines with \n on every platform.
    stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    stdout = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", errors="replace", newline="\n")
    try:
        signal.signal(signal.SIGINT, _exit_at_start_up)
        if SIGINTS_AT_START:
            _quit(stdout, 0)
        stdout.write("".join(line + "\n" for line in info_lines()) + "ok\n")
        stdout.flush()
        lines, input_ended = _read_in_background(stdin)
        from .uhp import Session  # imports numba
        from .warmup import warm_up_first, warm_up_rest_in_background

        session = Session(stdout, input_ended=input_ended)
        with _said_when_slow(SLOW_START_SECONDS, f"{NAME}: compiling the numba kernels (the first start after "
                             "an install or an edit takes 15-40 s; later ones load them in 0.3 s) ..."):
            warm_up_first(session.searcher)
        _set_options(session, args.option)
        signal.signal(signal.SIGINT, lambda signum, frame: _on_sigint(session, stdout))
        warming = None  # the rest of the kernels load in the background once the engine is first idle
        try:
            while not session.exit_requested:
                if warming is None and lines.empty():
                    warming = warm_up_rest_in_background()
                if (item := lines.get()) is None:
                    break
                session.handle(*item)
        finally:
            session.close()
    except BrokenPipeError:  # the viewer went away
        pass
    except SystemExit as stop:  # a bad --option
        _quit(stdout, stop.code)
    except Exception:  # a bug outside any command: say so on stderr, then end as always
        logging.getLogger(NAME).exception("the engine failed")
        _quit(stdout, 1)
    _quit(stdout, 0)


# A first stage that takes longer than this is compiling, not loading: the engine
# says so on stderr (never stdout, which clients parse), so that nobody takes the
# silence after the banner for a hang.
SLOW_START_SECONDS = 2.0


class _said_when_slow:
    """A context that prints `message` on stderr if it lasts longer than
    `seconds`, and then how long it took."""

    def __init__(self, seconds, message):
        self.started = time.monotonic()
        self.timer = threading.Timer(seconds, self._say, (message,))
        self.timer.daemon = True
        self.said = threading.Event()

    def _say(self, message):
        print(message, file=sys.stderr, flush=True)
        self.said.set()

    def __enter__(self):
        self.timer.start()
        return self

    def __exit__(self, *exc):
        self.timer.cancel()
        self.timer.join()
        if self.said.is_set():
            print(f"{NAME}: kernels ready in {time.monotonic() - self.started:.1f} s", file=sys.stderr, flush=True)
        return False


def _set_options(session, settings):
    """Apply --option settings; a bad one ends the engine (status 2) with the reason on stderr."""
    from .uhp import CommandError

    for setting in settings:
        name, _, value = setting.partition("=")
        try:
            session.set_option(name.strip(), value.strip())
        except CommandError as error:
            print(f"{NAME}: --option {setting}: {error}", file=sys.stderr, flush=True)
            raise SystemExit(2) from None


def _read_in_background(stdin):
    """Read stdin in a thread from start-up on, into a queue of (line, arrival
    time) ended by None. A time limit counts from the arrival of its command,
    also while the kernels load; and the end of input (the Event returned) is
    seen while a command runs: it stops a search or perft (Session._run).

    A line of more than MAX_LINE_CHARS characters is queued cut to MAX_LINE_CHARS + 1
    (the session answers it `err`) and the rest of it is read and dropped in
    pieces, so that memory stays bounded however long it is."""
    lines = queue.Queue()
    ended = threading.Event()

    def read():
        try:
            while line := stdin.readline(MAX_LINE_CHARS + 1):
                if len(line) > MAX_LINE_CHARS and not line.endswith("\n"):
                    while (rest := stdin.readline(MAX_LINE_CHARS)) and not rest.endswith("\n"):
                        pass
                lines.put((line, time.monotonic()))
        finally:
            ended.set()
            lines.put(None)

    threading.Thread(target=read, name="hexbee-input", daemon=True).start()
    return lines, ended


def _exit_at_start_up(signum, frame):
    """SIGINT while the engine starts: it ends at once, status 0; the client has
    the banner if it was already flushed, else nothing. Exiting here rather than
    raising KeyboardInterrupt: an exception raised by a signal handler can land
    in a weakref callback of the import machinery, where Python only prints
    "Exception ignored in ..." on stderr and goes on starting."""
    os._exit(0)


def _on_sigint(session, stdout):
    """SIGINT stops a running search or perft (which then answers); when idle it
    ends the engine, at once for the same reason as at start-up."""
    if not session.interrupt():
        _quit(stdout, 0)


def _quit(stdout, status):
    """End the process now. Everything has been answered, and skipping the
    interpreter's clean-up saves half a second per process (numba's finalizers),
    which hivegame.com's bridge pays on every move; nor can a search that would
    not stop, or the thread blocked reading stdin, hold up the exit. A SIGINT
    from here on is too late to matter."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for stream in (stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)


def _warm_up():
    print(f"{NAME}: loading or compiling the numba kernels (half a minute the first time) ...", file=sys.stderr)
    from .warmup import warm_up

    seconds = warm_up()
    print(f"{NAME}: kernels ready in {seconds:.1f} s", file=sys.stderr)
    return 0

