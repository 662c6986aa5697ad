"""Engine options, declared once as specs; the protocol prints and sets them.

>>> spec = OptionSpec("MaxHelperThreads", "int", 1, minimum=0, maximum=8)
>>> spec.line(spec.parse("4"))
'MaxHelperThreads;int;4;1;0;8'
>>> spec.parse("9")
Traceback (most recent call last):
...
ValueError: MaxHelperThreads must be a whole number from 0 to 8, not '9'.
"""

import math
import re
from typing import Callable, NamedTuple, Optional

_INT_RE = re.compile(r"[+-]?[0-9]+")
_DOUBLE_RE = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


class OptionSpec(NamedTuple):
    """One UHP option: `Name;type;Value;Default[;Min;Max]` or, for enums,
    `Name;enum;Value;Default;Choice1;...`. kind is "bool", "int", "double" or "enum".

    `apply(owner, value)`, if given, puts a newly set value into effect in the
    object that owns the option (the session, the searcher); without it the
    value is only read where it is used."""

    name: str
    kind: str
    default: object
    minimum: Optional[float] = None
    maximum: Optional[float] = None
    choices: tuple = ()
    help: str = ""
    apply: Optional[Callable] = None

    def parse(self, text):
        """The value a string names (True/False any case, numbers in bounds,
        enum choices any case); ValueError saying what is expected otherwise."""
        if self.kind == "bool":
            value = {"true": True, "false": False}.get(text.lower())
            if value is None:
                raise ValueError(f"{self.name} must be True or False, not '{text}'.")
            return value
        if self.kind == "enum":
            value = next((choice for choice in self.choices if choice.lower() == text.lower()), None)
            if value is None:
                raise ValueError(f"{self.name} must be one of {', '.join(self.choices)}, not '{text}'.")
            return value
        if self.kind == "int":
            value = int(text) if _INT_RE.fullmatch(text) else None
            expected = "a whole number"
        else:
            value = float(text) if _DOUBLE_RE.fullmatch(text) else None
            expected = "a number"
        if value is None or not math.isfinite(value) or not self._in_bounds(value):
            raise ValueError(f"{self.name} must be {expected}{self._bounds_text()}, not '{text}'.")
        return value

    def line(self, value):
        """The option's line with its current `value`."""
        fields = [self.name, self.kind, _format(value), _format(self.default)]
        if self.kind in ("int", "double") and self.minimum is not None and self.maximum is not None:
            fields += [_format(self.minimum), _format(self.maximum)]
        elif self.kind == "enum":
            fields += list(self.choices)
        return ";".join(fields)

    def _in_bounds(self, value):
        return (self.minimum is None or value >= self.minimum) and (self.maximum is None or value <= self.maximum)

    def _bounds_text(self):
        if self.minimum is not None and self.maximum is not None:
            return f" from {_format(self.minimum)} to {_format(self.maximum)}"
        if self.minimum is not None:
            return f" of at least {_format(self.minimum)}"
        if self.maximum is not None:
            return f" of at most {_format(self.maximum)}"
        return ""


def _format(value):
    if isinstance(value, bool):
        return "True" if value else "False"
    return str(value)
