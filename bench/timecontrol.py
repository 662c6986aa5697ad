"""Time controls: what the runner asks each engine for and when it has overrun.

Three kinds, named as in an engine spec (`depth=N`, `movetime=S`, `tc=B+I`):
a fixed depth per move, a fixed time per move, or a per-game clock of B seconds
plus I seconds after each move, of which the runner gives the engine a share
with each `bestmove time`. UHP has no clock command: the runner keeps the clock.

Each engine also has a form for its time limits (`limit=` in an engine spec):
`time` (`bestmove time hh:mm:ss.fff`, the default), `seconds` (`bestmove seconds
S`, nokamute's form) or, with a clock, `clock` (`bestmove clock REMAINING
INCREMENT`, hexbee's form: the engine is told its clock and spends its own share).
"""

from typing import NamedTuple

# The share of a clock given to one move: what is left spread over this many
# more moves, plus the increment, as GUIs do for engines that get no clock.
MOVES_TO_GO = 20
MIN_MOVE_SECONDS = 0.01

# The per-move timeout of `bestmove depth N`, which has no time limit: an engine
# silent for this long is taken to hang.
DEFAULT_HANG_SECONDS = 60.0
LIMIT_FORMS = ("time", "seconds", "clock")


class TimeControl(NamedTuple):
    kind: str  # "depth", "movetime" or "clock"
    depth: int | None = None
    seconds: float | None = None  # per move, or the clock's budget
    increment: float = 0.0
    form: str = "time"  # how a time limit is sent: one of LIMIT_FORMS

    def with_form(self, form):
        """This control sending its limits in `form` (LIMIT_FORMS; `clock` only with a clock)."""
        if form not in LIMIT_FORMS:
            raise ValueError(f"unknown limit form {form!r} ({', '.join(LIMIT_FORMS)})")
        if form == "clock" and self.kind != "clock":
            raise ValueError("limit=clock needs a clock (tc=BASE+INCREMENT)")
        return self._replace(form=form)

    @classmethod
    def parse(cls, key, value):
        """`depth` "3", `movetime` "0.5" or `tc` "60+0.5" (or "60")."""
        try:
            if key == "depth":
                depth = int(value)
                if depth < 1:
                    raise ValueError
                return cls("depth", depth=depth)
            if key == "movetime":
                return cls("movetime", seconds=_positive(value))
            if key == "tc":
                budget, _, increment = value.partition("+")
                return cls("clock", seconds=_positive(budget), increment=float(increment or 0))
        except ValueError:
            raise ValueError(f"bad time control {key}={value}") from None
        raise ValueError(f"unknown time control {key!r} (depth, movetime or tc)")

    def __str__(self):
        form = "" if self.form == "time" else f" limit={self.form}"
        if self.kind == "depth":
            return f"depth={self.depth}"
        if self.kind == "movetime":
            return f"movetime={self.seconds:g}{form}"
        return f"tc={self.seconds:g}+{self.increment:g}{form}"


def _positive(text):
    seconds = float(text)
    if not seconds > 0:
        raise ValueError
    return seconds


def format_uhp_time(seconds):
    """`bestmove time` argument: hh:mm:ss with up to 3 decimals (uhp.md)."""
    millis = max(1, round(seconds * 1000))
    hours, millis = divmod(millis, 3_600_000)
    minutes, millis = divmod(millis, 60_000)
    whole, millis = divmod(millis, 1000)
    fraction = f".{millis:03d}".rstrip("0") if millis else ""
    return f"{hours:02d}:{minutes:02d}:{whole:02d}{fraction}"


def format_seconds(seconds):
    """Seconds as `bestmove seconds` and `bestmove clock` take them: up to 3 decimals, at least 0.001."""
    return f"{max(0.001, seconds):.3f}".rstrip("0").rstrip(".")


class GameClock:
    """One side's time in one game: the command to send for its next move,
    how long to wait for it, and whether the time it took loses the game."""

    def __init__(self, control, margin, hang_seconds=DEFAULT_HANG_SECONDS):
        self.control = control
        self.margin = margin
        self.hang_seconds = hang_seconds
        self.remaining = control.seconds if control.kind == "clock" else None
        self.used = 0.0

    def request(self):
        """(command, seconds to wait before the engine is given up on)."""
        control = self.control
        if control.kind == "depth":
            return f"bestmove depth {control.depth}", self.hang_seconds
        if control.kind == "movetime":
            return self._limit(control.seconds), control.seconds + self.margin
        wait = max(0.0, self.remaining) + self.margin
        if control.form == "clock":
            return f"bestmove clock {format_seconds(self.remaining)} {format_seconds(control.increment)}", wait
        share = min(self.remaining / MOVES_TO_GO + control.increment, self.remaining / 2)
        return self._limit(max(MIN_MOVE_SECONDS, share)), wait

    def _limit(self, seconds):
        if self.control.form == "seconds":
            return f"bestmove seconds {format_seconds(seconds)}"
        return f"bestmove time {format_uhp_time(seconds)}"

    def charge(self, seconds):
        """Book a move that took `seconds`; return why it loses on time, or None."""
        self.used += seconds
        control = self.control
        if control.kind == "movetime" and seconds > control.seconds + self.margin:
            return f"took {seconds:.2f} s for a move of {control.seconds:g} s (margin {self.margin:g} s)"
        if control.kind == "clock":
            left = self.remaining
            self.remaining -= seconds
            if self.remaining < -self.margin:
                return f"took {seconds:.2f} s with {left:.2f} s left on its clock (margin {self.margin:g} s)"
            self.remaining += control.increment
        return None
