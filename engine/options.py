"""Engine options, declared once as specs; the protocol prints and sets them."""

from typing import NamedTuple, Optional


class OptionSpec(NamedTuple):
    """One UHP option: `Name;type;Value;Default[;Min;Max]` or, for enums,
    `Name;enum;Value;Default;Choice1;...`. kind is "bool", "int", "double" or "enum"."""

    name: str
    kind: str
    default: object
    minimum: Optional[float] = None
    maximum: Optional[float] = None
    choices: tuple = ()
    help: str = ""
