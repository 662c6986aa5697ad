"""Drive one UHP engine process, never trusting it to answer in time: the one
UHP client of the match runner, the benchmarks and the tests.

A reader thread turns the engine's stdout into a queue of timestamped lines, so
every read has a deadline; an engine that hangs is killed, one that exits is
noticed at once. Each command's answer is the lines before `ok` (uhp.md,
"Transport").

The runner starts an engine with `start` (banner, options, a first answer) and
talks to it with `command`/`request`, which are lenient about blank lines and
stray output. Tests and benchmarks `launch` it and read exactly what it writes
(`send`, `read_line`, `read_answer`, `ask`), stderr included if captured.
"""

import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_TIMEOUT = 60.0  # seconds, for the reads of tests and benchmarks; generous for a loaded machine


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
    env: dict = None  # the environment; None: the runner's


def this_engine(*args, env=None):
    """The EngineSpec of this checkout's engine, `python -m engine` with `args`."""
    return EngineSpec("hexbee", shlex.join([sys.executable, "-m", "engine", *args]), cwd=str(ROOT), env=env)


class Answer(NamedTuple):
    lines: list  # the lines before `ok` (from `request` and `command`: stripped, the empty ones left out)
    seconds: float  # from sending the command to reading `ok`


class EngineProcess:
    """One running engine. Not thread-safe: one game uses it at a time, but
    `kill` may be called from any thread (interruption). With `capture_stderr`
    its stderr is kept for `stderr`; else it goes to `stderr_path`, if given."""

    def __init__(self, spec, startup_timeout=120.0, stderr_path=None, capture_stderr=False):
        self.spec = spec
        self.startup_timeout = startup_timeout
        self.stderr_path = stderr_path
        self.capture_stderr = capture_stderr
        self.capabilities = set()
        self._process = None
        self._lines = None
        self._eof = False
        self._stderr_lines = []
        self._stderr_reader = None

    # --- Life cycle ------------------------------------------------------------
    def launch(self):
        """Start the process (ending any earlier one) and return self; nothing
        is read yet, not even the banner."""
        self._release()
        if self.capture_stderr:
            stderr = subprocess.PIPE
        else:
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
                env=self.spec.env,
                start_new_session=True,
            )
        except OSError as error:
            raise EngineExited(f"could not start {self.spec.command!r}: {error}") from None
        finally:
            if self.stderr_path and not self.capture_stderr:
                stderr.close()
        self._lines = queue.Queue()
        self._eof = False
        threading.Thread(target=self._read, args=(self._process.stdout, self._lines.put), daemon=True).start()
        if self.capture_stderr:
            self._stderr_lines = []
            self._stderr_reader = threading.Thread(
                target=self._read, args=(self._process.stderr, self._stderr_lines.append), daemon=True)
            self._stderr_reader.start()
        return self

    def start(self):
        """Launch the process, read its unprompted banner, send its options and
        wait until it answers a first command (which may wait for compilation)."""
        self.launch()
        banner = self._clean(self._read_answer(time.monotonic() + self.startup_timeout, "start-up banner"))
        self.capabilities = set(banner.lines[-1].split(";")) if len(banner.lines) > 1 else set()
        for name, value in self.spec.options:
            self.command(f"options set {name} {value}", self.startup_timeout)
        info = self.command("info", self.startup_timeout)
        if len(info.lines) > 1:  # an option may add capabilities (hexbee's FanBugs)
            self.capabilities = set(info.lines[-1].split(";"))

    @property
    def alive(self):
        return self._process is not None and self._process.poll() is None and not self._eof

    def send_signal(self, signum):
        self._process.send_signal(signum)

    def cpu_seconds(self):
        """The CPU time (user and system, all threads) the process has used so
        far, from /proc; None where there is none (not Linux) or once it has ended."""
        try:
            with open(f"/proc/{self._process.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close_input(self):
        """End the engine's input (it should then finish and exit)."""
        self._process.stdin.close()

    def wait(self, timeout=DEFAULT_TIMEOUT):
        """The exit status once the process has ended."""
        return self._process.wait(timeout)

    @property
    def stderr(self):
        """What the engine wrote on stderr (with capture_stderr); all of it once
        the process has ended."""
        if self._stderr_reader is not None and self._process.poll() is not None:
            self._stderr_reader.join(DEFAULT_TIMEOUT)
        return "\n".join(line for _, line in self._stderr_lines if line is not None)

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
                self.send("exit")
                process.wait(timeout=grace)
            except (OSError, ValueError, subprocess.TimeoutExpired):  # ValueError: its input is closed
                pass
        self._release()

    def _release(self):
        """Kill the process if it still runs and close its pipes."""
        process = self._process
        if process is None:
            return
        self.kill()
        for stream in (process.stdin, process.stdout, process.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        self._process = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._release()

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
            self.send(line)
        except OSError:
            raise EngineExited(self._exit_description()) from None
        return self._clean(self._read_answer(start + timeout, f"'{line}'", start))

    def send(self, data):
        """Write a line (str, newline added; it may hold several) or raw bytes."""
        self._process.stdin.write(data if isinstance(data, bytes) else (data + "\n").encode())
        self._process.stdin.flush()

    def ask(self, line, timeout=DEFAULT_TIMEOUT):
        """Send a line and return the Answer to it exactly as written."""
        self.send(line)
        return self.read_answer(timeout)

    # --- Reading ---------------------------------------------------------------
    @staticmethod
    def _read(stream, put):
        """Pass each line of `stream` to `put` as (arrival, text without its
        newline), then (arrival, None) at its end."""
        try:
            for raw in iter(stream.readline, b""):
                put((time.monotonic(), raw.decode("utf-8", errors="replace").rstrip("\n")))
        except (OSError, ValueError):
            pass
        put((time.monotonic(), None))

    def _next(self, deadline, what, start):
        """(arrival, line) of the next output line, line None at the end of output."""
        try:
            stamp, line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise EngineTimeout(f"no answer to {what} within {deadline - start:.2f} s") from None
        if line is None:
            self._eof = True
        return stamp, line

    def read_line(self, timeout=DEFAULT_TIMEOUT):
        """The next output line as written (without its newline), or None at the
        end of output."""
        start = time.monotonic()
        return self._next(start + timeout, "the next line", start)[1]

    def read_answer(self, timeout=DEFAULT_TIMEOUT):
        """The lines up to the next `ok`, exactly as written, as an Answer timed
        from now."""
        return self._read_answer(time.monotonic() + timeout, "the last command")

    def rest(self, timeout=DEFAULT_TIMEOUT):
        """Every output line until the end of output."""
        lines = []
        while (line := self.read_line(timeout)) is not None:
            lines.append(line)
        return lines

    def _read_answer(self, deadline, what, start=None):
        start = time.monotonic() if start is None else start
        lines = []
        while True:
            stamp, line = self._next(deadline, what, start)
            if line is None:
                raise EngineExited(self._exit_description())
            if line.strip() == "ok":
                return Answer(lines, stamp - start)
            lines.append(line)

    @staticmethod
    def _clean(answer):
        """The Answer with its lines stripped and the empty ones left out."""
        return answer._replace(lines=[line.strip() for line in answer.lines if line.strip()])

    def has_output(self):
        """Whether output has arrived that no read has taken yet."""
        return not self._lines.empty()

    def stray_lines(self):
        """The output lines that arrived after the last read (the end of output
        is noted, not returned); a test of a clean answer expects none."""
        lines = []
        while True:
            try:
                _, line = self._lines.get_nowait()
            except queue.Empty:
                return lines
            if line is None:
                self._eof = True
            else:
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
