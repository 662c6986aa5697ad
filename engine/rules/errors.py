"""The two errors the rules raise; only the protocol turns them into output."""

__all__ = ["NotationError", "IllegalMoveError"]


class NotationError(ValueError):
    """A string that is not valid UHP notation (GameString, MoveString, ...)."""


class IllegalMoveError(ValueError):
    """A well-formed move that the rules forbid; the message says why."""
