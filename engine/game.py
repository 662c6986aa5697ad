"""The Python face of the rules: a Board in python-chess's shape over the kernels.

Kernels speak move codes and arrays; Board speaks Move objects and UHP strings,
validates every move it is given, and says why an illegal one is illegal.

>>> board = Board("Base+MLP")
>>> board.push_uhp("wG1")
Move(wG1)
>>> board.push_uhp("bL /wG1")
Move(bL /wG1)
>>> board.game_string()
'Base+MLP;InProgress;White[2];wG1;bL /wG1'
>>> board.uhp(board.parse_uhp("WQ WG1-"))
'wQ wG1-'
"""

import operator
from typing import NamedTuple, Optional

import numpy as np

from .colors import BLACK, WHITE, side_color, side_index, warn_deprecated
from .rules.board import AWAY_BAG, AWAY_PRISON, AWAY_REMOVED, compute_key, copy_state, face_bug, make_move, new_state, put_piece, queens_result, top_piece, unmake_move
from .rules.board import in_hand_of, turn_number as turn_number_of, turns_past_setup
from .rules.bugs import (
    BUG_FIRST_ID,
    BUG_OF_LETTER,
    BUGS,
    COLOURED_PIECES,
    CONTROL,
    EXPANSION_BIT,
    FAN_BITS,
    HONEYCOMB_ID,
    NUM_BUGS,
    NUM_PIECES,
    PLACE_BESIDE_BOTH,
    PLACE_AWAY_FROM_QUEENS,
    PLACE_BESIDE_OWN,
    PLACE_QUEEN_AWAY,
    PIECES_PER_SIDE,
    PLACE_ON_TOP,
    QUEEN_ID,
    ROYAL,
)
from .rules.constants import (
    BLACK_WINS,
    BUG_BACKS,
    BUG_COPIES,
    BUG_FLAGS,
    DRAW,
    FLAG_QUEEN_FIRST_ALLOWED,
    FLAG_REPETITION_DRAW,
    IN_PROGRESS,
    INFO_EXPANSIONS,
    INFO_FLAGS,
    INFO_DRAW_DUE,
    INFO_FROZEN,
    INFO_PLACED,
    INFO_KEY,
    INFO_LAST_CARRIED,
    INFO_LAST_MOVED,
    INFO_OBLIGED,
    INFO_OBLIGER,
    INFO_STINGS_USED,
    INFO_TURNS,
    INFO_HONEYCOMB,
    INFO_PHASE,
    PHASE_SECOND,
    SWARM_SETUP,
    INFO_PLY,
    INFO_RESULT,
    INFO_REVERSIBLE_FROM,
    MAX_GAME_PLIES,
    MAX_MOVES,
    MAX_PLIES,
    PIECE_BUG,
    PIECE_COLOR,
    WHITE_WINS,
)
from .io.diagram import COLOR_NAMES, hand, stacks, text_diagram
from .rules.errors import IllegalMoveError, NotationError
from .rules.hexgrid import NUM_CELLS, ORIGIN, axial, cell_of, filled_neighbours, neighbor
from .rules.kinds import (
    FORM_CHOOSE,
    FORM_CONTROL,
    FORM_DRAW,
    FORM_FLIP,
    FORM_PASS,
    FORM_REFERENCE,
    KIND_FIELDS,
    KIND_FORMS,
    KIND_NAMES,
    KINDS_OF_FORM,
    SWARM_FORMS,
)
from .rules.moves import (
    KIND_CONTROL,
    KIND_MOVE,
    KIND_PASS,
    KIND_PLACE,
    KIND_STING,
    KIND_THROW,
    KIND_TRANSPORT,
    PASS_MOVE,
    encode,
    encode_full,
    find_slot,
    move_dest,
    move_face,
    move_kind,
    move_other,
    move_piece,
    move_slot,
)
from .rules.movegen import (
    actions_by,
    bug_enabled,
    generate_moves,
    flips_allowed,
    in_last,
    is_covered,
    is_frozen,
    locking_scorpion,
    is_pinned,
    pieces_may_move,
    placeable_pieces,
    placement_faces,
    placement_rule,
)
from .rules.movegen import placement_cells as _placement_cells
from .rules.notation import (
    PASS_TEXT,
    MoveText,
    format_game_state,
    format_game_type,
    format_move_text,
    format_turn,
    parse_game_string,
    parse_game_type,
    parse_face_piece,
    parse_move_text,
    parse_piece,
    piece_name,
)
from .rules.perft import perft

__all__ = [
    "Board",
    "Move",
    "PASS",
    "Outcome",
    "WHITE",
    "BLACK",
    "side_index",
    "side_color",
    "QUEEN_SURROUNDED",
    "BOTH_QUEENS_SURROUNDED",
    "REPETITION",
    "PLY_LIMIT",
    "IllegalMoveError",
    "NotationError",
    "axial",
    "cell_of",
]

# Neighbours of a destination scanned for the printed reference, with the
# direction of the destination as seen from that neighbour (uhp.md, "Which
# reference to print"): NW -> X\ (SE of X), NE -> /X (SW), E -> -X (W),
# SE -> \X (NW), SW -> X/ (NE), W -> X- (E). Direction ids: NW 0 .. W 5.
_REFERENCE_SCAN = ((0, 3), (1, 4), (2, 5), (3, 0), (4, 1), (5, 2))


# The codec's functions as plain Python (numba keeps each one's source as .py_func):
# decoding a move from Python must not pay a call into compiled code per field.
_kind_of, _piece_of, _dest_of, _encode = move_kind.py_func, move_piece.py_func, move_dest.py_func, encode.py_func
_other_of, _face_of, _encode_full = move_other.py_func, move_face.py_func, encode_full.py_func
VENOM = EXPANSION_BIT["Venom"]
SWARM = EXPANSION_BIT["Swarm"]
_neighbor = neighbor.py_func
_bug_enabled = bug_enabled.py_func
# Each side's tile that can show the Tick, the one piece that makes an enemy
# piece act (fan-rules.md §6.7): the controller a MoveString names with `@`.
_TICK_TILE = next(index for index, bug in enumerate(BUGS) if bug.back and BUGS[BUG_OF_LETTER[bug.back]].abilities & CONTROL)
_TICK_ID = tuple(side * PIECES_PER_SIDE + BUG_FIRST_ID[_TICK_TILE] for side in (0, 1))
# Each side's S004 Firefly, which moves an enemy piece by its movement (`@`, FX-2).
_FIREFLY_ID = tuple(side * PIECES_PER_SIDE + BUG_FIRST_ID[BUG_OF_LETTER["Fx"]] for side in (0, 1))
_MANTIS_ID = tuple(side * PIECES_PER_SIDE + BUG_FIRST_ID[BUG_OF_LETTER["Nx"]] for side in (0, 1))


class Move(int):
    """A move: an int of the codec in moves.py (a kind, a piece, a destination cell,
    a second piece), whose kind is a row of the table of kinds (kinds.py).

    Equality and hashing are those of the int. A Move that a Board listed,
    parsed or played also knows its MoveString, which `str` and `repr` show
    (`wS1 -wA1`); one built from a code alone shows its piece and destination
    (`wS1 to (-1, 0)`), since naming a reference piece needs the position."""

    # No __slots__: the MoveString, when known, lives in the instance's dict
    # (`_text`, or `_position` to name it from on first use).

    @property
    def kind(self):
        """The kind's name: 'pass', 'place', 'move', 'throw', ... (kinds.KIND_NAMES)."""
        return KIND_NAMES[_kind_of(self)]

    @property
    def is_pass(self):
        return _kind_of(self) == KIND_PASS

    def _field(self, name, value):
        return value if name in KIND_FIELDS[_kind_of(self)] else -1

    @property
    def piece(self):
        """The piece id (engine.rules.bugs.PIECE_NAMES names it); -1 for a pass."""
        return self._field("piece", _piece_of(self))

    @property
    def piece_name(self):
        """The piece's name, e.g. 'wS1' (a placement's by the face it shows,
        'wD1'); None for a pass."""
        return None if self.piece < 0 else piece_name(self.piece, self.face)

    @property
    def face(self):
        """The face a placement shows (Venom, fan-rules.md §6.0): 0 its front,
        1 its back; 0 for every other kind."""
        return max(0, self._field("face", _face_of(self)))

    @property
    def dest(self):
        """The destination cell (`axial(cell)` gives its (q, r)); -1 for a kind
        without one (a pass, Swarm's entries, ...)."""
        if KIND_FORMS[_kind_of(self)] in SWARM_FORMS:  # a choice keeps a piece in the codec's dest field
            return -1
        return self._field("dest", _dest_of(self))

    @property
    def chosen(self):
        """A Swarm `choose` entry's three pieces (ids, §11 SW-1); () for every other kind."""
        if KIND_FORMS[_kind_of(self)] != FORM_CHOOSE:
            return ()
        return (self.piece, _dest_of(self), self.other)

    @property
    def other(self):
        """The second piece the kind names (a Dragonfly's cargo, a swapped or
        stung piece), or -1."""
        return self._field("other", _other_of(self))

    @classmethod
    def place(cls, piece, dest, face=None):
        """The placement of `piece` (an id or a name such as 'wS1') on `dest` (an
        axial (q, r) pair, or a grid cell), showing `face` (Venom: 1 for the
        back; by default the face a name names, 'wD1' the back of tile G1)."""
        piece, named = _as_piece_and_face(piece)
        face = named if face is None else face
        if face not in (0, 1):
            raise ValueError(f"a face is 0 (the front) or 1 (the back), not {face!r}")
        return cls(_encode_full(KIND_PLACE, piece, _as_dest(dest), -1, face))

    @classmethod
    def move(cls, piece, dest):
        """The move of `piece` (an id or a name) onto `dest` (axial (q, r), or a cell)."""
        return cls(_encode(KIND_MOVE, _as_piece_id(piece), _as_dest(dest)))

    @classmethod
    def _named(cls, code, text):
        move = cls(code)
        move._text = text
        return move

    def __str__(self):
        """The MoveString the position gave this move, e.g. 'wS1 -wA1'."""
        fields = self.__dict__
        text = fields.get("_text")
        if text is None and "_position" in fields:
            text = fields["_text"] = _move_string(*fields.pop("_position"), self)
        if text is not None:
            return text
        if KIND_FORMS[_kind_of(self)] not in (FORM_REFERENCE, FORM_CONTROL):
            return format_move_text(_text_of(self))
        return f"{self.piece_name} to {axial(self.dest)}"

    def __repr__(self):
        return f"Move({self})"



def _move_string(side, height, stack, piece_cell, faces, move):
    """MoveString of `move` in the position of these arrays (`faces`: the face
    each piece shows; `side`, the side to move), with MzingaEngine's choice of
    reference (uhp.md, "Which reference to print"): the piece under the
    destination, else the first neighbour in _REFERENCE_SCAN order; the first
    piece on an empty board alone."""
    text = _text_of(move, side)
    if text.form != FORM_REFERENCE:
        return format_move_text(text._replace(face=int(faces[text.piece]) if text.piece >= 0 else 0), faces)
    piece, dest = move.piece, move.dest
    face = move.face if _kind_of(move) == KIND_PLACE else int(faces[piece])
    controller = text.controller
    if height[dest] > 0:
        reference = MoveText(False, piece, int(stack[dest, height[dest] - 1]), None, face=face, controller=controller)
        return format_move_text(reference, faces)
    source = piece_cell[piece]
    for scan_dir, dest_dir in _REFERENCE_SCAN:
        cell = _neighbor(dest, scan_dir)
        level = height[cell] - (1 if cell == source else 0)  # the mover is lifted
        if level > 0:
            reference = MoveText(False, piece, int(stack[cell, level - 1]), dest_dir, face=face, controller=controller)
            return format_move_text(reference, faces)
    if not height.any():
        return piece_name(piece, face)
    raise ValueError(f"{piece_name(piece, face)} to {axial(dest)} has no neighbouring piece to name")


def _text_of(move, side=None):
    """The MoveText of a move of a form that names pieces only (not the reference
    form, whose reference depends on the position): the form and the fields of
    its kind's row (kinds.py). A sting names its stinger (`other`) and victim. With
    `side`, the side to move, a move whose actor is the other side's names the
    side's Tick as its controller (`@`, the only way an enemy piece acts, §6.7);
    a controlled movement always does (the reference form, its reference left
    to the position)."""
    kind = _kind_of(move)
    form = KIND_FORMS[kind]
    if form == FORM_PASS:
        return PASS_TEXT
    if form == FORM_REFERENCE:
        # A Firefly's command names it unless a throw reaches the same state (NO-5).
        controller = move.other if kind == KIND_THROW else -1
        if kind == KIND_TRANSPORT and move.face:  # a commanded carry: the side's Firefly
            controller = _FIREFLY_ID[side]
        return MoveText(False, move.piece, face=move.face if kind == KIND_PLACE else 0, controller=controller)
    if form == FORM_CONTROL:
        return MoveText(False, move.piece, controller=move.other)
    if form == FORM_CHOOSE:
        return MoveText(False, form=form, chosen=(move.piece, _dest_of(move), move.other))
    if form in SWARM_FORMS:  # a draw or a steal names a piece, which acts on nothing (the choice: above)
        return MoveText(False, move.piece, form=form)
    actor, target = (move.other, move.piece) if kind == KIND_STING else (move.piece, move.other)
    controller = _TICK_ID[side] if side is not None and PIECE_COLOR[actor] == 1 - side else -1
    return MoveText(False, actor, form=form, target=target, controller=controller)


def _is_int(value):
    """Whether `value` is a whole number, a numpy one too, and not a bool (which
    Python counts as an int)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _as_move(move, method):
    """`move` as a Move, or a TypeError saying what `method` takes."""
    if isinstance(move, Move):
        return move
    if isinstance(move, str):
        raise TypeError(f"{method}() takes a Move, not the string {move!r}: "
                        f"parse_uhp({move!r}) gives the Move, push_uhp({move!r}) plays it")
    if _is_int(move):
        return Move(int(move))
    raise TypeError(f"{method}() takes a Move, not {type(move).__name__}")


def _as_place(place):
    """A cell from an axial (q, r) pair."""
    if (not isinstance(place, tuple) or len(place) != 2
            or not all(_is_int(x) for x in place)):
        raise TypeError(f"a place on the board is an axial (q, r) pair of ints, not {place!r}")
    return cell_of(int(place[0]), int(place[1]))


def _as_piece_id(piece):
    """A piece id from an id or a name."""
    return _as_piece_and_face(piece)[0]


def _as_piece_and_face(piece):
    """(piece id, the face a name names, 0 for an id) from an id or a name."""
    if isinstance(piece, str):
        return parse_face_piece(_as_name(piece))
    if _is_int(piece) and 0 <= piece < NUM_PIECES:
        return int(piece), 0
    raise TypeError(f"a piece is an id below {NUM_PIECES} or a name such as 'wS1', not {piece!r}")


def _as_dest(dest):
    """A cell from an axial (q, r) pair or a cell."""
    if isinstance(dest, tuple):
        return _as_place(dest)
    if _is_int(dest) and 0 <= dest < NUM_CELLS:
        return int(dest)
    raise TypeError(f"a destination is an axial (q, r) pair of ints (or a cell below {NUM_CELLS}), not {dest!r}")


def _as_name(name):
    if not isinstance(name, str):
        raise TypeError(f"a piece is named by a string such as 'wS1', not {type(name).__name__}")
    return name.strip()


def _as_piece(name):
    """A piece id from its name ('wS1', any case; either name of a Venom tile)."""
    return parse_piece(_as_name(name))

PASS = Move(PASS_MOVE)


def _bug_kind(piece):
    """(colour, bug) of a piece: what Swarm's entries name (SW-1, SW-3, SW-4)."""
    return PIECE_COLOR[piece], PIECE_BUG[piece]


def _kind_name(piece):
    """A colour and bug in words: 'black Spider'."""
    return f"{COLOR_NAMES[PIECE_COLOR[piece]].lower()} {BUGS[PIECE_BUG[piece]].name}"

# Why a placement is refused, by the bug's placement rule (bugs.py PLACE_*).
_PLACEMENT_RULES = {
    PLACE_BESIDE_OWN: "You can't place that piece there.",
    PLACE_BESIDE_BOTH: "A Flea is placed next to pieces of both colours and not next to the other Queen Bee.",
    PLACE_ON_TOP: "A Moth or a Butterfly is placed on top of a piece of your colour with no enemy piece next to it.",
    PLACE_AWAY_FROM_QUEENS: "You can't place that piece there: an S004 Wasp or Firefly is never placed next to a Queen.",
    PLACE_QUEEN_AWAY: "You can't place that piece there: a Queen is never placed next to an S004 Wasp or Firefly.",
}

# MzingaEngine's reason for a destination that is taken; uhp.md's example session
# gives it for `play wQ` on the occupied origin too (Board._reference_hint adds why).
_OCCUPIED = "You can't move there because a piece already exists at that position."

# Why a game ended: by the rules, or adjudicated by the caller (Board.outcome's max_plies).
QUEEN_SURROUNDED = "Queen surrounded"
QUEEN_REMOVED = "Queen removed"  # by a Killer beetle or a Mantis (Predators, PR-1)
BOTH_QUEENS_SURROUNDED = "both Queens surrounded"
REPETITION = "repetition"
PLY_LIMIT = "ply limit"


class _OutcomeFields(NamedTuple):
    winner: Optional[bool]
    termination: str


class Outcome(_OutcomeFields):
    """How a game ended: the winner (WHITE or BLACK, python-chess's True and
    False; None for a draw) and the termination (QUEEN_SURROUNDED, ...; a caller
    may adjudicate with its own). A winner given as an old colour, 0 or 1, is
    read as one (side_index), with a DeprecationWarning."""

    __slots__ = ()

    def __new__(cls, winner, termination):
        return super().__new__(cls, None if winner is None else side_color(side_index(winner)), termination)

    def result(self):
        """The result as a score text: '1-0', '0-1' or '1/2-1/2'."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == WHITE else "0-1"


class _MethodOrValue:
    """What `board.is_game_over` and `board.result` give, so that python-chess's
    calls, `is_game_over()` and `result()`, work while the properties they were
    still do: called, it gives its value; used as a value (truth, ==, int,
    hash, an index), it acts as the old property's value with a
    DeprecationWarning. A plain method there would make `if board.is_game_over:`
    silently true."""

    __slots__ = ("_name", "_value", "_old")

    def __init__(self, name, value, old):
        self._name, self._value, self._old = name, value, old

    def __call__(self):
        return self._value

    def __repr__(self):
        return f"<Board.{self._name}(), a method: {self._value!r} when called>"

    def _deprecated(self):
        warn_deprecated(f"board.{self._name} without the call is deprecated: it is a method, "
                        f"board.{self._name}(), as python-chess's")
        return self._old

    def __bool__(self):
        return bool(self._deprecated())

    def __eq__(self, other):
        return self._deprecated() == other

    def __ne__(self, other):
        return self._deprecated() != other

    def __hash__(self):
        return hash(self._deprecated())

    def __int__(self):
        return int(self._deprecated())

    def __index__(self):
        return operator.index(self._deprecated())


# The scalars of the state that make a position: the key, the side to move and
# ply, the result, the last-moved piece, the game type and the rules options.
_IDENTITY_INFO = (INFO_KEY, INFO_PLY, INFO_RESULT, INFO_LAST_MOVED, INFO_EXPANSIONS, INFO_FLAGS)


class Board:
    """A game of Hive: position, history and rules options.

    queen_first allows a Queen on a side's first turn (hivegame.com's games);
    repetition_draw ends the game drawn when a position occurs a third time."""

    def __init__(self, game_type="Base", *, queen_first=False, repetition_draw=False):
        if isinstance(game_type, str):
            expansions = parse_game_type(game_type)
        elif _is_int(game_type):
            expansions = int(game_type)  # the expansion bits, as Board.expansions gives them
        else:
            raise TypeError(f"a game type is a GameTypeString such as 'Base+MLP', not {type(game_type).__name__}")
        flags = (FLAG_QUEEN_FIRST_ALLOWED if queen_first else 0) | (FLAG_REPETITION_DRAW if repetition_draw else 0)
        self._adopt(new_state(expansions, flags))
        self._move_strings = []
        self._buffer = np.empty(MAX_MOVES, dtype=np.int32)

    def _adopt(self, state):
        """Hold `state`, with views of the fields read from Python: reading a field
        of a numpy record costs microseconds, a view's element a tenth of that."""
        self._state = state
        self._info, self._undo = state.info, state.undo
        self._height, self._stack = state.height, state.stack
        self._piece_cell, self._piece_level = state.piece_cell, state.piece_level
        self._face = state.face

    # --- Construction -----------------------------------------------------------
    @classmethod
    def from_game_string(cls, text, *, queen_first=False, repetition_draw=False):
        """Load a GameString by replaying its moves with full legality checks.

        The state and turn fields are recomputed, not trusted. A bad move raises
        NotationError or IllegalMoveError naming the move."""
        if not isinstance(text, str):
            raise TypeError(f"a GameString is a string, not {type(text).__name__}")
        fields = parse_game_string(text)
        board = cls(fields.expansions, queen_first=queen_first, repetition_draw=repetition_draw)
        for number, move_string in enumerate(fields.moves, start=1):
            try:
                board.push_uhp(move_string)
            except (NotationError, IllegalMoveError) as error:
                raise type(error)(f"Move {number} '{move_string}': {error}") from None
        return board

    @classmethod
    def from_stacks(cls, game_type, stacks, *, to_move=WHITE, turn=5, last=(), frozen=None, placed=None,
                    obliged=None, stings_used=(), prison=(), honeycomb=None):
        """A position built directly, not played (fan-rules.md §1.1: its examples
        are positions): `stacks` maps axial (q, r) to piece names bottom first,
        `to_move` and `turn` give the TurnString, `last` the pieces the previous
        ply acted on (a mover; or a Dragonfly and its cargo), `frozen` the one
        it froze and `placed` the one it placed (the first of `last`), `obliged`
        an S004 Wasp's obligation (the stung piece, the Wasp) and `stings_used`
        the colours (WHITE, BLACK) whose Queen has stung (WX-5), `prison` the
        pieces in the prison of the other colour's S004 Mantis (§9.5), `honeycomb`
        the colour whose next turn is double, the Honeycomb light side up (§10;
        the Honeycomb lies on (0, 0) and may be named at the bottom of its stack).
        Every other piece of the game type is in hand. The board has no moves to take back, and its
        GameString cannot be replayed.

        >>> board = Board.from_stacks("Base+E", {(0, 0): ["wQ"], (1, 0): ["bQ", "wB1"]})
        >>> board.game_string()
        'Base+E;InProgress;White[5]'
        >>> piece_name(board.top_piece(cell_of(1, 0)))
        'wB1'
        """
        board = cls(game_type)
        state = board._state
        for (q, r), names in stacks.items():
            for level, name in enumerate(names):
                piece, face = parse_face_piece(name, backs=board.has_venom)
                if piece == HONEYCOMB_ID and state.piece_cell[piece] == cell_of(q, r) and level == 0:
                    continue  # HC-1: it is there from the start
                if (q, r) == (0, 0) and level == 0 and state.piece_cell[HONEYCOMB_ID] >= 0:
                    raise ValueError(f"the Honeycomb lies on (0, 0) from the start: {name} cannot be under it")
                if state.piece_cell[piece] >= 0:
                    raise ValueError(f"{name} is on the board twice")
                if not board.has_bug(PIECE_BUG[piece]):
                    raise ValueError(f"{name} is not a piece of {board.game_type}")
                state.face[piece] = face
                put_piece(state, piece, cell_of(q, r))
        side = side_index(to_move)
        if turn < 1:
            raise ValueError(f"no TurnString has turn {turn}")
        info = state.info
        info[INFO_PLY] = info[INFO_REVERSIBLE_FROM] = info[INFO_TURNS] = 2 * (turn - 1) + side
        names = list(last) + [None] * (2 - len(last))
        info[INFO_LAST_MOVED], info[INFO_LAST_CARRIED] = (-1 if n is None else parse_piece(n) for n in names)
        info[INFO_FROZEN] = -1 if frozen is None else parse_piece(frozen)
        info[INFO_PLACED] = -1 if placed is None else parse_piece(placed)
        if obliged is not None:
            info[INFO_OBLIGED], info[INFO_OBLIGER] = (parse_piece(n) for n in obliged)
        info[INFO_STINGS_USED] = sum(1 << side_index(color) for color in stings_used)
        if honeycomb is not None:
            if state.piece_cell[HONEYCOMB_ID] < 0:
                raise ValueError(f"{board.game_type} has no Honeycomb")
            info[INFO_HONEYCOMB] = side_index(honeycomb)
        for name in prison:
            piece = parse_piece(name)
            state.away[piece] = AWAY_PRISON + _MANTIS_ID[1 - PIECE_COLOR[piece]]
        info[INFO_RESULT] = queens_result(state)
        info[INFO_KEY] = compute_key(state)
        return board

    def copy(self):
        board = Board.__new__(Board)
        board._adopt(copy_state(self._state))
        board._move_strings = list(self._move_strings)
        board._buffer = np.empty(MAX_MOVES, dtype=np.int32)
        return board

    def __repr__(self):
        return f"Board.from_game_string({self.game_string()!r})"

    def __str__(self):
        """A text diagram of the position, for terminals (diagram.text_diagram)."""
        return text_diagram(self)

    def _repr_svg_(self):
        """The position as an SVG picture, for notebooks (svg.board_svg)."""
        from .io.svg import board_svg  # here, not at the top: the engine's start-up does not wait for xml.sax

        return board_svg(self)

    def __eq__(self, other):
        """Two boards are equal when they hold the same position: see __hash__."""
        if not isinstance(other, Board):
            return NotImplemented
        return bool(
            all(self._info[field] == other._info[field] for field in _IDENTITY_INFO)
            and (self._piece_cell == other._piece_cell).all()
            and (self._piece_level == other._piece_level).all()
            and (self._face == other._face).all()
        )

    def __hash__(self):
        """Boards hash and compare by position, not by history (as python-chess's do).

        The position is the Zobrist key (every piece's bug, colour, cell and level,
        the side to move, and the cell of the piece moved last, which the Pillbug
        rule reads) plus what the key leaves out and legality or identity needs:
        the game type and rules options, the ply (the Queen must be placed by
        each side's fourth turn), the result (a game drawn by repetition has no
        moves left), and which copy of a bug stands where (the key does not tell
        wA1 from wA2, but moves name them). Two move orders that reach one
        position give equal boards. The history, and so how often a position
        has occurred, is not compared. A Board is mutable: one kept in a set or
        as a dictionary key must not be pushed or popped; use `copy()`, or the
        `key` when a transposition is all that matters."""
        return hash(tuple(int(self._info[field]) for field in _IDENTITY_INFO))

    # --- Options -----------------------------------------------------------------
    def _flag(self, flag):
        return bool(self._info[INFO_FLAGS] & flag)

    def _set_flag(self, flag, value):
        if value:
            self._info[INFO_FLAGS] |= flag
        else:
            self._info[INFO_FLAGS] &= ~flag

    @property
    def queen_first(self):
        return self._flag(FLAG_QUEEN_FIRST_ALLOWED)

    @queen_first.setter
    def queen_first(self, value):
        self._set_flag(FLAG_QUEEN_FIRST_ALLOWED, value)

    @property
    def repetition_draw(self):
        return self._flag(FLAG_REPETITION_DRAW)

    @repetition_draw.setter
    def repetition_draw(self, value):
        self._set_flag(FLAG_REPETITION_DRAW, value)

    # --- Position ----------------------------------------------------------------
    @property
    def state(self):
        """The kernels' State arrays (read them, do not write them)."""
        return self._state

    @property
    def expansions(self):
        return int(self._info[INFO_EXPANSIONS])

    def has_bug(self, bug):
        """Whether the game type has the bug (an index of engine.rules.bugs.BUGS)."""
        return bool(_bug_enabled(self._state, bug))

    @property
    def has_venom(self):
        """Whether the official tiles have two faces (fan-rules.md §6.0)."""
        return bool(self.expansions & VENOM)

    @property
    def game_type(self):
        return format_game_type(self.expansions)

    @property
    def ply(self):
        return int(self._info[INFO_PLY])

    @property
    def side_to_move(self):
        """The side to move as an index, 0 (White) or 1 (Black), as the kernels'
        arrays and engine.rl's players count sides; `turn` is its colour."""
        return int(self._info[INFO_TURNS]) & 1

    @property
    def turn(self):
        """The colour to move, WHITE (True) or BLACK (False), as python-chess's `turn`."""
        return self.side_to_move == 0

    @property
    def double_turn(self):
        """HoneyCombo (fan-rules.md §10): the colour whose turn (now, or next) is
        a double turn while the Honeycomb is light side up, else None."""
        owner = int(self._info[INFO_HONEYCOMB])
        return None if owner < 0 else side_color(owner)

    @property
    def second_action_due(self):
        """Whether the side to move is between the two actions of its double turn
        (HC-4): the TurnString stays until the second is played."""
        return int(self._info[INFO_PHASE]) == PHASE_SECOND

    @property
    def turn_number(self):
        """The side to move's turn, counting from 1 (the n of White[n]; TU-2)."""
        return int(turn_number_of(self._state, self.side_to_move))

    @property
    def _result_code(self):
        """IN_PROGRESS, WHITE_WINS, BLACK_WINS or DRAW (constants.py)."""
        return int(self._info[INFO_RESULT])

    @property
    def result(self):
        """`result()`, as python-chess's: '1-0', '0-1', '1/2-1/2', or '*' while the
        game goes on. Read without the call (the property it was), it is the
        result code of constants.py (IN_PROGRESS, WHITE_WINS, ...), with a
        DeprecationWarning."""
        outcome = self.outcome()
        return _MethodOrValue("result", "*" if outcome is None else outcome.result(), self._result_code)

    @property
    def is_game_over(self):
        """`is_game_over()`, as python-chess's: whether the rules have ended the
        game. Read without the call (the property it was), it still tells, with a
        DeprecationWarning; `if board.is_game_over:` is never silently true."""
        over = self._result_code != IN_PROGRESS
        return _MethodOrValue("is_game_over", over, over)

    def outcome(self, max_plies=None):
        """The Outcome of a finished game, None while it goes on. With
        `max_plies`, a game the rules have not ended by then is adjudicated
        drawn (PLY_LIMIT)."""
        result = self._result_code
        if result in (WHITE_WINS, BLACK_WINS):
            winner = WHITE if result == WHITE_WINS else BLACK
            removed = self.is_removed(QUEEN_ID[1 - side_index(winner)])
            return Outcome(winner, QUEEN_REMOVED if removed else QUEEN_SURROUNDED)
        if result == DRAW:
            both = queens_result(self._state) == DRAW
            return Outcome(None, BOTH_QUEENS_SURROUNDED if both else REPETITION)
        if max_plies is not None and self.ply >= max_plies:
            return Outcome(None, PLY_LIMIT)
        return None

    @property
    def key(self):
        """64-bit Zobrist key of the position."""
        return int(self._info[INFO_KEY])

    def computed_key(self):
        """The Zobrist key computed from scratch, for checking the incremental one."""
        return int(compute_key(self._state))

    @property
    def last_moved(self):
        """Piece moved or placed on the previous ply, -1 if none."""
        return int(self._info[INFO_LAST_MOVED])

    @property
    def move_stack(self):
        """The Moves played, first to last: python-chess's name for move_history."""
        return self.move_history

    @property
    def move_history(self):
        """The Moves played, first to last, each with its MoveString (a board
        built by from_stacks starts with none)."""
        undo = self._undo
        first = self.ply - len(self._move_strings)
        return [Move._named(int(undo[first + p, 0]), text) for p, text in enumerate(self._move_strings)]

    def peek(self):
        """The last Move played; IndexError before the first."""
        if not self._move_strings:
            raise IndexError("peek at a board with no moves")
        return Move._named(int(self._undo[self.ply - 1, 0]), self._move_strings[-1])

    # --- Pieces by name --------------------------------------------------------------
    def hand(self, color):
        """The names of the pieces `color` (WHITE or BLACK) has not placed, of
        the bugs this game type has, in the table's order: ['wQ', 'wS1', ...]."""
        return [piece_name(piece) for piece in hand(self, side_index(color))]

    def name(self, piece):
        """The name of `piece` (an id) by the face it shows: 'wB1', or with
        Venom 'wF1' for tile B1 Firefly side up (fan-rules.md §4.1)."""
        return piece_name(piece, int(self._face[_as_piece_id(piece)]))

    def stacks(self):
        """{(q, r): ('wB1', ...)} of every occupied place, each stack bottom first."""
        return {place: tuple(self.name(piece) for piece in pile) for place, pile in stacks(self).items()}

    def piece_at(self, place):
        """The name of the piece on top at axial (q, r), None if the place is empty."""
        piece = self.top_piece(_as_place(place))
        return None if piece < 0 else self.name(piece)

    def stack_at(self, place):
        """The names of the pieces at axial (q, r), bottom first; () if empty."""
        cell = _as_place(place)
        return tuple(self.name(piece) for piece in self._stack[cell, : self._height[cell]].tolist())

    def locate(self, name):
        """Axial (q, r) of the piece named `name` ('wS1'), None while in hand."""
        piece = _as_piece(name)
        if not self.has_bug(PIECE_BUG[piece]):
            raise ValueError(f"{piece_name(piece)} is not a piece of {self.game_type}")
        cell = self.piece_cell(piece)
        return None if cell < 0 else axial(cell)

    def piece_cell(self, piece):
        return int(self._piece_cell[piece])

    def in_hand(self, piece, color):
        """Whether `piece` (an id) is in the hand of `color` (WHITE or BLACK): off the board, its own colour's, or in Swarm the other colour's
        piece it drew or stole (§11)."""
        return self.has_bug(PIECE_BUG[piece]) and bool(in_hand_of(self._state, piece, side_index(color)))

    def in_bag(self, piece):
        """Whether `piece` (an id) is in Swarm's bag (§11): not drawn yet, nor chosen."""
        return bool(self._state.away[piece] == AWAY_BAG)

    def is_removed(self, piece):
        """Whether `piece` (an id) is out of the game, taken by a Predator (fan-rules.md §7)."""
        return bool(self._state.away[piece] == AWAY_REMOVED)

    def jailer(self, piece):
        """The S004 Mantis in whose prison `piece` (an id) is (§9.5), -1 if none."""
        away = int(self._state.away[piece])
        return away - AWAY_PRISON if away >= AWAY_PRISON else -1

    @property
    def has_flips(self):
        """Whether a turn may flip a tile: plain Venom, not its variants (fan-rules.md §2.2)."""
        return bool(flips_allowed(self._state))

    def shows_back(self, piece):
        """Whether `piece` (an id) is a Venom tile back side up, as tile B1 is the
        Firefly wF1 (fan-rules.md §6.0)."""
        return bool(self._face[_as_piece_id(piece)])

    def face_bug(self, piece):
        """The bug (an index of the table of bugs) of the face `piece` (an id) shows:
        the Firefly's for tile B1 back side up (fan-rules.md VN-1)."""
        return int(face_bug(self._state, _as_piece_id(piece)))

    @property
    def frozen(self):
        """The piece that may not move, be moved or act on this turn (stung or
        thrown on the previous one: `Frozen`, fan-rules.md §3.2), -1 if none."""
        return int(self._info[INFO_FROZEN])

    @property
    def obliged(self):
        """(the piece, the S004 Wasp that stung it): on this turn it must move
        away from the Wasp if it can (`Oblig`, fan-rules.md WX-3, WX-4); None."""
        piece = int(self._info[INFO_OBLIGED])
        return None if piece < 0 else (piece, int(self._info[INFO_OBLIGER]))

    def has_stung(self, color):
        """Whether `color`'s Queen has used her sting (WX-5): she never moves by
        herself again."""
        return bool(int(self._info[INFO_STINGS_USED]) >> side_index(color) & 1)

    def is_locked(self, piece):
        """Whether an enemy Scorpion next to `piece` (an id) keeps its tile from
        flipping (fan-rules.md R-2): in play, uncovered, not a Stink bug."""
        return self._locking_scorpion(_as_piece_id(piece)) >= 0

    def _locking_scorpion(self, piece):
        """The Scorpion that locks `piece` (is_locked), -1 if none."""
        state = self._state
        cell = int(state.piece_cell[piece])
        if cell < 0 or BUG_BACKS[PIECE_BUG[piece]] < 0 or is_covered(state, piece):
            return -1
        return int(locking_scorpion(state, piece, cell))

    def top_piece(self, cell):
        return int(top_piece(self._state, cell))

    def pieces_in_play(self):
        """(piece, cell, level) of every piece on the board, by piece id; level 0
        is the ground."""
        cells, levels = self._piece_cell.tolist(), self._piece_level.tolist()
        return [(piece, cells[piece], levels[piece]) for piece in range(NUM_PIECES) if cells[piece] >= 0]

    def queen_neighbours(self, color):
        """How many cells next to `color`'s Queen are filled; None while it is in hand."""
        cell = self.piece_cell(QUEEN_ID[side_index(color)])
        if cell < 0:
            return None
        return int(filled_neighbours(self._state.around, cell))

    def placement_cells(self, color):
        """The cells where `color` may place a piece now (its turn or not)."""
        cells = np.empty(NUM_CELLS, dtype=np.int64)
        count = _placement_cells(self._state, side_index(color), cells)
        return [int(cell) for cell in cells[:count]]

    def game_string(self):
        plies = self.ply
        head = f"{self.game_type};{format_game_state(plies, self._result_code)};{format_turn(int(turns_past_setup(self._state)))}"
        return ";".join([head] + self._move_strings)

    # --- Moves -------------------------------------------------------------------
    @property
    def legal_moves(self):
        """Every legal move (empty once the game is over; [PASS] when forced).

        Each Move prints as its MoveString, named when first printed from a
        snapshot of the stacks taken here (so a list kept while the board moves
        on still prints right)."""
        n = generate_moves(self._state, self._buffer)
        position = (self.side_to_move, self._height.copy(), self._stack.copy(), self._piece_cell.copy(), self._face.copy())
        moves = [Move(m) for m in self._buffer[:n].tolist()]
        for move in moves:
            move._position = position
        return moves

    def is_legal(self, move):
        """Whether `move` (a Move) is legal here."""
        move = _as_move(move, "is_legal")
        n = generate_moves(self._state, self._buffer)
        return move in self._buffer[:n].tolist()

    def push(self, move, move_string=None):
        """Play a legal move and return it (with its MoveString); raise
        IllegalMoveError with the reason otherwise. A MoveString is played by
        push_uhp; `move_string` is the text to record for it (default: uhp)."""
        move = _as_move(move, "push")
        if not self.is_legal(move):
            raise IllegalMoveError(self._illegal_reason(move, False))
        if move_string is None:
            move_string = self.uhp(move)
        if self.ply >= MAX_GAME_PLIES:
            raise IllegalMoveError(f"A game may last at most {MAX_GAME_PLIES} plies.")
        make_move(self._state, move)
        self._move_strings.append(move_string)
        return Move._named(move, move_string)

    def pop(self):
        """Take back the last move and return it; IndexError before the first."""
        if not self._move_strings:
            raise IndexError("pop from a board with no moves")
        move = self.peek()
        unmake_move(self._state)
        self._move_strings.pop()
        return move

    def push_uhp(self, text):
        """Parse and play a MoveString; the GameString keeps it in canonical case."""
        move = self.parse_uhp(text)
        return self.push(move, str(move))

    # --- Notation ------------------------------------------------------------------
    def uhp(self, move):
        """MoveString of a legal move, with MzingaEngine's choice of reference."""
        return _move_string(self.side_to_move, self._height, self._stack, self._piece_cell, self._face, _as_move(move, "uhp"))

    def parse_uhp(self, text):
        """The legal Move a MoveString names, resolved against this position.

        Raises NotationError for a malformed string and IllegalMoveError, with the
        reason, for a move the rules forbid."""
        if not isinstance(text, str):
            raise TypeError(f"parse_uhp() takes a MoveString such as 'wS1 -wA1', not {type(text).__name__}")
        parsed = parse_move_text(text, fan=bool(self.expansions & FAN_BITS), backs=self.has_venom)
        if self.is_game_over():
            raise IllegalMoveError(
                "You can't pass, the game is over." if parsed.is_pass else "You can't play, the game is over."
            )
        if parsed.is_pass:
            if self.is_legal(PASS):
                return PASS
            raise IllegalMoveError("You can't pass when you have valid moves.")
        if self.expansions & SWARM or parsed.form in SWARM_FORMS:
            swarm_entry = self._parse_swarm(parsed)
            if swarm_entry is not None:
                return swarm_entry
        side = self.side_to_move
        if parsed.controller >= 0 and parsed.controller not in (_TICK_ID[side], _FIREFLY_ID[side]):
            raise IllegalMoveError(f"{self.name(parsed.controller)} controls nothing: only the side to move's "
                                   "Tick or S004 Firefly makes a piece of the other side act (@).")
        commanded = parsed.controller == _FIREFLY_ID[side]
        if commanded and parsed.form != FORM_REFERENCE:
            raise IllegalMoveError(f"{self.name(parsed.controller)} makes an enemy piece move, nothing else (FX-2).")
        if parsed.form != FORM_REFERENCE:
            return self._parse_named(parsed)
        dest, blocked = self._resolve(parsed)
        in_play = self._piece_cell[parsed.piece] >= 0
        move = Move.move(parsed.piece, dest) if in_play else Move.place(parsed.piece, dest, parsed.face)
        controlled = parsed.controller >= 0 and parsed.thrower < 0 and not commanded
        if controlled:  # the piece's own movement, played by the Tick
            move = Move(_encode_full(KIND_CONTROL, parsed.piece, _dest_of(move), parsed.controller, 0))
        # Printed by the faces the pieces show (either name of a tile in play is read).
        shown = parsed._replace(face=int(self._face[parsed.piece]) if in_play else parsed.face)
        # The legal move that brings that piece to that cell, whatever its kind
        # (a throw, a Dragonfly's carry): the one with that identity.
        legal = None if blocked else self._legal_of_slot(move_slot(move))
        if parsed.thrower >= 0 and (legal is None or legal not in self._throws_by(parsed.thrower, parsed.controller)):
            raise IllegalMoveError(f"{self.name(parsed.thrower)} can't throw {self.name(parsed.piece)} there.")
        if commanded:  # named as it is printed: without `@` when a throw makes it too (NO-5)
            made = [m for m in self._actions_by(parsed.piece, parsed.controller) if _dest_of(m) == dest]
            legal = None if blocked or not made else self._legal_of_slot(move_slot(made[0]))
            if legal is None:
                raise IllegalMoveError(f"{self.name(parsed.controller)} can't make {self.name(parsed.piece)} "
                                       "move there.")
            return Move._named(legal, self.uhp(legal))
        if legal is not None:
            return Move._named(legal, format_move_text(shown, self._face))
        if controlled:
            raise IllegalMoveError(f"{self.name(parsed.controller)} can't make {self.name(parsed.piece)} "
                                   "move there.")
        reason = self._illegal_reason(move, blocked)
        if parsed.reference < 0 and reason == _OCCUPIED:
            reason += self._reference_hint(parsed.piece)
        raise IllegalMoveError(reason)

    def _reference_hint(self, piece):
        """What a player who wrote `piece`'s name alone after the first move
        (uhp.md's `play wQ`) needs to hear: later moves name a reference piece,
        with a move of that piece as the example when it has one."""
        example = next((str(m) for m in self.legal_moves if m.piece == piece), None)
        return (" Only the first piece is played by its name alone; after it a MoveString names a reference piece"
                + (f", as '{example}'." if example else "."))

    def _parse_swarm(self, parsed):
        """parse_uhp in a Swarm game (§11), or of a Swarm entry anywhere: during
        the setup only `choose`, while a draw is due only `draw`, else any entry.
        `choose`, `draw` and `steal` name colours and bugs: the lowest copies are
        the ones that go (`draw bS2` draws bS1 while it is in the bag)."""
        state = self._state
        if not self.expansions & SWARM:
            raise IllegalMoveError(f"There is no {parsed.form} in {self.game_type}: it is an entry of Swarm (§11).")
        setup = int(state.info[INFO_TURNS]) < SWARM_SETUP
        color = COLOR_NAMES[self.side_to_move]
        if setup and parsed.form != FORM_CHOOSE:
            raise IllegalMoveError(f"Swarm begins with the choice of hands: {color} plays `choose` and three of its "
                                "pieces besides the Queen, as 'choose wS1 wB1 wA1'.")
        if self.draw_due and parsed.form != FORM_DRAW:
            raise IllegalMoveError("A draw is due after the placement: the next entry is `draw` and a piece in the bag "
                                f"({', '.join(self.bag_kinds())}).")
        if parsed.form not in SWARM_FORMS:
            return None  # an ordinary entry, for parse_uhp
        named = parsed.chosen if parsed.form == FORM_CHOOSE else (parsed.piece,)
        wanted = sorted(_bug_kind(piece) for piece in named)
        for legal in self.legal_moves:
            text = _text_of(legal)
            if text.form == parsed.form and sorted(map(_bug_kind, text.chosen or (text.piece,))) == wanted:
                return Move._named(legal, self.uhp(legal))
        raise IllegalMoveError(self._swarm_refusal(parsed, named, setup))

    def _swarm_refusal(self, parsed, named, setup):
        """Why a Swarm entry that names `named` is not legal now (SW-1, SW-3, SW-4)."""
        side = self.side_to_move
        color = COLOR_NAMES[side]
        if parsed.form == FORM_CHOOSE:
            if not setup:
                return "The hands were chosen at the start: `choose` comes only before the first placement."
            if any(PIECE_COLOR[piece] != side for piece in named):
                return f"{color} chooses three pieces of its own colour."
            if any(BUG_FLAGS[PIECE_BUG[piece]] & ROYAL for piece in named):
                return "The Queen is always in hand: `choose` names three other pieces."
            for piece in named:
                bug = PIECE_BUG[piece]
                if not self.has_bug(bug):
                    return f"{piece_name(piece)} is not a piece of {self.game_type}."
                if sum(PIECE_BUG[other] == bug for other in named) > BUG_COPIES[bug]:
                    return f"{self.game_type} has {BUG_COPIES[bug]} {BUGS[bug].name} tiles a colour."
        if parsed.form == FORM_DRAW:
            if not self.draw_due:
                return "No draw is due: a draw follows a placement while the bag holds pieces."
            return f"The bag holds no {_kind_name(named[0])}; it holds {', '.join(self.bag_kinds())}."
        if BUG_FLAGS[PIECE_BUG[named[0]]] & ROYAL:
            return "Queens are never stolen."
        if not pieces_may_move(self._state, side):
            return "You can't steal until you've played your Queen Bee."
        return f"Your opponent's hand holds no {_kind_name(named[0])}."

    @property
    def draw_due(self):
        """Swarm (§11): whether the next entry is a `draw` (after a placement
        while the bag holds pieces, SW-3); the side to move is the placer."""
        return bool(self._info[INFO_DRAW_DUE])

    def bag(self):
        """Swarm's bag: the names of the pieces in it, in piece order (SW-1)."""
        return [piece_name(piece) for piece in range(COLOURED_PIECES) if self.in_bag(piece)]

    def bag_kinds(self):
        """The colours and bugs in Swarm's bag, each once with its count, as
        'bS1 x2' names two Spiders' lowest copy: the outcomes of a draw."""
        counts = {}
        for piece in range(COLOURED_PIECES):
            if self.in_bag(piece):
                counts.setdefault(_bug_kind(piece), [piece, 0])[1] += 1
        return [piece_name(piece) + (f" x{count}" if count > 1 else "") for piece, count in counts.values()]

    def _parse_named(self, parsed):
        """parse_uhp for a form that names only pieces: the legal move of one of
        its kinds whose fields print the same; or, for a sting, the move of its
        victim when the named stinger (or the Tick's) may sting it too (one move
        whoever stings, ID-1; every equivalent string is read, NO-5)."""
        side = self.side_to_move
        wanted = parsed._replace(face=0)
        kinds = KINDS_OF_FORM[parsed.form]
        # An S004 Mantis taking its own Mosquito is the Mosquito's copy taking it (ID-1).
        pair = PIECE_BUG[parsed.piece] == BUG_OF_LETTER["Nx"] and parsed.target >= 0 \
            and PIECE_BUG[parsed.target] == BUG_OF_LETTER["M"]
        alike = (wanted, wanted._replace(piece=parsed.target, target=parsed.piece)) if pair else (wanted,)
        for legal in self.legal_moves:
            if _kind_of(legal) in kinds and _text_of(legal, side) in alike:
                return Move._named(legal, self.uhp(legal))
        if KIND_STING in kinds:
            for sting in self._actions_by(parsed.piece, parsed.controller):
                if _kind_of(sting) == KIND_STING and _piece_of(sting) == parsed.target:
                    legal = self._legal_of_slot(move_slot(sting))
                    if legal is not None:
                        return Move._named(legal, self.uhp(legal))
        if parsed.piece == HONEYCOMB_ID:
            raise IllegalMoveError(self._honeycomb_refusal())
        if PIECE_COLOR[parsed.piece] != side and parsed.controller < 0:
            raise IllegalMoveError(f"{self.name(parsed.piece)} is not yours: only your Tick makes it act "
                                   f"(@{self.name(_TICK_ID[side])}).")
        if parsed.form == FORM_FLIP:
            raise IllegalMoveError(self._flip_refusal(parsed.piece))
        raise IllegalMoveError(f"{format_move_text(parsed, self._face)} is not a legal move here.")

    def _honeycomb_refusal(self):
        """Why the side to move may not play `nH ~` now (HC-4); the Honeycomb is
        never the target of anything else (IM-2)."""
        state = self._state
        if not state.info[INFO_EXPANSIONS] & EXPANSION_BIT["HoneyCombo"]:
            return f"There is no Honeycomb in {self.game_type}."
        if state.info[INFO_HONEYCOMB] == self.side_to_move:
            return "The Honeycomb is light side up for this double turn of yours: it turns dark again after it."
        if state.info[INFO_HONEYCOMB] >= 0:
            owner = COLOR_NAMES[int(state.info[INFO_HONEYCOMB])]
            return f"The Honeycomb is light side up: {owner}'s next turn is a double turn, and it cannot flip again yet."
        if state.height[ORIGIN] > 1:
            return "The Honeycomb is covered and cannot flip."
        if not pieces_may_move(state, self.side_to_move):
            return "You can't flip the Honeycomb until you've played your Queen Bee."
        if state.info[INFO_OBLIGED] >= 0:
            return f"{self.name(int(state.info[INFO_OBLIGED]))} must move away from the Wasp that stung it."
        return "The Honeycomb never moves and no piece acts on it; its one move is nH ~ (a flip)."

    def _flip_refusal(self, piece):
        """Why the side to move's `piece` may not flip now (VN-3), read off the
        generator's own queries (movegen.may_flip and the loop that calls it)."""
        state, name = self._state, self.name(piece)
        cell = int(state.piece_cell[piece])
        if not flips_allowed(state):
            return f"There are no flip turns in {self.game_type}: each tile keeps the face it was placed with."
        if BUG_BACKS[PIECE_BUG[piece]] < 0:
            return f"{name} has no back to flip to."
        if cell < 0:
            return f"{name} is not in play: a tile in hand chooses its face when it is placed."
        if not pieces_may_move(state, self.side_to_move):
            return "You can't flip a tile until you've played your Queen Bee."
        if is_covered(state, piece):
            return f"{name} is covered and cannot flip."
        if is_frozen(state, piece) or in_last(state, piece):
            return f"{name} was acted on by the last turn and cannot flip on this one."
        s004_moth = state.info[INFO_EXPANSIONS] & EXPANSION_BIT["Vx"]
        if state.piece_level[piece] > 0 and PIECE_BUG[piece] == BUG_OF_LETTER["M"] and s004_moth:
            return f"{name} is on top of the hive, where a Mosquito may not end a turn with the S004 Moth in play."
        if state.piece_level[piece] > 0:
            return f"{name} is on top of the hive, where only a Beetle or Mosquito tile may flip."
        scorpion = self._locking_scorpion(piece)
        if scorpion >= 0:
            where = axial(int(state.piece_cell[scorpion]))
            return f"The Scorpion {self.name(scorpion)} at {where} locks {name}: it cannot flip."
        return f"{name} ~ is not a legal move here."

    def _legal_of_slot(self, slot):
        """The legal move of identity `slot` (moves.move_slot), or None."""
        n = generate_moves(self._state, self._buffer)
        found = find_slot(self._buffer, n, slot)
        return Move(int(self._buffer[found])) if found >= 0 else None

    def _actions_by(self, actor, controller=-1):
        """The moves `actor` makes now, by the side to move's Tick `controller`
        if not -1 (movegen.actions_by)."""
        count = actions_by(self._state, actor, controller, self._buffer)
        return {Move(int(m)) for m in self._buffer[:count]}

    def _throws_by(self, thrower, controller=-1):
        """The moves the throw of `thrower` makes now: its actions that move
        another piece to a cell."""
        return {m for m in self._actions_by(thrower, controller)
                if _piece_of(m) != thrower and _kind_of(m) in (KIND_MOVE, KIND_THROW)}

    def _resolve(self, parsed):
        """Destination cell of a parsed move, and whether the notation names an
        occupied spot (a ground cell that holds a piece, or the top of a piece
        that is covered)."""
        state = self._state
        if parsed.reference < 0:
            # A piece alone names the origin, also after the first move: uhp.md's
            # example session answers `play wQ` on an occupied origin with the
            # usual "a piece already exists at that position" (to which
            # parse_uhp adds that a reference piece is wanted).
            return ORIGIN, bool(state.height[ORIGIN] > 0)
        ref_cell = int(state.piece_cell[parsed.reference])
        if ref_cell < 0:
            raise IllegalMoveError(f"The reference piece {piece_name(parsed.reference)} is not in play.")
        if parsed.direction is None:
            covered = state.piece_level[parsed.reference] != state.height[ref_cell] - 1
            return ref_cell, bool(covered)
        dest = int(neighbor(ref_cell, parsed.direction))
        return dest, bool(state.height[dest] > 0)

    def _placeable_pieces(self):
        """The pieces the side to move may place now, as the generator offers them."""
        out = np.empty(2 * NUM_BUGS, dtype=np.int64)  # in Swarm both colours'
        count = placeable_pieces(self._state, self.side_to_move, out)
        return [int(piece) for piece in out[:count]]

    def _illegal_reason(self, move, blocked):
        """Why `move` is illegal, in MzingaEngine's words and order.

        Each reason is read off the rules' queries that the generator itself asks
        (movegen.py), never re-checked here: whether the bug is enabled, which
        pieces may be placed now (placeable_pieces, which holds the Queen rules of
        turns 1 and 4 and the order of copies), whether pieces may move yet, and
        whether the piece is covered, pinned or moved last."""
        if move.is_pass:
            if self.is_game_over():
                return "You can't pass, the game is over."
            return "You can't pass when you have valid moves."
        if self.is_game_over():
            return "You can't play, the game is over."
        state = self._state
        obliged = int(state.info[INFO_OBLIGED])
        if obliged >= 0 and all(m.piece == obliged and _kind_of(m) == KIND_MOVE for m in self.legal_moves):
            wasp = self.name(int(state.info[INFO_OBLIGER]))
            return (f"The S004 Wasp {wasp} stung {self.name(obliged)}: this turn it must move away from the Wasp, "
                    "neither onto it nor next to it.")
        piece = move.piece
        side = self.side_to_move
        bug = PIECE_BUG[piece]
        in_play = state.piece_cell[piece] >= 0
        if PIECE_COLOR[piece] != side and not (not in_play and self.in_hand(piece, side_color(side))):
            return "It's not that player's turn."
        if not self.has_bug(bug):
            return "That piece is not enabled in this game."
        if self.is_removed(piece):
            return f"{piece_name(piece)} was removed from the game."
        if self.jailer(piece) >= 0:
            return (f"{piece_name(piece)} is in the prison of {piece_name(self.jailer(piece))} until that Mantis is "
                    "placed again.")
        placeable = self._placeable_pieces()
        queen = QUEEN_ID[side]
        # A Queen in hand that may not be placed: only the first turn forbids it.
        if not in_play and piece == queen and queen not in placeable:
            return "You can't play your Queen Bee on your first turn."
        if not pieces_may_move(state, side):
            # The Queen alone may be placed: its deadline, the fourth turn, has come.
            if placeable == [queen] and piece != queen:
                return "You must play your Queen Bee on or before your fourth turn."
            if in_play:
                return "You can't move a piece in play until you've played your Queen Bee."
        # Another copy of the bug is the one to place: copies go in order.
        if not in_play and piece not in placeable and any(PIECE_BUG[p] == bug for p in placeable):
            return "When there are multiple pieces of the same bug type, you must play the pieces in order."
        if blocked:
            return _OCCUPIED
        if not in_play and not (placement_faces(state, piece) >> move.face) & 1:
            if self.has_venom and bug == PIECE_BUG[queen]:
                return "The Queen tile is placed Queen side up."
            return f"In {self.game_type} {piece_name(piece)} is placed showing {piece_name(piece, 1 - move.face)}."
        if not in_play:
            return _PLACEMENT_RULES[placement_rule(state, piece)]
        if is_covered(state, piece):
            return "You can't move that piece because it has another piece on top of it."
        if state.piece_level[piece] == 0 and is_pinned(state, state.piece_cell[piece]):
            return "You can't move that piece because it will break the hive."
        if is_frozen(state, piece):
            if self.expansions & FAN_BITS:
                return "You can't move that piece because the opponent threw it last turn."
            return "You can't move that piece because the opponent's pillbug moved it last turn."
        return "You can't move that piece there."

    # --- Perft ---------------------------------------------------------------------
    def perft(self, depth, threads=1, stop=None):
        """Leaf count of the legal-move tree `depth` plies deep; None if `stop`
        (a perft.StopFlag) was set before the count was complete."""
        if not _is_int(depth):
            raise TypeError(f"perft() takes a depth in plies (an int), not {type(depth).__name__}")
        if depth < 0:
            raise ValueError(f"perft() takes a depth of 0 or more, not {depth}")
        if self.ply + depth >= MAX_PLIES:
            raise ValueError(f"perft({depth}) would pass the {MAX_PLIES} plies a state holds.")
        return perft(self._state, depth, threads, stop)

