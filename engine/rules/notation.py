"""UHP string formats (uhp.md, "Strings"), in plain Python.

This module only knows syntax: game types, game states, turns, piece names and
the shape of a MoveString. Resolving a move against a position is Board's job
(game.py). Every parse error is a NotationError with a reason a player can read.
"""

import re
from typing import NamedTuple, Optional

from .bugs import (
    BUGS,
    EXPANSION_BIT,
    EXPANSION_LETTERS,
    FAN_BITS,
    FAN_EXCLUSIONS,
    FAN_IMPLEMENTED,
    FAN_TOKENS,
    FIXED_FACE_BIT,
    FIXED_FACES,
    OFFICIAL_BITS,
    PIECE_BACK_NAMES,
    VENOM_FIXED_BITS,
    VENOM_PLACED_BIT,
    PIECE_NAMES,
    PIECES,
    game_types,
)
from .constants import BLACK_WINS, DRAW, IN_PROGRESS, WHITE_WINS
from .errors import NotationError
from .hexgrid import DIR_E, DIR_NE, DIR_NW, DIR_SE, DIR_SW, DIR_W
from .kinds import FORM_CHOOSE, FORM_DRAW, FORM_FLIP, FORM_PASS, FORM_REFERENCE, FORM_STEAL, KEYWORD_FORMS, SIGN_OF_FORM

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
    "parse_face_piece",
    "piece_name",
    "parse_move_text",
    "format_move_text",
    "normalize_move_string",
]

# --- GameTypeString (uhp.md; fan-rules.md §2.1) ---------------------------------
_LETTER_LIST = ", ".join(EXPANSION_LETTERS)
_TOKEN_OF = {token.lower(): token for token in FAN_TOKENS}
_SEGMENT_RE = re.compile(r"([A-Za-z]+)(?:\((.*)\))?")


def parse_game_type(text, fan=True):
    """Expansion bits of a GameTypeString: Base, the official letters in one
    segment in any order, and the fan tokens (fan-rules.md GT-3), all in any case
    and order. With `fan` false a fan game type is refused, and every official
    string gets its usual answer."""
    stripped = text.strip()
    try:
        bits = _parse_game_type(stripped)
    except NotationError:
        if fan:
            raise
        bits = -1
    if fan:
        return bits
    if bits < 0:
        raise NotationError(f"Unknown game type '{stripped}'; expected Base or Base+ with {_LETTER_LIST}.")
    if bits & FAN_BITS:
        raise NotationError(f"{format_game_type(bits)} is a fan game type; turn the fan pieces on first "
                            "with 'options set FanBugs True'.")
    return bits


def _parse_game_type(stripped):
    segments = stripped.split("+")
    if segments[0].lower() != "base":
        raise NotationError(f"Unknown game type '{stripped}'; a game type starts with Base.")
    bits = 0
    tokens = []
    for segment in segments[1:]:
        match = _SEGMENT_RE.fullmatch(segment.strip())
        if not match:
            raise NotationError(f"Unknown game type '{stripped}': '{segment}' is not a letter or a token.")
        name, variants = match.groups()
        token = _TOKEN_OF.get(name.lower())
        if token is None and variants is None and all(letter in EXPANSION_LETTERS for letter in name.upper()):
            if bits & OFFICIAL_BITS:
                raise NotationError(f"Unknown game type '{stripped}': the letters {_LETTER_LIST} go in one segment.")
            for letter in name.upper():
                if bits & EXPANSION_BIT[letter]:
                    raise NotationError(f"Unknown game type '{stripped}': {letter} is named twice.")
                bits |= EXPANSION_BIT[letter]
            continue
        if token is None:
            raise NotationError(f"Unknown game type '{stripped}': '{segment}' is neither official letters "
                                f"({_LETTER_LIST}) nor a fan token ({', '.join(FAN_TOKENS)}).")
        if token in tokens:
            raise NotationError(f"Unknown game type '{stripped}': {token} is named twice.")
        if token not in FAN_IMPLEMENTED:
            raise NotationError(f"hexbee does not play {token} yet; its fan tokens are {', '.join(FAN_IMPLEMENTED)}.")
        if variants is not None:
            bits |= _variant_bits(stripped, token, variants)
        tokens.append(token)
        bits |= EXPANSION_BIT[token]
    for first, second in FAN_EXCLUSIONS:
        if first in tokens and second in tokens:
            raise NotationError(f"{first} and {second} cannot be played together: they bring two versions "
                                "of one bug.")
    if "Venom" in tokens:
        for letter, bit in FIXED_FACE_BIT.items():
            front = next((bug for bug in BUGS if bug.back == letter), None)
            if bits & bit and front.expansion and not bits & EXPANSION_BIT.get(front.expansion, 0):
                raise NotationError(f"Unknown game type '{stripped}': Venom(Fixed:{letter}) needs "
                                    f"{front.expansion}, whose tile has the {letter} on its back.")
    return bits


def _variant_bits(stripped, token, variants):
    """The bits of a token's variants (fan-rules.md §2.2): Venom's `Placed` or
    `Fixed:<faces>`, one of them."""
    if token != "Venom":
        raise NotationError(f"hexbee does not play the variant '{variants}' of {token}.")
    names = [variant.strip() for variant in variants.split(",")]
    if len(names) != 1:
        raise NotationError(f"Unknown game type '{stripped}': Venom takes one variant, Placed or Fixed, not both.")
    name, colon, faces = names[0].partition(":")
    if name.lower() == "placed" and not colon:
        return VENOM_PLACED_BIT
    if name.lower() == "fixed" and faces:
        bits = 0
        for letter in faces.upper():
            if letter not in FIXED_FACE_BIT or bits & FIXED_FACE_BIT[letter]:
                raise NotationError(f"Unknown game type '{stripped}': Fixed lists each of the faces "
                                    f"{FIXED_FACES} at most once, not '{faces}'.")
            bits |= FIXED_FACE_BIT[letter]
        return bits
    raise NotationError(f"hexbee does not play the variant '{variants}' of Venom; its variants are "
                        "Placed and Fixed:<faces>.")


def format_game_type(bits):
    """Canonical GameTypeString (fan-rules.md GT-2): Base, the official letters in
    the table's order, then the fan tokens in canonical order."""
    letters = "".join(letter for letter in EXPANSION_LETTERS if bits & EXPANSION_BIT[letter])
    tokens = [token for token in FAN_IMPLEMENTED if bits & EXPANSION_BIT[token]]
    if bits & VENOM_PLACED_BIT:
        tokens[tokens.index("Venom")] = "Venom(Placed)"
    elif bits & VENOM_FIXED_BITS:
        faces = "".join(letter for letter in FIXED_FACES if bits & FIXED_FACE_BIT[letter])
        tokens[tokens.index("Venom")] = f"Venom(Fixed:{faces})"
    return "+".join(["Base"] + ([letters] if letters else []) + tokens)


GAME_TYPES = game_types()

# --- GameStateString and TurnString ---------------------------------------------
GAME_STATES = ("NotStarted", "InProgress", "Draw", "WhiteWins", "BlackWins")
_STATE_OF_RESULT = {IN_PROGRESS: "InProgress", DRAW: "Draw", WHITE_WINS: "WhiteWins", BLACK_WINS: "BlackWins"}


def format_game_state(plies, result):
    if plies == 0 and result == IN_PROGRESS:
        return "NotStarted"
    return _STATE_OF_RESULT[result]


def format_turn(turns):
    """TurnString of a game after `turns` completed turns (passes count; in
    Swarm less its two `choose` entries, negative while they are due): the side
    to move and its turn number (TU-2)."""
    return ("White" if turns % 2 == 0 else "Black") + f"[{max(1, turns // 2 + 1)}]"


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
# Either name of a Venom tile names the tile (fan-rules.md §4.1): (piece, face).
_PIECE_OF_NAME = {name.lower(): (piece, 0) for piece, name in enumerate(PIECE_NAMES)}
_PIECE_OF_NAME.update({name.lower(): (piece, 1) for piece, name in enumerate(PIECE_BACK_NAMES) if name})
_FAN_PIECES = frozenset(piece for piece, (_, bug, _) in enumerate(PIECES) if BUGS[bug].expansion in FAN_TOKENS)


def parse_face_piece(text, fan=True, backs=True):
    """(piece id, face) of a name such as wQ, bA2, wDx, or with Venom a tile's
    back, wD2 (face 1 of tile G2), case-insensitive; with `fan` false the fan
    pieces' names are unknown, as in an official game, and with `backs` false
    the backs' names."""
    piece, face = _PIECE_OF_NAME.get(text.lower(), (-1, 0))
    if piece < 0 or (face and not (fan and backs)) or (not fan and piece in _FAN_PIECES):
        raise NotationError(f"Unknown piece '{text}'.")
    return piece, face


def parse_piece(text, fan=True, backs=True):
    """Piece id of a name (parse_face_piece), whichever face it names."""
    return parse_face_piece(text, fan, backs)[0]


def piece_name(piece, face=0):
    """The name of `piece` showing `face` (1: its back, with Venom)."""
    return PIECE_BACK_NAMES[piece] if face else PIECE_NAMES[piece]


# --- MoveString -------------------------------------------------------------------
# A mark before the reference piece: -X west, /X south-west, \X north-west.
# A mark after it: X- east, X/ north-east, X\ south-east.
_DIRECTION_BEFORE = {"-": DIR_W, "/": DIR_SW, "\\": DIR_NW}
_DIRECTION_AFTER = {"-": DIR_E, "/": DIR_NE, "\\": DIR_SE}
_MARK_BEFORE = {d: mark for mark, d in _DIRECTION_BEFORE.items()}
_MARK_AFTER = {d: mark for mark, d in _DIRECTION_AFTER.items()}


class MoveText(NamedTuple):
    """A parsed MoveString (fan-rules.md §4.2): its form (kinds.FORM_*), which
    the table of kinds maps to the kinds it may stand for, and its pieces.

    The reference form: a piece alone, or a piece and a reference; direction is
    the destination's direction from the reference piece, or None when the
    piece goes on top of it, and thrower the piece a throw names with `^`. The
    sting, removal, wasp sting and swap forms name a target; a flip names only
    the tile; `@` names a controller around an inner entry; `choose` names
    three pieces (chosen), `draw` and `steal` one (piece). -1: no piece.
    face is the face the piece's name shows (Venom: 1 for its back), which a
    placement chooses."""

    is_pass: bool
    piece: int = -1
    reference: int = -1
    direction: Optional[int] = None
    thrower: int = -1
    form: str = FORM_REFERENCE
    target: int = -1
    controller: int = -1
    chosen: tuple = ()
    face: int = 0


PASS_TEXT = MoveText(True, form=FORM_PASS)
_REFERENCE_RE = re.compile(r"([-/\\]?)(.+?)([-/\\]?)")
_FORM_OF_SIGN = {sign: form for form, sign in SIGN_OF_FORM.items()}
_CHOSEN = 3  # pieces a Swarm `choose` names (SW-1)


def parse_move_text(text, fan=True, backs=True):
    """Parse a MoveString's syntax (NO-1); case-insensitive, spaces tolerated.
    With `fan` false only the official forms are known, and names of fan pieces
    are unknown (parse_piece); with `backs` false the names of Venom's backs."""
    stripped = text.strip()
    words = stripped.split()
    if not words:
        raise NotationError("Unrecognized move ''.")
    keyword = words[0].lower()
    if keyword == FORM_PASS and len(words) == 1:
        return PASS_TEXT

    def refuse(why=""):
        return NotationError(f"Unrecognized move '{stripped}'" + (f": {why}." if why else "."))

    if keyword in KEYWORD_FORMS:
        count = _CHOSEN if keyword == FORM_CHOOSE else 1
        if not fan or keyword == FORM_PASS:
            raise refuse()
        if len(words) != 1 + count:
            raise refuse(f"{keyword} names {count} piece{'s' if count > 1 else ''}")
        pieces = tuple(parse_piece(word, backs=backs) for word in words[1:])
        if keyword == FORM_CHOOSE:
            return MoveText(False, form=FORM_CHOOSE, chosen=pieces)
        return MoveText(False, pieces[0], form=keyword)
    piece, face = parse_face_piece(words[0], fan, backs)
    rest = words[1:]
    controller = -1
    if rest and rest[-1].startswith("@") and fan:
        controller = parse_piece(rest.pop()[1:], backs=backs)
    thrower = -1
    if rest and rest[-1].startswith("^") and fan:
        thrower = parse_piece(rest.pop()[1:], backs=backs)
    if len(rest) > 1:
        raise refuse()
    if not rest:
        if thrower >= 0:
            raise refuse("a throw names the piece it lands by")
        return MoveText(False, piece, thrower=-1, controller=controller, face=face)
    second = rest[0]
    if second == "~" and fan and thrower < 0:
        return MoveText(False, piece, form=FORM_FLIP, controller=controller, face=face)
    form = _FORM_OF_SIGN.get(second[0].lower()) if fan else None
    if form is not None:
        if thrower >= 0:
            raise refuse("only a move names a thrower")
        return MoveText(False, piece, form=form, target=parse_piece(second[1:], backs=backs), controller=controller, face=face)
    before, reference, after = _REFERENCE_RE.fullmatch(second).groups()
    if before and after:
        raise refuse("a reference takes one direction mark")
    ref = parse_piece(reference, fan, backs)
    direction = _DIRECTION_BEFORE[before] if before else _DIRECTION_AFTER[after] if after else None
    return MoveText(False, piece, ref, direction, thrower, controller=controller, face=face)


def format_move_text(move, faces=None):
    """MoveString of a MoveText, in canonical case: the piece by the face it
    names, the others by `faces` (the faces each piece shows, Board's), or
    their fronts."""

    def piece_name(piece):
        return PIECE_BACK_NAMES[piece] if faces is not None and faces[piece] else PIECE_NAMES[piece]

    form = move.form
    if form == FORM_PASS:
        return "pass"
    if form == FORM_CHOOSE:
        return " ".join([FORM_CHOOSE, *(piece_name(piece) for piece in move.chosen)])
    if form in (FORM_DRAW, FORM_STEAL):
        return f"{form} {piece_name(move.piece)}"
    words = [PIECE_BACK_NAMES[move.piece] if move.face else PIECE_NAMES[move.piece]]
    if form == FORM_FLIP:
        words.append("~")
    elif form in SIGN_OF_FORM:
        words.append(SIGN_OF_FORM[form] + piece_name(move.target))
    elif move.reference >= 0:
        ref = piece_name(move.reference)
        if move.direction is None:
            words.append(ref)
        elif move.direction in _MARK_BEFORE:
            words.append(_MARK_BEFORE[move.direction] + ref)
        else:
            words.append(ref + _MARK_AFTER[move.direction])
        if move.thrower >= 0:
            words.append("^" + piece_name(move.thrower))
    if move.controller >= 0:
        words.append("@" + piece_name(move.controller))
    return " ".join(words)


def normalize_move_string(text):
    """The same MoveString in canonical case and spacing (WB1  -WA1 -> wB1 -wA1)."""
    return format_move_text(parse_move_text(text))

