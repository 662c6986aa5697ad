"""Play one game between two engine processes, judged by the runner's own Board.

Both engines load the opening with `newgame <GameString>`; then the side to move
is asked for `bestmove`, its answer is checked against the runner's Board, and
the move (as the Board writes it) is sent to both engines with `play`. The
engines' own idea of the rules is never trusted: an engine that answers an
illegal move loses, and one that refuses a legal move loses too. In Swarm the
runner is the bag (fan-rules.md SW-3): after a placement it draws a piece at
random, seeded by the game's opening, and sends `play draw <piece>` to both.
"""

import random
from typing import NamedTuple

from engine.rules.errors import IllegalMoveError, NotationError
from engine.game import BOTH_QUEENS_SURROUNDED, REPETITION, Board, Outcome, side_color, side_index

from .timecontrol import DEFAULT_HANG_SECONDS, GameClock
from .uhp_client import EngineError, EngineExited, EngineRefused, EngineTimeout

WHITE_WON, BLACK_WON, DRAWN = "1-0", "0-1", "1/2-1/2"  # Outcome.result()
COLOURS = ("white", "black")

# Terminations: by the rules or by adjudication (Board.outcome), or a forfeit by one engine.
TIME_FORFEIT = "time forfeit"
HANG = "hang"
CRASH = "crash"
GARBAGE = "garbage"
ILLEGAL_MOVE = "illegal move"
ENGINE_ERROR = "engine error"
FORFEITS = (TIME_FORFEIT, HANG, CRASH, GARBAGE, ILLEGAL_MOVE, ENGINE_ERROR)


class GameSettings(NamedTuple):
    max_plies: int = 400  # a draw is adjudicated when the game reaches this many plies
    margin: float = 0.5  # seconds an engine may overrun its time before it loses
    command_timeout: float = 10.0  # for `newgame` and `play`
    hang_seconds: float = DEFAULT_HANG_SECONDS  # for `bestmove depth N`
    bag_seed: int = 0  # Swarm's draws: with the opening, the seed of a game's bag


class GameOutcome(NamedTuple):
    result: str  # WHITE_WON, BLACK_WON or DRAWN
    termination: str  # one of the terminations above
    reason: str  # a sentence with the details
    game_string: str  # the moves played (a forfeited move is not among them)
    seconds: tuple  # (white, black) thinking time


class Forfeit(Exception):
    def __init__(self, side, termination, detail):
        super().__init__(detail)
        self.side, self.termination, self.detail = side, termination, detail


def play_game(engines, names, controls, opening, settings=None, on_ply=None):
    """Play `opening` (a GameString) on to the end between engines (white, black),
    EngineProcess objects named `names`, under TimeControls `controls`. An
    engine that is not running is started first; one that forfeits is killed
    (its state is not to be trusted) and so restarted for its next game.
    `on_ply(plies)`, if given, is told the game's length after each move."""
    settings = settings or GameSettings()
    board = Board.from_game_string(opening, repetition_draw=True)
    clocks = [GameClock(control, settings.margin, settings.hang_seconds) for control in controls]
    bag = random.Random(f"{settings.bag_seed}/{opening}")
    try:
        for side in (0, 1):
            _ensure_started(engines[side], side)
        load = f"newgame {board.game_string() if board.ply else board.game_type}"
        for side in (0, 1):
            _send(engines[side], side, load, settings.command_timeout)
        while board.outcome(settings.max_plies) is None:
            side = board.side_to_move
            if board.draw_due:  # any piece of the bag alike: a bug's chance is its copies there
                move = board.parse_uhp(f"draw {bag.choice(board.bag())}")
            else:
                move = _ask_move(engines[side], side, clocks[side], board)
            move_string = board.uhp(move)
            board.push(move, move_string)
            if on_ply is not None:
                on_ply(board.ply)
            if not board.is_game_over():
                for other in (side, 1 - side):
                    _send(engines[other], other, f"play {move_string}", settings.command_timeout)
    except Forfeit as forfeit:
        engines[forfeit.side].kill()
        return GameOutcome(
            Outcome(side_color(1 - forfeit.side), forfeit.termination).result(),
            forfeit.termination,
            f"{names[forfeit.side]} ({COLOURS[forfeit.side]}) {forfeit.detail}",
            board.game_string(),
            _seconds(clocks),
        )
    return GameOutcome(*_judge(board, settings.max_plies, names), board.game_string(), _seconds(clocks))


def _seconds(clocks):
    return tuple(round(clock.used, 3) for clock in clocks)


def _judge(board, max_plies, names):
    """(result, termination, reason) of a game that the rules or the ply limit ended."""
    outcome = board.outcome(max_plies)
    if outcome.winner is not None:
        loser = 1 - side_index(outcome.winner)
        reason = f"{names[loser]} ({COLOURS[loser]}) has its Queen surrounded"
    elif outcome.termination == BOTH_QUEENS_SURROUNDED:
        reason = "both Queens surrounded by one move"
    elif outcome.termination == REPETITION:
        reason = "the same position occurred a third time"
    else:
        reason = f"adjudicated a draw after {board.ply} plies"
    return outcome.result(), outcome.termination, reason


def _ensure_started(engine, side):
    """(Re)start an engine that is not running: new, crashed or killed."""
    if engine.alive:
        return
    try:
        engine.start()
    except EngineTimeout as error:
        raise Forfeit(side, HANG, f"did not start: {error}") from None
    except EngineError as error:
        raise Forfeit(side, CRASH, f"did not start: {error}") from None


def _send(engine, side, command, timeout):
    """A command whose answer only has to be a success."""
    try:
        engine.command(command, timeout)
    except EngineRefused as error:
        raise Forfeit(side, ENGINE_ERROR, str(error)) from None
    except EngineTimeout as error:
        raise Forfeit(side, HANG, str(error)) from None
    except EngineExited as error:
        raise Forfeit(side, CRASH, f"{error} (on '{command}')") from None


def _ask_move(engine, side, clock, board):
    """The side to move's `bestmove` answer as a legal Move of `board`."""
    command, wait = clock.request()
    try:
        answer = engine.request(command, wait)
    except EngineTimeout as error:
        if clock.control.kind == "depth":
            raise Forfeit(side, HANG, str(error)) from None
        left = f" ({clock.remaining:.2f} s left on its clock)" if clock.remaining is not None else ""
        raise Forfeit(side, TIME_FORFEIT, f"{error}{left}") from None
    except EngineExited as error:
        raise Forfeit(side, CRASH, f"{error} (on '{command}')") from None
    overrun = clock.charge(answer.seconds)
    if overrun:
        raise Forfeit(side, TIME_FORFEIT, overrun)
    if not answer.lines:
        raise Forfeit(side, GARBAGE, f"answered no move to '{command}'")
    text = answer.lines[-1]  # intermediate lines may come first (uhp.md, "Result lines")
    if text.startswith(("err", "invalidmove")):
        raise Forfeit(side, ENGINE_ERROR, f"answered '{text}' to '{command}'")
    try:
        return board.parse_uhp(text)
    except NotationError:
        raise Forfeit(side, GARBAGE, f"answered '{text}' to '{command}'") from None
    except IllegalMoveError as error:
        raise Forfeit(side, ILLEGAL_MOVE, f"played '{text}': {error}") from None
