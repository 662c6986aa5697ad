"""The games the web server keeps: each one a UHP Session (engine/protocol/uhp.py).

Every change to a game is a UHP command handed to its own Session, exactly as
the UHP loop hands it a line from stdin (`newgame`, `play`, `undo`,
`bestmove`), so that the rules, their error messages and the search are the
engine's own; the page's legal actions are the Session's `validmoves`, each
resolved to its piece and cells by the same Board. A command the Session
answers with `err` or `invalidmove` raises GameError with that reason, and the
Session has left the game as it was.

Swarm's draws (fan-rules.md §11) are the bag's, never a player's: after a
placement the game draws for the placer from a bag of its own, seeded (a seed
given replays the same draws), and an undo that leaves a draw due takes back
the placement as well.

One command runs at a time per game. A search runs in a thread of its own; its
progress (the lines `ReportIntermediateBestMoves` makes the Session print) goes
to the game's listeners as it comes. While the engine thinks about the move it
will play, other commands are refused (busy); an analysis (a search that plays
nothing) is stopped by any command that changes the game.

>>> game = Game("Base")
>>> game.play("wS1")['game_string']
'Base;InProgress;Black[1];wS1'
>>> [action['move'] for action in game.state()['actions']][:3]
['bS1 \\\\wS1', 'bS1 wS1/', 'bS1 wS1-']
>>> game.play("wQ")
Traceback (most recent call last):
...
engine.web.games.GameError: It's not that player's turn.
"""

import logging
import random
import secrets
import threading
import time
from collections import OrderedDict
from typing import NamedTuple, Optional

from .. import MAX_LINE_CHARS
from ..colors import side_index
from ..rules.bugs import PIECE_NAMES, fan_game_types, game_types
from ..io.diagram import COLOR_NAMES, double_turn_text
from ..rules.hexgrid import axial
from ..search.search import MATE, MATE_BOUND
from ..io.svg import board_svg, pv_arrows
from ..protocol.uhp import Session

log = logging.getLogger("hexbee")

# The bounds of a search the page may ask for: the machine is shared by every tab.
MAX_SEARCH_SECONDS = 600.0
MAX_SEARCH_DEPTH = 30
# How long a command waits for an analysis it stops to end.
STOP_WAIT_SECONDS = 5.0
BUSY = "The engine is thinking about its move in this game; wait for it or press Stop."


# The engine's line is drawn for its first plies only (all of it is written out
# beside the board): a reader follows two to four moves, and a longer line's
# arrows and numbers pile up on one another.
PV_ARROWS = 4
# Rings of cells around the hive the picture always holds, so that the board
# keeps its size, and its click targets their places, while arrows come and go.
BOARD_FRAME = 2

class GameError(ValueError):
    """A request the game refuses, with the reason for the page; `status` is
    the HTTP status the server answers it with (400: a bad request, 409: the
    game is busy, 404: no such game)."""

    def __init__(self, message, status=400):
        super().__init__(message)
        self.status = status


class _Output:
    """The Session's output stream: the answer's lines, kept for the command
    that asked, and each line also handed to `on_line` (a search's progress
    comes from its worker thread while the command runs)."""

    def __init__(self):
        self.lines = []
        self.on_line = None
        self._partial = ""

    def write(self, text):
        self._partial += text
        *whole, self._partial = self._partial.split("\n")
        for line in whole:
            self.lines.append(line)
            if self.on_line is not None:
                self.on_line(line)

    def flush(self):
        pass


class Search(NamedTuple):
    """The last search of a game: what it was asked, what it has found so far."""

    mode: str  # "play" (its move is played) or "analyse"
    running: bool
    root: str  # the GameString of the position it searches
    ply: int  # ... and its ply
    depth: Optional[int] = None
    score: Optional[int] = None  # for the side to move in that position
    pv: tuple = ()  # MoveStrings, from that position
    move: Optional[str] = None  # its answer, once it has one
    white_to_move: bool = True  # in that position (not the ply's parity in a double turn, TU-2)


def score_text(score, white_to_move):
    """A search score as the page shows it: from White's side and divided by
    100 ('+0.35'), or who wins in how many plies when the search has seen it.

    >>> score_text(120, True), score_text(120, False), score_text(MATE - 3, False)
    ('+1.20', '-1.20', 'Black wins in 3 plies')
    """
    if score is None:
        return ""
    if abs(score) > MATE_BOUND:
        winner = ("White", "Black")[(score > 0) != white_to_move]
        plies = MATE - abs(score)
        return f"{winner} wins in {plies} pl{'y' if plies == 1 else 'ies'}"
    white = score if white_to_move else -score
    return f"{white / 100:+.2f}"


def _one_line(text, what):
    """A request's text as one UHP argument: one line, not too long, not empty."""
    if not isinstance(text, str):
        raise GameError(f"The {what} must be a string.")
    text = text.strip()
    if not text:
        raise GameError(f"The {what} is empty.")
    if len(text) > MAX_LINE_CHARS - 16:
        raise GameError(f"The {what} is too long: at most {MAX_LINE_CHARS - 16} characters.")
    if any(not c.isprintable() for c in text):
        raise GameError(f"The {what} must be one line of printable text.")
    return text


class Game:
    """One game of the server: a Session, one command at a time, one search at
    a time, and the listeners (the page's WebSockets) told of every change."""

    def __init__(self, text="Base", bag_seed=None):
        self.id = secrets.token_urlsafe(9)
        if bag_seed is not None and (isinstance(bag_seed, bool) or not isinstance(bag_seed, int)):
            raise GameError("The bag's seed must be a whole number.")
        self.bag_seed = secrets.randbits(32) if bag_seed is None else bag_seed
        self._bag = random.Random(self.bag_seed)  # Swarm's draws
        self._out = _Output()
        self.session = Session(self._out)
        self._command("options set ReportIntermediateBestMoves True")
        self._command("options set FanBugs True")  # our own page: the fan game types too
        self._lock = threading.Lock()  # held by the command or search in hand
        self._search_lock = threading.Lock()  # guards `search` and the Session's interrupt
        self._board_lock = threading.Lock()  # held while a command changes the Board, and while it is read
        self._actions = (None, [], [])  # (GameString, actions, their destination cells), kept by _refresh
        self._searching = False  # a bestmove command is in the Session
        self._search_done = threading.Event()
        self._search_done.set()
        self.search = None
        self.version = 0  # counts the changes of the game and of its search (guarded by _search_lock)
        self.listeners = set()  # callables taking an event dict; called from any thread
        self.last_used = time.monotonic()
        self.load(text)

    # --- The Session ----------------------------------------------------------
    def _command(self, line):
        """The answer's lines before `ok`; GameError for `err` or `invalidmove`."""
        del self._out.lines[:]
        self.session.handle(line)
        lines = list(self._out.lines)
        if not lines or lines[-1] != "ok":
            raise GameError(f"The engine gave no answer to {line.split()[0]!r}.", 500)
        lines.pop()
        for answer in lines:
            for prefix in ("err ", "invalidmove "):
                if answer.startswith(prefix):
                    raise GameError(answer[len(prefix):])
        return lines

    def _mutate(self, line):
        """A command that changes the Board (the game's lock held): run it (and
        in Swarm the draw it leaves due) and read the new position's legal
        actions before anyone else reads it."""
        with self._board_lock:
            try:
                self._command(line)
                self._settle_draw()
            finally:
                if self.board is not None:
                    self._refresh()

    def _settle_draw(self):
        """Swarm (§11): a draw due (after a placement, or a GameString loaded
        with one due) is made at once from the game's bag, each piece in it alike
        (a bug by its copies: SW-3)."""
        board = self.board
        if board is not None and board.draw_due and not board.is_game_over():
            self._command(f"play draw {self._bag.choice(board.bag())}")

    def _refresh(self):
        """Read `validmoves` from the Session and resolve each MoveString on the Board."""
        board = self.board
        actions, cells = [], []
        if not board.is_game_over():
            for text in self._command("validmoves")[0].split(";"):
                move = board.parse_uhp(text)
                action = {"move": text, "kind": move.kind, "piece": None, "from": None, "to": None}
                if move.dest >= 0:  # else a button of its own: a pass, Swarm's entries
                    # Offered on the piece that acts: a sting on its stinger, not its victim.
                    actor = move.other if move.kind == "sting" else move.piece
                    source = board.piece_cell(actor)
                    action.update(piece=PIECE_NAMES[actor], to=_cell_text(move.dest),
                                  **{"from": _cell_text(source) if source >= 0 else None})
                    cells.append(move.dest)
                actions.append(action)
        self._actions = (board.game_string(), actions, cells)

    @property
    def board(self):
        """The Session's Board (read it, never change it: commands do)."""
        return self.session.board

    def _notify(self, event):
        for listener in list(self.listeners):
            try:
                listener(event)
            except Exception:  # a page gone away must not stop the game
                log.exception("a listener of game %s failed", self.id)

    def _changed(self):
        self._notify({"type": "changed", "game_string": self.board.game_string()})

    def _exclusive(self):
        """Take the game for a command that changes it: an analysis is stopped
        first; the engine thinking about its move makes the game busy."""
        with self._search_lock:
            playing = self._searching and self.search is not None and self.search.mode == "play"
        if playing:
            raise GameError(BUSY, 409)
        self.stop(wait=True)
        if not self._lock.acquire(timeout=STOP_WAIT_SECONDS):
            raise GameError(BUSY, 409)

    def _change(self, line):
        """Run a command that changes the game, and tell the listeners."""
        self._exclusive()
        try:
            self._mutate(line)
        except GameError:
            if self.search is not None and self.search.mode == "analyse":
                with self._search_lock:  # stopped for nothing: forgotten, so that the page starts it again
                    self.search = None
                    self.version += 1
            raise
        else:
            with self._search_lock:
                self.search = None  # its line was of another position
                self.version += 1
        finally:
            self._lock.release()
        self.last_used = time.monotonic()
        self._changed()
        return self.state()

    # --- Commands ---------------------------------------------------------------
    def load(self, text):
        """A new game of a game type, or a GameString loaded (`newgame`)."""
        return self._change(f"newgame {_one_line(text, 'game type or GameString')}")

    def play(self, move):
        """Play a MoveString (`play`); `pass` passes."""
        move = _one_line(move, "move")
        return self._change("pass" if move.lower() == "pass" else f"play {move}")

    def undo(self, count=1):
        """Take back `count` moves (`undo`); in Swarm a placement and the draw
        after it are one."""
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise GameError("The number of moves to undo must be a whole number of at least 1.")
        with self._board_lock:
            kinds = [move.kind for move in self.board.move_stack]
        plies = 0
        for _ in range(count):
            if len(kinds) <= plies:
                plies += 1  # more than were played: the Session's refusal says so
                continue
            plies += 2 if kinds[-1 - plies] == "draw" else 1
        return self._change(f"undo {plies}")

    def start_search(self, depth=None, seconds=None, play=True):
        """Start a search of the position in a thread of its own: to `depth`
        plies, for `seconds`, or (with neither) until stopped. With `play`,
        its move is then played; otherwise it is an analysis. Progress and the
        end go to the listeners; returns the state at the start."""
        line = self._bestmove_line(depth, seconds)
        if not self._lock.acquire(blocking=False):
            raise GameError("A search is already running in this game; press Stop first.", 409)
        try:
            board = self.board
            if board.is_game_over():
                raise GameError("The game is over. Start a new game or undo.")
            with self._search_lock:
                self.search = Search("play" if play else "analyse", True, board.game_string(), board.ply,
                                     white_to_move=board.side_to_move == 0)
                self.version += 1
                self._searching = True
                self._search_done.clear()
            worker = threading.Thread(target=self._search, args=(line, play), name="hexbee-web-search", daemon=True)
            worker.start()
        except BaseException:
            self._lock.release()
            raise
        self.last_used = time.monotonic()
        return self.state()

    @staticmethod
    def _bestmove_line(depth, seconds):
        if depth is not None and seconds is not None:
            raise GameError("Give a depth or a number of seconds, not both.")
        if depth is not None:
            if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_SEARCH_DEPTH:
                raise GameError(f"The depth must be a whole number from 1 to {MAX_SEARCH_DEPTH}.")
            return f"bestmove depth {depth}"
        if seconds is not None:
            if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) \
                    or not 0 < seconds <= MAX_SEARCH_SECONDS:
                raise GameError(f"The time must be a number of seconds above 0 and at most {MAX_SEARCH_SECONDS:g}.")
            return f"bestmove seconds {float(seconds):.3f}"
        return "bestmove"

    def _search(self, line, play):
        """The search thread: `bestmove` (holding the game's lock, which
        start_search took), then its move played when asked."""
        error = None
        try:
            self._out.on_line = self._on_progress
            try:
                answer = self._command(line)
            finally:
                self._out.on_line = None
                with self._search_lock:
                    self._searching = False
            move = answer[-1] if answer else None
            with self._search_lock:
                self.search = self.search._replace(running=False, move=move)
            if play and move is not None:
                self._mutate(f"play {move}")
        except GameError as failure:
            error = str(failure)
            with self._search_lock:
                self.search = self.search._replace(running=False)
        except Exception as failure:  # a bug: the page is told, the game goes on
            log.exception("the search of game %s failed", self.id)
            error = f"The search failed: {failure}"
            with self._search_lock:
                self.search = self.search._replace(running=False)
        finally:
            with self._search_lock:
                self.version += 1
            self._search_done.set()
            self._lock.release()
        self.last_used = time.monotonic()
        event = {"type": "searched", "move": self.search.move, "played": play and error is None}
        if error is not None:
            event["error"] = error
        self._notify(event)
        self._changed()

    def _on_progress(self, line):
        """A line the Session printed during bestmove: `move;depth;score;pv...`
        after each depth (the last line is the answer alone)."""
        fields = line.split(";")
        if len(fields) < 4 or not fields[1].isdigit():
            return
        try:
            depth, score = int(fields[1]), int(fields[2])
        except ValueError:
            return
        with self._search_lock:
            if self.search is None:
                return
            self.search = self.search._replace(depth=depth, score=score, pv=tuple(fields[3:]))
            self.version += 1
            search = self.search
        self._notify({"type": "progress", **self._search_json(search, search.root)})

    def stop(self, wait=False):
        """Stop the running search, which then answers (and plays, if it was
        to) its best move so far. Returns whether one was running."""
        was_running = False
        deadline = time.monotonic() + STOP_WAIT_SECONDS
        while True:
            with self._search_lock:
                if not self._searching:
                    break
                was_running = True
                # Between the Session's `bestmove` line and its `ok` (as SIGINT would be).
                self.session.interrupt()
            if not wait or self._search_done.wait(0.05) or time.monotonic() > deadline:
                break
        if wait:
            self._search_done.wait(max(0.0, deadline - time.monotonic()))
        return was_running

    # --- What the page shows ------------------------------------------------------
    def actions(self):
        """The legal actions: the Session's `validmoves`, each a dict of its
        MoveString, its kind, its piece, the cell it leaves (None from the hand)
        and the cell it goes to (None for one that goes nowhere, as a pass)."""
        with self._board_lock:
            return list(self._actions[1])

    def state(self, flipped=False, ply=None):
        """The game as the page shows it: the GameString, whose turn, the
        result, the moves, the legal actions, the search and the picture
        (with the destinations of every action marked, and the search's line
        as arrows); at an earlier `ply`, that position's picture, no actions."""
        with self._board_lock:
            board = self.board.copy()
            game_string, actions, cells = self._actions
        with self._search_lock:
            search, version = self.search, self.version
        if ply is not None and (isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= board.ply):
            raise GameError(f"The ply to show must be a whole number from 0 to {board.ply}.")
        viewing = ply if ply is not None and ply < board.ply else None
        fields = game_string.split(";")
        if viewing is not None or (search is not None and search.running and search.mode == "play"):
            actions, cells = [], []  # nothing to play: an earlier position, or the engine's turn
        shown = board
        if viewing is not None:
            for _ in range(board.ply - viewing):
                shown.pop()
        arrows = ()
        if viewing is None and search is not None and search.root == game_string and search.pv:
            try:
                arrows = pv_arrows(board, search.pv[:PV_ARROWS])
            except ValueError:  # not a line of this position: none drawn
                arrows = ()
        outcome = board.outcome()
        return {
            "id": self.id,
            "version": version,
            "game_string": game_string,
            "game_type": board.game_type,
            "state": fields[1],
            "turn": fields[2],
            "turn_number": board.turn_number,
            "ply": board.ply,
            "to_move": None if outcome is not None else COLOR_NAMES[board.side_to_move],
            "double_turn": None if outcome is not None else double_turn_text(board),  # HoneyCombo
            "bag": board.bag_kinds(),  # Swarm's, as 'bS1 x2'; empty in other game types
            "bag_seed": self.bag_seed,
            "result": None if outcome is None else _result_text(outcome),
            "moves": fields[3:],
            "viewing": viewing,
            "actions": actions,
            "search": None if search is None else self._search_json(search, game_string),
            "svg": board_svg(shown, flipped=bool(flipped), highlights=cells, arrows=arrows, frame=BOARD_FRAME),
        }

    @staticmethod
    def _search_json(search, game_string):
        white_to_move = search.white_to_move
        return {
            "mode": search.mode,
            "running": search.running,
            "ply": search.ply,
            "current": search.root == game_string,
            "depth": search.depth,
            "score": search.score,
            "score_text": score_text(search.score, white_to_move),
            "pv": list(search.pv),
            "move": search.move,
        }


def _cell_text(cell):
    q, r = axial(cell)
    return f"{q},{r}"


def _result_text(outcome):
    if outcome.winner is None:
        return f"Draw ({outcome.termination})"
    return f"{COLOR_NAMES[side_index(outcome.winner)]} wins ({outcome.termination})"


class Games:
    """The server's games by id, at most `capacity` of them: a new one pushes
    out the one unused the longest (that is not searching)."""

    def __init__(self, capacity=32):
        self.capacity = capacity
        self._games = OrderedDict()
        self._lock = threading.Lock()

    def new(self, text="Base", bag_seed=None):
        game = Game(text, bag_seed)
        with self._lock:
            while len(self._games) >= self.capacity:
                idle = [g for g in self._games.values() if not g._searching]
                if not idle:
                    raise GameError("Too many games are searching at once; stop one first.", 503)
                oldest = min(idle, key=lambda g: g.last_used)
                del self._games[oldest.id]
            self._games[game.id] = game
        return game

    def get(self, game_id):
        with self._lock:
            game = self._games.get(game_id)
        if game is None:
            raise GameError(f"No game '{game_id[:40]}' on this server (it may have ended with the server).", 404)
        return game

    def close(self):
        """Stop every search (the server is going away)."""
        with self._lock:
            games = list(self._games.values())
        for game in games:
            game.stop(wait=True)


def game_type_list():
    """The official game types a new game may be (the fan ones: fan_game_type_list)."""
    return list(game_types())


def fan_game_type_list():
    """The game types with fan pieces a new game may be, every one the table implements."""
    return list(fan_game_types())
