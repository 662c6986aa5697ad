"""UHP string formats (uhp.md, "Strings"), in plain Python.

This module only knows syntax: game types, game states, turns, piece names and
the shape of a MoveString. Resolving a move against a position is Board's job
(game.py). Every parse error is a NotationError with a reason a player can read.
"""

import re
from typing import NamedTuple, Optional

from .bugs import EXPANSION_BIT, EXPANSION_LETTERS, PIECE_NAMES, game_types
from .constants import BLACK_WINS, DRAW, IN_PROGRESS, WHITE_WINS
from .errors import NotationError
from .hexgrid import DIR_E, DIR_NE, DIR_NW, DIR_SE, DIR_SW, DIR_W

__all__ = [
    "GAME_TYPES",
    "GAME_STATES",
    "GameString",
    "MoveText",
    "parse_game_type",
    "format_game_type",
    "parse_game_string",
    "format_game_state",
    "format_turn",
    "parse_piece",
    "piece_name",
    "parse_move_text",
    "format_move_text",
    "normalize_move_string",
]

# --- GameTypeString -----------------------------------------------------------
_LETTER_LIST = ", ".join(EXPANSION_LETTERS)


def parse_game_type(text):
    """Expansion bits of a GameTypeString; letters in any order, any case."""
    stripped = text.strip()
    head, plus, letters = stripped.partition("+")
    if head.lower() != "base" or (plus and not letters):
        raise NotationError(f"Unknown game type '{text.strip()}'; expected Base or Base+ with {_LETTER_LIST}.")
    bits = 0
    for letter in letters.upper():
        bit = EXPANSION_BIT.get(letter)
        if bit is None or bits & bit:
            raise NotationError(f"Unknown game type '{stripped}'; expected Base or Base+ with {_LETTER_LIST}.")
        bits |= bit
    return bits


def format_game_type(bits):
    """Canonical GameTypeString: Base, or Base+ and the letters in the table's order."""
    letters = "".join(letter for letter, bit in EXPANSION_BIT.items() if bits & bit)
    return "Base+" + letters if letters else "Base"


GAME_TYPES = game_types()

# --- GameStateString and TurnString ---------------------------------------------
GAME_STATES = ("NotStarted", "InProgress", "Draw", "WhiteWins", "BlackWins")
_STATE_OF_RESULT = {IN_PROGRESS: "InProgress", DRAW: "Draw", WHITE_WINS: "WhiteWins", BLACK_WINS: "BlackWins"}


def format_game_state(plies, result):
    if plies == 0 and result == IN_PROGRESS:
        return "NotStarted"
    return _STATE_OF_RESULT[result]


def format_turn(plies):
    """TurnString: side to move and that side's turn number (passes count)."""
    return ("White" if plies % 2 == 0 else "Black") + f"[{plies // 2 + 1}]"


_TURN_RE = re.compile(r"(white|black)\[(\d+)\]", re.IGNORECASE)


class GameString(NamedTuple):
    expansions: int
    state: str
    turn: str
    moves: tuple


def parse_game_string(text):
    """Split a GameString into its fields. The state and turn fields are checked
    for form only: a loaded game recomputes them from the moves."""
    fields = [field.strip() for field in text.strip().split(";")]
    if len(fields) < 3:
        raise NotationError("A GameString needs at least GameType;GameState;Turn.")
    expansions = parse_game_type(fields[0])
    state = next((s for s in GAME_STATES if s.lower() == fields[1].lower()), None)
    if state is None:
        raise NotationError(f"Unknown game state '{fields[1]}'.")
    if not _TURN_RE.fullmatch(fields[2]):
        raise NotationError(f"Malformed turn '{fields[2]}'; expected White[n] or Black[n].")
    moves = fields[3:]
    if moves and moves[-1] == "":
        moves.pop()  # tolerate one trailing ';'
    if any(move == "" for move in moves):
        raise NotationError("A GameString may not contain an empty move.")
    return GameString(expansions, state, fields[2], tuple(moves))


# --- Piece names ----------------------------------------------------------------
_PIECE_OF_NAME = {name.lower(): piece for piece, name in enumerate(PIECE_NAMES)}


def parse_piece(text):
    """Piece id of a name such as wQ, bA2 (case-insensitive)."""
    piece = _PIECE_OF_NAME.get(text.lower())
    if piece is None:
        raise NotationError(f"Unknown piece '{text}'.")
    return piece


def piece_name(piece):
    return PIECE_NAMES[piece]


# --- MoveString -------------------------------------------------------------------
# A mark before the reference piece: -X west, /X south-west, \X north-west.
# A mark after it: X- east, X/ north-east, X\ south-east.
_DIRECTION_BEFORE = {"-": DIR_W, "/": DIR_SW, "\\": DIR_NW}
_DIRECTION_AFTER = {"-": DIR_E, "/": DIR_NE, "\\": DIR_SE}
_MARK_BEFORE = {d: mark for mark, d in _DIRECTION_BEFORE.items()}
_MARK_AFTER = {d: mark for mark, d in _DIRECTION_AFTER.items()}


class MoveText(NamedTuple):
    """A parsed MoveString: pass, a piece alone, or a piece and a reference.

    direction is the destination's direction from the reference piece, or None
    when the piece goes on top of the reference."""

    is_pass: bool
    piece: int = -1
    reference: int = -1
    direction: Optional[int] = None


PASS_TEXT = MoveText(True)
_MOVE_RE = re.compile(r"(\S+)(?:\s+([-/\\]?)(\S+?)([-/\\]?))?")


def parse_move_text(text):
    """Parse a MoveString's syntax; case-insensitive, spaces tolerated."""
    stripped = text.strip()
    if stripped.lower() == "pass":
        return PASS_TEXT
    match = _MOVE_RE.fullmatch(stripped)
    if not match:
        raise NotationError(f"Unrecognized move '{stripped}'.")
    mover, before, reference, after = match.groups()
    piece = parse_piece(mover)
    if reference is None:
        return MoveText(False, piece)
    if before and after:
        raise NotationError(f"Unrecognized move '{stripped}': a reference takes one direction mark.")
    ref = parse_piece(reference)
    if before:
        return MoveText(False, piece, ref, _DIRECTION_BEFORE[before])
    if after:
        return MoveText(False, piece, ref, _DIRECTION_AFTER[after])
    return MoveText(False, piece, ref, None)


def format_move_text(move):
    """MoveString of a MoveText, in canonical case."""
    if move.is_pass:
        return "pass"
    name = piece_name(move.piece)
    if move.reference < 0:
        return name
    ref = piece_name(move.reference)
    if move.direction is None:
        return f"{name} {ref}"
    if move.direction in _MARK_BEFORE:
        return f"{name} {_MARK_BEFORE[move.direction]}{ref}"
    return f"{name} {ref}{_MARK_AFTER[move.direction]}"


def normalize_move_string(text):
    """The same MoveString in canonical case and spacing (WB1  -WA1 -> wB1 -wA1)."""
    return format_move_text(parse_move_text(text))

