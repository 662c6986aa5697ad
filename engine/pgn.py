"""Game records: the PGN-like files of MzingaViewer and the match runner.

A file holds one game or several, each as tags, then one ply a line, then the
result; MzingaViewer writes and reads the same form (its GameRecording):

    [GameType "Base+MLP"]
    [Date "2026.12.02"]
    [Event "hexbee arena"]
    [Site ""]
    [Round "1"]
    [White "d2"]
    [Black "d1"]
    [Result "WhiteWins"]
    [Termination "Queen surrounded"]

    1. wS1
    2. bS1 wS1-
    ...
    {d1 (black) has its Queen surrounded}

    WhiteWins

The result is written as MzingaViewer's game state (WhiteWins, BlackWins, Draw;
InProgress or NotStarted for a game that has none) because the viewer reads
nothing else, and held in a Game as PGN's '1-0', '0-1', '1/2-1/2' or '*'.
Reading accepts both spellings, in the Result tag or on a line of its own (as
in `{a comment} 1-0`), a move number before each ply or none, and comments in
braces, also over several lines; a comment belongs to the ply before it (0:
before the first). Moves are MoveStrings, checked only when the game is
replayed (`Game.board`, `Game.positions`).

>>> game = Game.from_board(Board.from_game_string("Base;InProgress;White[2];wS1;bS1 wS1-"), White="me")
>>> print(game, end="")
[GameType "Base"]
[Date ""]
[Event ""]
[Site ""]
[Round ""]
[White "me"]
[Black ""]
[Result "InProgress"]
<BLANKLINE>
1. wS1
2. bS1 wS1-
>>> [board.turn_number for board in read_game(io.StringIO(str(game))).positions()]
[1, 1, 2]
"""

import io
import os
import re

from .rules.errors import NotationError
from .game import Board
from .rules.notation import format_game_type, normalize_move_string, parse_game_string, parse_game_type

__all__ = ["Game", "read_game", "read_games", "RESULTS"]

# PGN's results and MzingaViewer's game states for them, the first of each the written one.
RESULTS = {"1-0": ("WhiteWins",), "0-1": ("BlackWins",), "1/2-1/2": ("Draw",), "*": ("InProgress", "NotStarted")}
_RESULT_OF_TOKEN = {token.lower(): result for result, states in RESULTS.items() for token in (result, *states)}
# The tags MzingaViewer always writes, in its order (the Result tag among them).
ROSTER = ("GameType", "Date", "Event", "Site", "Round", "White", "Black", "Result")

_TAG_RE = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_LOOSE_TAG_RE = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"(.*)"\s*\]')  # MzingaViewer escapes nothing
_NUMBER_RE = re.compile(r"\d+\s*\.+\s*")


def _result(token):
    """The PGN result of a result token in either spelling, None if it is none."""
    return _RESULT_OF_TOKEN.get(token.strip().lower())


class Game:
    """A recorded game: tags (`headers`), MoveStrings (`moves`), the result, and
    comments by ply.

    headers keeps the tags in order, MzingaViewer's roster first (GameType,
    Date, Event, Site, Round, White, Black, Result; '' when not known), values
    as strings; headers['Result'] is '1-0', '0-1', '1/2-1/2' or '*' (`result`),
    headers['GameType'] the GameTypeString (`game_type`). Game.from_board
    records a Board; read_game reads a file."""

    def __init__(self, game_type="Base", moves=(), headers=None, result="*", comments=None):
        given = {name: str(value) for name, value in (headers or {}).items()}
        self.headers = dict.fromkeys(ROSTER, "")
        self.headers.update(given)
        self.headers["GameType"] = format_game_type(parse_game_type(game_type))
        self.result = given.get("Result", result)
        self.moves = [normalize_move_string(move) for move in moves]
        self.comments = dict(comments or {})

    @classmethod
    def from_board(cls, board, **headers):
        """The game `board` has played, its result from Board.result() ('*' while it
        goes on); keyword arguments are tags (White='hexbee', Round='3', ...)."""
        return cls(board.game_type, board.game_string().split(";")[3:], headers, board.result())

    @classmethod
    def from_game_string(cls, text, **headers):
        """The moves of a GameString (not replayed; its state and turn are not read)."""
        fields = parse_game_string(text)
        return cls(format_game_type(fields.expansions), fields.moves, headers)

    @property
    def game_type(self):
        return self.headers["GameType"]

    @property
    def result(self):
        """'1-0', '0-1', '1/2-1/2' or '*' (no result yet)."""
        return self.headers["Result"]

    @result.setter
    def result(self, value):
        result = _result(value) if isinstance(value, str) else None
        if result is None:
            raise ValueError(f"Unknown result {value!r}; expected one of {', '.join(_RESULT_OF_TOKEN)}.")
        self.headers["Result"] = result

    # --- Replaying ---------------------------------------------------------------
    def board(self, *, queen_first=False, repetition_draw=False):
        """The Board after the last move, every move replayed with full checks (a
        bad one raises NotationError or IllegalMoveError naming it). The rules
        options are Board's; a game from hivegame.com may need queen_first."""
        return Board.from_game_string(self._head() + "".join(";" + move for move in self.moves),
                                      queen_first=queen_first, repetition_draw=repetition_draw)

    def positions(self, *, queen_first=False, repetition_draw=False):
        """The position before each move and after the last: one Board, played
        on one move each step (copy() one to keep it)."""
        board = Board(self.game_type, queen_first=queen_first, repetition_draw=repetition_draw)
        yield board
        for number, move in enumerate(self.moves, start=1):
            try:
                board.push_uhp(move)
            except ValueError as error:
                raise type(error)(f"Move {number} '{move}': {error}") from None
            yield board

    def commented(self, ply, text):
        """This game with `text` as the comment after ply `ply` (0: before the
        first move); returns the game, so that calls chain."""
        self.comments[ply] = text
        return self

    def _head(self):
        return f"{self.game_type};NotStarted;White[1]"

    # --- Writing -----------------------------------------------------------------
    def __str__(self):
        """The game in MzingaViewer's form (see the module's docstring)."""
        tags = dict(self.headers)
        result = tags["Result"]
        tags["Result"] = RESULTS[result][0] if (self.moves or result != "*") else "NotStarted"
        lines = [f'[{name} "{_escape(value)}"]' for name, value in tags.items()]
        body = [] if 0 not in self.comments else [_comment(self.comments[0])]
        for ply, move in enumerate(self.moves, start=1):
            body.append(f"{ply}. {move}")
            if ply in self.comments:
                body.append(_comment(self.comments[ply]))
        if body:
            lines += [""] + body
        if result != "*":
            lines += ["", RESULTS[result][0]]
        return "\n".join(lines) + "\n"

    def __repr__(self):
        return f"<Game {self.game_type} {self.headers.get('White', '')!r} vs {self.headers.get('Black', '')!r}: " \
               f"{len(self.moves)} plies, {self.result}>"

    def __eq__(self, other):
        if not isinstance(other, Game):
            return NotImplemented
        return (self.headers, self.moves, self.comments) == (other.headers, other.moves, other.comments)


def _escape(value):
    return str(value).replace("\\", "\\\\").replace('"', '\\"')


def _comment(text):
    return "{" + str(text).replace("}", ")") + "}"


# --- Reading ---------------------------------------------------------------------
def read_game(source):
    """The next Game of a text stream, or the first of a file (a path); None at
    its end. Malformed lines raise NotationError with their number in the stream."""
    return next(read_games(source), None)


def read_games(source):
    """Every Game of a file (a path) or a text stream, in order."""
    if isinstance(source, (str, os.PathLike)):
        with open(source, encoding="utf-8") as handle:
            yield from _games(handle)
    elif isinstance(source, io.IOBase) or hasattr(source, "readline"):
        yield from _games(source)
    else:
        raise TypeError(f"read_games() takes a path or a text stream, not {type(source).__name__}")


def _games(handle):
    """Games of a stream, read one line at a time: a tag after a game's moves or
    result starts the next game."""
    headers, moves, comments, result = {}, [], {}, None
    open_comment = None  # the lines of a comment not closed yet
    started = False
    number = 0
    for number, raw in enumerate(iter(handle.readline, ""), start=1):
        line = raw.strip()
        if open_comment is not None:
            open_comment.append(line)
            if line.endswith("}"):
                comments[len(moves)] = "\n".join(open_comment)[1:-1].strip()
                open_comment = None
            continue
        if not line:
            continue
        if line.startswith("["):
            match = _TAG_RE.fullmatch(line)
            loose = _LOOSE_TAG_RE.fullmatch(line) if match is None else None
            if match is None and loose is None:
                raise NotationError(f"Line {number}: malformed tag {line[:80]!r}; expected [Name \"value\"].")
            if moves or result is not None:
                yield _game(headers, moves, comments, result, number)
                headers, moves, comments, result = {}, [], {}, None
            if match is not None:
                headers[match.group(1)] = re.sub(r"\\(.)", r"\1", match.group(2))
            else:
                headers[loose.group(1)] = loose.group(2)
            started = True
            continue
        started = True
        if line.startswith("{"):
            end = line.find("}")
            if end < 0:
                open_comment = [line]
                continue
            comments[len(moves)] = line[1:end].strip()
            line = line[end + 1:].strip()
            if not line:
                continue
        if _result(line) is not None:
            result = _result(line)
            continue
        move = _NUMBER_RE.sub("", line, count=1) if _NUMBER_RE.match(line) else line
        try:
            moves.append(normalize_move_string(move))
        except NotationError as error:
            raise NotationError(f"Line {number}: {error}") from None
    if open_comment is not None:
        raise NotationError(f"Line {number}: a comment opened with '{{' is never closed.")
    if started:
        yield _game(headers, moves, comments, result, number)


def _game(headers, moves, comments, result, number):
    tag = headers.pop("Result", None)
    final = result or (_result(tag) if tag is not None else None) or "*"
    if tag is not None and _result(tag) is None:
        raise NotationError(f"Line {number}: unknown result '{tag}'.")
    try:
        return Game(headers.pop("GameType", "Base"), moves, headers, final, comments)
    except NotationError as error:
        raise NotationError(f"Game ending at line {number}: {error}") from None
