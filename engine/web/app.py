"""The web server's routes (Starlette): the page, a JSON API over the games, and
a WebSocket per game for what changes while the page waits (a search's progress).

    GET  /                              the page (static/index.html)
    GET  /api/info                      the engine's id, the game types, the search bounds
    POST /api/games          {"game": "Base+MLP" or a GameString}       a new game (201)
    GET  /api/games/ID?flipped=1&ply=N  the game's state (games.Game.state)
    POST /api/games/ID/play  {"move": "wS1 -bQ"}                        play a MoveString
    POST /api/games/ID/undo  {"count": 1}                               take back plies
    POST /api/games/ID/load  {"game": ...}                              a new game in its place
    POST /api/games/ID/search {"depth": 3} | {"seconds": 1.5} | {}, "play": true|false
                                        start the engine's search (202); its move is
                                        played unless "play" is false (an analysis)
    POST /api/games/ID/stop                                             stop the search
    WS   /api/games/ID/events           {"type": "changed" | "progress" | "searched", ...}

Every request is checked: what the game refuses comes back as a 4xx with
{"error": reason}, the game unchanged; nothing answers with a traceback.
"""

import asyncio
import contextlib
import json
import logging
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import MAX_LINE_CHARS, info_lines
from .games import MAX_SEARCH_DEPTH, MAX_SEARCH_SECONDS, GameError, Games, fan_game_type_list, game_type_list

log = logging.getLogger("hexbee")

STATIC = Path(__file__).parent / "static"
MAX_BODY_BYTES = 4 * MAX_LINE_CHARS  # a GameString of the longest line, as JSON with escapes


def _error(status, message):
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request, fields):
    """The request's JSON object, with only the known `fields` (a dict of name
    to the Python types allowed); 400, 413 or 415 with the reason otherwise.

    Every POST must say it is JSON: a page of another site can send a form or
    text/plain to this server without asking, but not application/json (the
    browser asks first, and this server never says yes)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise GameError("The request must be JSON (Content-Type: application/json).", 415)
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY_BYTES:
            raise GameError(f"The request is too large: at most {MAX_BODY_BYTES} bytes.", 413)
    if not raw.strip():
        return {}
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise GameError("The request's body is not JSON.") from None
    if not isinstance(body, dict):
        raise GameError("The request's body must be a JSON object.")
    for name, value in body.items():
        if name not in fields:
            raise GameError(f"Unknown field '{str(name)[:40]}'; expected {', '.join(fields) or 'none'}.")
        if value is not None and not isinstance(value, fields[name]):
            raise GameError(f"The field '{name}' has the wrong type.")
    return body


def _flag(request, name):
    value = request.query_params.get(name, "0").lower()
    if value not in ("0", "1", "true", "false", ""):
        raise GameError(f"The parameter '{name}' must be 0 or 1.")
    return value in ("1", "true")


def _ply(request):
    text = request.query_params.get("ply")
    if text is None or text == "":
        return None
    if not text.isdigit() or len(text) > 6:
        raise GameError("The parameter 'ply' must be a whole number.")
    return int(text)


def create_app(games=None):
    """The ASGI application; `games` (a games.Games) holds its games."""
    games = games if games is not None else Games()

    async def page(request):
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def info(request):
        return JSONResponse({
            "id": info_lines()[0],
            "capabilities": info_lines()[1],
            "game_types": game_type_list(),
            "fan_game_types": fan_game_type_list(),
            "max_search_seconds": MAX_SEARCH_SECONDS,
            "max_search_depth": MAX_SEARCH_DEPTH,
        })

    async def new_game(request):
        body = await _body(request, {"game": str, "bag_seed": int})
        game = await run_in_threadpool(games.new, body.get("game") or "Base", body.get("bag_seed"))
        state = await run_in_threadpool(game.state, _flag(request, "flipped"))
        return JSONResponse(state, status_code=201)

    async def show(request):
        game = games.get(request.path_params["game_id"])
        state = await run_in_threadpool(game.state, _flag(request, "flipped"), _ply(request))
        return JSONResponse(state)

    async def act(request, action, fields, run):
        game = games.get(request.path_params["game_id"])
        body = await _body(request, fields)
        flipped = _flag(request, "flipped")
        await run_in_threadpool(run, game, body)
        return await run_in_threadpool(game.state, flipped)

    async def play(request):
        def run(game, body):
            if "move" not in body or body["move"] is None:
                raise GameError("Give the move to play: {\"move\": \"wS1\"}.")
            game.play(body["move"])
        return JSONResponse(await act(request, "play", {"move": str}, run))

    async def undo(request):
        return JSONResponse(await act(request, "undo", {"count": int},
                                      lambda game, body: game.undo(body.get("count", 1))))

    async def load(request):
        def run(game, body):
            if not body.get("game"):
                raise GameError("Give a game type or a GameString: {\"game\": \"Base+MLP\"}.")
            game.load(body["game"])
        return JSONResponse(await act(request, "load", {"game": str}, run))

    async def search(request):
        def run(game, body):
            game.start_search(body.get("depth"), body.get("seconds"), body.get("play", True) is not False)
        state = await act(request, "search", {"depth": int, "seconds": (int, float), "play": bool}, run)
        return JSONResponse(state, status_code=202)

    async def stop(request):
        game = games.get(request.path_params["game_id"])
        await _body(request, {})
        stopped = await run_in_threadpool(game.stop, True)
        state = await run_in_threadpool(game.state, _flag(request, "flipped"))
        return JSONResponse({**state, "stopped": stopped})

    async def events(websocket: WebSocket):
        """The game's changes, pushed: the page refetches its state on each."""
        origin = websocket.headers.get("origin")
        if origin is not None and origin.split("://", 1)[-1] != websocket.headers.get("host"):
            # Browsers let any site open a WebSocket to this server: only its own page may.
            await websocket.close(code=4403, reason="Only this server's page may follow its games.")
            return
        try:
            game = games.get(websocket.path_params["game_id"])
        except GameError as error:
            await websocket.close(code=4404, reason=str(error)[:120])
            return
        await websocket.accept()
        loop = asyncio.get_running_loop()
        queue = asyncio.Queue()

        def listener(event):  # called from the game's threads
            loop.call_soon_threadsafe(queue.put_nowait, event)

        game.listeners.add(listener)
        receiver = asyncio.ensure_future(_drain(websocket))
        try:
            while True:
                getter = asyncio.ensure_future(queue.get())
                done, _ = await asyncio.wait({getter, receiver}, return_when=asyncio.FIRST_COMPLETED)
                if receiver in done:
                    getter.cancel()
                    break
                await websocket.send_json(getter.result())
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            game.listeners.discard(listener)
            receiver.cancel()
            if not game.listeners and game.search is not None and game.search.mode == "analyse":
                await run_in_threadpool(game.stop, True)  # no page is left to show the analysis

    async def game_error(request, error):
        return _error(error.status, str(error))

    async def http_error(request, error):
        reasons = {404: "No such page or API route.", 405: "That method is not allowed here."}
        return _error(error.status_code, reasons.get(error.status_code, str(error.detail)))

    async def server_error(request, error):
        log.exception("request %s %s failed", request.method, request.url.path, exc_info=error)
        return _error(500, f"The server failed: {type(error).__name__}. The details are on its console.")

    routes = [
        Route("/", page),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/api/info", info),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{game_id}", show, methods=["GET"]),
        Route("/api/games/{game_id}/play", play, methods=["POST"]),
        Route("/api/games/{game_id}/undo", undo, methods=["POST"]),
        Route("/api/games/{game_id}/load", load, methods=["POST"]),
        Route("/api/games/{game_id}/search", search, methods=["POST"]),
        Route("/api/games/{game_id}/stop", stop, methods=["POST"]),
        WebSocketRoute("/api/games/{game_id}/events", events),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={GameError: game_error, HTTPException: http_error, Exception: server_error},
        lifespan=_lifespan(games),
    )
    app.state.games = games
    return app


def _lifespan(games):
    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        await run_in_threadpool(games.close)  # the server is going away: stop every search
    return lifespan


async def _drain(websocket):
    """Read (and ignore) what the page sends, until it goes away."""
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
    except (WebSocketDisconnect, RuntimeError):
        return
