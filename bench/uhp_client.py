"""Drive one UHP engine process, never trusting it to answer in time.

A reader thread turns the engine's stdout into a queue of timestamped lines, so
every read has a deadline; an engine that hangs is killed, one that exits is
noticed at once. Each command's answer is the lines before `ok` (uhp.md,
"Transport").
"""

import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from typing import NamedTuple


class EngineError(Exception):
    """The engine failed a command; the message says how, for the game record."""


class EngineTimeout(EngineError):
    """No `ok` before the deadline."""


class EngineExited(EngineError):
    """The process ended (crash, or killed by the runner)."""


class EngineRefused(EngineError):
    """The engine answered `err ...` or `invalidmove ...`."""


class EngineSpec(NamedTuple):
    """How to run one engine: its name in tables, the command line (a string,
    split like a shell would), options sent with `options set` at start-up,
    and the working directory."""

    name: str
    command: str
    options: tuple = ()  # (name, value) pairs
    cwd: str = None


class Answer(NamedTuple):
    lines: list  # the non-empty lines before `ok`
    seconds: float  # from sending the command to reading `ok`


class EngineProcess:
    """One running engine. Not thread-safe: one game uses it at a time, but
    `kill` may be called from any thread (interruption)."""

    def __init__(self, spec, startup_timeout=120.0, stderr_path=None):
        self.spec = spec
        self.startup_timeout = startup_timeout
        self.stderr_path = stderr_path
        self.capabilities = set()
        self._process = None
        self._lines = None
        self._eof = False

    # --- Life cycle ------------------------------------------------------------
    def start(self):
        """Start the process (ending any earlier one), read its unprompted
        banner, send its options and wait until it answers a first command
        (which may wait for compilation)."""
        self._release()
        stderr = open(self.stderr_path, "ab") if self.stderr_path else subprocess.DEVNULL
        try:
            # A session of its own: Ctrl-C in the terminal reaches only the
            # runner (an engine takes SIGINT as "stop thinking"), and killing
            # the group also ends a wrapper's children.
            self._process = subprocess.Popen(
                shlex.split(self.spec.command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
                cwd=self.spec.cwd,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                start_new_session=True,
            )
        except OSError as error:
            raise EngineExited(f"could not start {self.spec.command!r}: {error}") from None
        finally:
            if self.stderr_path:
                stderr.close()
        self._lines = queue.Queue()
        self._eof = False
        threading.Thread(target=self._read, args=(self._process.stdout, self._lines), daemon=True).start()
        banner = self._read_answer(time.monotonic() + self.startup_timeout, "start-up banner")
        self.capabilities = set(banner.lines[-1].split(";")) if len(banner.lines) > 1 else set()
        for name, value in self.spec.options:
            self.command(f"options set {name} {value}", self.startup_timeout)
        self.command("info", self.startup_timeout)

    @property
    def alive(self):
        return self._process is not None and self._process.poll() is None and not self._eof

    def kill(self):
        """End the process and its children at once."""
        process = self._process
        if process is None:
            return
        try:  # the group outlives a wrapper that has exited: kill it all the same
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            process.kill()  # a no-op once it has been reaped
        process.wait()

    def close(self, grace=1.0):
        """Ask the engine to exit; kill it if it has not within `grace` seconds."""
        process = self._process
        if process is not None and process.poll() is None:
            try:
                process.stdin.write("exit\n")
                process.stdin.flush()
                process.wait(timeout=grace)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self._release()

    def _release(self):
        """Kill the process if it still runs and close its pipes."""
        process = self._process
        if process is None:
            return
        self.kill()
        for stream in (process.stdin, process.stdout):
            try:
                stream.close()
            except OSError:
                pass
        self._process = None

    # --- Commands --------------------------------------------------------------
    def command(self, line, timeout):
        """Send one command and return its Answer; raise EngineRefused when the
        answer is `err` or `invalidmove`, EngineTimeout or EngineExited when it
        does not come."""
        answer = self.request(line, timeout)
        for text in answer.lines:
            if text.startswith(("err", "invalidmove")):
                raise EngineRefused(f"answered '{text}' to '{line}'")
        return answer

    def request(self, line, timeout):
        """Send one command and return its Answer whatever it says."""
        self._discard_stray_lines()
        if not self.alive:
            raise EngineExited(self._exit_description())
        start = time.monotonic()
        try:
            self._process.stdin.write(line + "\n")
            self._process.stdin.flush()
        except OSError:
            raise EngineExited(self._exit_description()) from None
        return self._read_answer(start + timeout, f"'{line}'", start)

    # --- Reading ---------------------------------------------------------------
    @staticmethod
    def _read(stream, lines):
        try:
            for line in stream:
                lines.put((time.monotonic(), line.strip()))
        except (OSError, ValueError):
            pass
        lines.put((time.monotonic(), None))

    def _read_answer(self, deadline, what, start=None):
        start = time.monotonic() if start is None else start
        lines = []
        while True:
            try:
                stamp, line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise EngineTimeout(f"no answer to {what} within {deadline - start:.2f} s") from None
            if line is None:
                self._eof = True
                raise EngineExited(self._exit_description())
            if line == "ok":
                return Answer(lines, stamp - start)
            if line:
                lines.append(line)

    def _discard_stray_lines(self):
        """Drop output that arrived between commands (after an answer's `ok`),
        so that it is not taken for the next answer."""
        while True:
            try:
                _, line = self._lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self._eof = True

    def _exit_description(self):
        process = self._process
        if process is None:
            return "is not running"
        try:
            code = process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return "closed its output"
        return f"exited with code {code}"
