"""A real engine process (`python -m engine`) for end-to-end protocol tests.

Every read has a timeout, so a hung engine fails the test instead of hanging
the suite.
"""

import queue
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 60.0  # seconds; generous, for a loaded 2-core machine


class EngineProcess:
    """`python -m engine` with pipes; answers are read line by line."""

    def __init__(self, *args, env=None):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "engine", *args],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self._lines = queue.Queue()
        self._stderr = []
        threading.Thread(target=self._pump, args=(self.process.stdout, self._lines.put), daemon=True).start()
        self._stderr_pump = threading.Thread(target=self._pump, args=(self.process.stderr, self._stderr.append),
                                             daemon=True)
        self._stderr_pump.start()

    @staticmethod
    def _pump(stream, sink):
        for raw in iter(stream.readline, b""):
            sink(raw.decode("utf-8", errors="replace").rstrip("\n"))
        sink(None)  # end of stream

    def send(self, data):
        """Write a line (str, newline added) or raw bytes."""
        self.process.stdin.write(data if isinstance(data, bytes) else (data + "\n").encode())
        self.process.stdin.flush()

    def read_line(self, timeout=TIMEOUT):
        """The next output line, or None at end of output."""
        try:
            return self._lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no output from the engine within {timeout} s") from None

    def read_answer(self, timeout=TIMEOUT):
        """Lines up to and including the next `ok`."""
        lines = []
        while not lines or lines[-1] != "ok":
            line = self.read_line(timeout)
            if line is None:
                raise AssertionError(f"the engine ended its output after {lines}")
            lines.append(line)
        return lines

    def ask(self, command, timeout=TIMEOUT):
        self.send(command)
        return self.read_answer(timeout)

    def close_input(self):
        self.process.stdin.close()

    def wait(self, timeout=TIMEOUT):
        """Exit status once the process has ended."""
        return self.process.wait(timeout)

    def rest(self, timeout=TIMEOUT):
        """Every output line until the end of output."""
        lines = []
        while (line := self.read_line(timeout)) is not None:
            lines.append(line)
        return lines

    @property
    def stderr(self):
        """What the engine logged; all of it once the process has ended."""
        if self.process.poll() is not None:
            self._stderr_pump.join(TIMEOUT)
        return "\n".join(line for line in self._stderr if line is not None)

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(TIMEOUT)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.kill()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            try:
                stream.close()
            except OSError:
                pass
