"""The web server's API over HTTP (Starlette's TestClient, in-process): the
actions it offers are the Session's `validmoves`, the engine plays and reports
its progress, and every bad request gets a 4xx with its reason and leaves the
game as it was. The page itself is tested in a browser (test_web_browser.py);
`hexbee web` as a program at the end."""

import random
import re
import signal
import socket
import subprocess
import sys
import time
import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # Starlette's TestClient is moving to httpx2 and says so; httpx still serves
    warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from engine.rules.bugs import OFFICIAL_BUGS, PIECE_NAMES, PIECES, fan_game_types, game_types  # noqa: E402
from engine.io.diagram import hand  # noqa: E402
from engine.rules.kinds import KIND_NAMES  # noqa: E402
from engine.game import Board  # noqa: E402
from engine.web.app import MAX_BODY_BYTES, create_app  # noqa: E402
from engine.web.games import MAX_SEARCH_DEPTH, Games  # noqa: E402

from .conftest import MIDGAME, SessionDriver, read_nokamute_cases  # noqa: E402

PASS_GAME = next(gs for title, gs, _ in read_nokamute_cases() if title == "Pass")
WON_GAME = next(gs for title, gs, _ in read_nokamute_cases() if title == "White wins")
PINNED = "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-"


@pytest.fixture(scope="module")
def client(kernel_cache):
    with TestClient(create_app(Games(capacity=8))) as client:
        yield client


def new_game(client, game="Base+MLP"):
    response = client.post("/api/games", json={"game": game})
    assert response.status_code == 201, response.text
    return response.json()


def refused(response, status, reason):
    """The response is `status` with a JSON reason starting with `reason`."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    message = response.json()["error"]
    assert message.startswith(reason), message
    assert "Traceback" not in message
    return message


def game_string(client, game_id):
    return client.get(f"/api/games/{game_id}").json()["game_string"]


def test_a_new_game_and_its_state(client):
    state = new_game(client, "base+lm")
    assert state["game_string"] == "Base+ML;NotStarted;White[1]"
    assert (state["turn"], state["turn_number"], state["to_move"], state["result"]) == ("White[1]", 1, "White", None)
    assert state["moves"] == [] and state["viewing"] is None and state["search"] is None
    assert state["svg"].startswith("<svg") and 'class="highlight" data-cell="0,0"' in state["svg"]
    assert client.post("/api/games", json={}).json()["game_type"] == "Base"  # no game: Base
    info = client.get("/api/info").json()
    assert info["game_types"] == list(game_types())  # the eight official ones, apart
    assert info["fan_game_types"] == list(fan_game_types()) and "Base+MLP+Guardians+Dx+E+J" in info["fan_game_types"]
    assert info["id"].startswith("id hexbee")


def test_the_actions_are_exactly_validmoves(client):
    """Along a random game of every game type, the actions offered are the
    MoveStrings another Session answers to `validmoves`, in its order, each with
    the piece and cells the Board resolves it to."""
    for _ in _actions_along_random_games(client, client.get("/api/info").json()["game_types"], random.Random(14)):
        pass


def test_the_actions_are_exactly_validmoves_with_fan_pieces(client):
    """The same along random games of fan game types (every fan bug in the
    first, the Woodlouse's throws in the second), to the end or 30 plies."""
    for state in _actions_along_random_games(client, ["Base+MLP+Guardians+Dx+E+J", "Base+J"], random.Random(12),
                                             plies=30):
        # Its GameString loads into another game, the same position; the
        # picture names every piece, in play or in a hand, fan bugs with the rest.
        loaded = new_game(client, "Base")
        loaded = client.post(f"/api/games/{loaded['id']}/load", json={"game": state["game_string"]}).json()
        assert loaded["game_string"] == state["game_string"] and loaded["actions"] == state["actions"]
        board = Board.from_game_string(state["game_string"])
        drawn = set(re.findall(r'data-piece="(\w+)"', state["svg"]))
        in_hand = {name for names in re.findall(r'data-pieces="([\w ]+)"', state["svg"]) for name in names.split()}
        assert drawn == {PIECE_NAMES[piece] for piece, _, _ in board.pieces_in_play()}
        assert in_hand == {PIECE_NAMES[piece] for color in (0, 1) for piece in hand(board, color)}
        assert any(PIECES[PIECE_NAMES.index(name)][1] >= OFFICIAL_BUGS for name in drawn | in_hand)  # fan bugs


def _actions_along_random_games(client, types, rng, plies=12):
    for game_type in types:
        state = new_game(client, game_type)
        assert state["game_type"] == game_type
        engine = SessionDriver()
        engine.ask("options set FanBugs True")
        engine.ask(f"newgame {game_type}")
        for _ in range(plies):
            if state["result"] is not None:
                assert state["actions"] == []
                break
            expected = engine.ask("validmoves")[0].split(";")
            assert [action["move"] for action in state["actions"]] == expected
            board = Board.from_game_string(state["game_string"])
            for action in state["actions"]:
                move = board.parse_uhp(action["move"])
                if move.is_pass:
                    assert action["piece"] is None and action["to"] is None
                    continue
                assert action["piece"] == board.uhp(move).split()[0]
                assert action["to"] == "%d,%d" % __import__("engine.rules.hexgrid", fromlist=["axial"]).axial(move.dest)
                if action["kind"] in ("place", "move", "throw"):
                    own = PIECES[move.piece][0] == board.side_to_move
                    arrival = "move" if own else "throw"
                    assert action["kind"] == (arrival if board.piece_cell(move.piece) >= 0 else "place")
                else:  # a fan piece's kind: a Dragonfly's carry, ...
                    assert action["kind"] in KIND_NAMES and game_type not in game_types()
            move = rng.choice(state["actions"])["move"]
            state = client.post(f"/api/games/{state['id']}/play", json={"move": move}).json()
            engine.ask(f"play {move}")
            assert state["game_string"] == engine.game_string
        yield state


def test_a_forced_pass_is_an_action_without_a_cell(client):
    state = client.post("/api/games", json={"game": PASS_GAME}).json()
    assert state["actions"] == [{"move": "pass", "kind": "pass", "piece": None, "from": None, "to": None}]
    assert client.post(f"/api/games/{state['id']}/play", json={"move": "pass"}).json()["moves"][-1] == "pass"


def test_undo_flip_and_earlier_positions(client):
    state = client.post("/api/games", json={"game": MIDGAME}).json()
    game_id = state["id"]
    assert 'data-height="2"' in state["svg"]
    flipped = client.get(f"/api/games/{game_id}?flipped=1").json()["svg"]
    assert flipped != state["svg"] and flipped.index("White to move") < flipped.index(">Black<")
    earlier = client.get(f"/api/games/{game_id}?ply=2").json()
    assert earlier["viewing"] == 2 and earlier["actions"] == [] and earlier["game_string"] == MIDGAME
    assert earlier["svg"].count('class="piece') == 2
    assert client.get(f"/api/games/{game_id}?ply={state['ply']}").json()["viewing"] is None
    undone = client.post(f"/api/games/{game_id}/undo", json={"count": 2}).json()
    assert undone["game_string"] == ";".join(MIDGAME.split(";")[:-2]).replace("White[16]", "White[15]")
    assert client.post(f"/api/games/{game_id}/undo", json={}).json()["ply"] == 27


def test_bad_requests_are_refused_with_a_reason_and_change_nothing(client):
    game_id = client.post("/api/games", json={"game": PINNED}).json()["id"]
    games = f"/api/games/{game_id}"
    cases = [
        # (method, path, body, status, reason)
        ("post", "/api/games", {"game": "Base+X"}, 400, "Unknown game type 'Base+X'"),
        ("post", "/api/games", {"game": "Base;InProgress;White[2];wS1;bQ wS1-"}, 400,
         "Move 2 'bQ wS1-': You can't play your Queen Bee on your first turn."),
        ("post", "/api/games", {"game": "Base+Venom(Fixed:T)"}, 400,
         "Unknown game type 'Base+Venom(Fixed:T)': Venom(Fixed:T) needs M"),
        ("post", f"{games}/load", {"game": "Base+Venom+Dx"}, 400, "Venom and Dx cannot be played together"),
        ("post", "/api/games", {"game": 7}, 400, "The field 'game' has the wrong type."),
        ("post", f"{games}/play", {"move": "wS1 bQ-"}, 400,
         "You can't move that piece because it will break the hive."),
        ("post", f"{games}/play", {"move": "bQ bS1/"}, 400, "It's not that player's turn."),
        ("post", f"{games}/play", {"move": "wX1 bQ-"}, 400, ""),
        ("post", f"{games}/play", {"move": "wG1 -bQ"}, 400, ""),
        ("post", f"{games}/play", {"move": "pass"}, 400, "You can't pass when you have valid moves."),
        ("post", f"{games}/play", {"move": ""}, 400, "The move is empty."),
        ("post", f"{games}/play", {"move": "wG1\nundo"}, 400, "The move must be one line of printable text."),
        ("post", f"{games}/play", {"move": "wG1 " + "x" * 70000}, 400, "The move is too long"),
        ("post", f"{games}/play", {}, 400, "Give the move to play"),
        ("post", f"{games}/play", {"move": ["wG1"]}, 400, "The field 'move' has the wrong type."),
        ("post", f"{games}/play", {"move": "wG1", "colour": "w"}, 400, "Unknown field 'colour'"),
        ("post", f"{games}/undo", {"count": 0}, 400, "The number of moves to undo must be a whole number"),
        ("post", f"{games}/undo", {"count": "1"}, 400, "The field 'count' has the wrong type."),
        ("post", f"{games}/undo", {"count": 9}, 400, "Unable to undo 9 moves: 4 played."),
        ("post", f"{games}/load", {"game": "Chess"}, 400, "Unknown game type 'Chess'"),
        ("post", f"{games}/load", {"game": "Base;InProgress;White[2];wS1;wS2 wS1-"}, 400, "Move 2 'wS2 wS1-'"),
        ("post", f"{games}/load", {}, 400, "Give a game type or a GameString"),
        ("post", f"{games}/search", {"depth": 0}, 400, f"The depth must be a whole number from 1 to {MAX_SEARCH_DEPTH}"),
        ("post", f"{games}/search", {"depth": 99}, 400, "The depth must be"),
        ("post", f"{games}/search", {"depth": 2.5}, 400, "The field 'depth' has the wrong type."),
        ("post", f"{games}/search", {"seconds": -1}, 400, "The time must be a number of seconds above 0"),
        ("post", f"{games}/search", {"seconds": 1e12}, 400, "The time must be"),
        ("post", f"{games}/search", {"depth": 2, "seconds": 1}, 400, "Give a depth or a number of seconds, not both."),
        ("post", f"{games}/search", {"play": "yes"}, 400, "The field 'play' has the wrong type."),
        ("post", f"{games}/stop", {"now": True}, 400, "Unknown field 'now'"),
        ("get", f"{games}?ply=99", None, 400, "The ply to show must be a whole number from 0 to 4."),
        ("get", f"{games}?ply=-1", None, 400, "The parameter 'ply' must be a whole number."),
        ("get", f"{games}?flipped=maybe", None, 400, "The parameter 'flipped' must be 0 or 1."),
        ("get", "/api/games/nosuchgame", None, 404, "No game 'nosuchgame'"),
        ("post", "/api/games/nosuchgame/play", {"move": "wS1"}, 404, "No game 'nosuchgame'"),
        ("post", f"{games}/castle", {}, 404, "No such page or API route."),
        ("get", f"{games}/play", None, 405, "That method is not allowed here."),
        ("delete", games, None, 405, "That method is not allowed here."),
    ]
    before = game_string(client, game_id)
    for method, path, body, status, reason in cases:
        kwargs = {} if body is None else {"json": body}
        refused(getattr(client, method)(path, **kwargs), status, reason)
        assert game_string(client, game_id) == before, (method, path, body)
    # Bodies that are not a JSON object, or too large, or not said to be JSON
    # (what another site's page may send without asking).
    as_json = {"content-type": "application/json"}
    for content in (b"{not json", b"[1, 2]", b'"wS1"', b"\xff\xfe"):
        refused(client.post(f"{games}/play", content=content, headers=as_json), 400, "The request's body")
    refused(client.post(f"{games}/play", content=b"x" * (MAX_BODY_BYTES + 1), headers=as_json), 413,
            "The request is too large")
    for headers in ({}, {"content-type": "text/plain"}, {"content-type": "application/x-www-form-urlencoded"}):
        refused(client.post(f"{games}/play", content=b'{"move": "wG1 -bQ"}', headers=headers), 415,
                "The request must be JSON")
        refused(client.post(f"{games}/undo", headers=headers), 415, "The request must be JSON")
    assert game_string(client, game_id) == before


def test_a_finished_game_refuses_moves_and_searches(client):
    state = client.post("/api/games", json={"game": WON_GAME}).json()
    assert state["result"] == "White wins (Queen surrounded)" and state["actions"] == []
    refused(client.post(f"/api/games/{state['id']}/play", json={"move": "bQ -wQ"}), 400, "The game is over.")
    refused(client.post(f"/api/games/{state['id']}/search", json={"depth": 1}), 400, "The game is over.")
    assert game_string(client, state["id"]) == WON_GAME


def _events_until(socket, kind):
    """The events read from the WebSocket up to the first of `kind`."""
    events = []
    while not events or events[-1]["type"] != kind:
        events.append(socket.receive_json())
    return events


def test_the_engine_plays_and_reports_its_progress(client):
    state = client.post("/api/games", json={"game": PINNED}).json()
    game_id = state["id"]
    with client.websocket_connect(f"/api/games/{game_id}/events") as socket:
        started = client.post(f"/api/games/{game_id}/search", json={"depth": 2})
        assert started.status_code == 202 and started.json()["search"]["mode"] == "play"
        events = _events_until(socket, "searched")
        progress = [event for event in events if event["type"] == "progress"]
        assert [event["depth"] for event in progress] == [1, 2]
        assert all(event["pv"][0] in [a["move"] for a in state["actions"]] for event in progress)
        searched = events[-1]
        assert searched["played"] and searched["move"] == progress[-1]["pv"][0]
        changed = _events_until(socket, "changed")[-1]["game_string"]
        assert changed.split(";")[3:] == PINNED.split(";")[3:] + [searched["move"]]
    after = client.get(f"/api/games/{game_id}").json()
    assert after["moves"][-1] == searched["move"] and after["search"]["running"] is False
    assert after["search"]["current"] is False  # a line of the position before the move


def test_an_analysis_is_stopped_by_a_move_and_one_search_runs_at_a_time(client):
    state = client.post("/api/games", json={"game": PINNED}).json()
    game_id = state["id"]
    with client.websocket_connect(f"/api/games/{game_id}/events") as socket:
        assert client.post(f"/api/games/{game_id}/search", json={"play": False}).status_code == 202
        progress = _events_until(socket, "progress")[-1]
        assert progress["mode"] == "analyse" and progress["running"] and progress["score_text"]
        refused(client.post(f"/api/games/{game_id}/search", json={"depth": 1}), 409, "A search is already running")
        shown = client.get(f"/api/games/{game_id}").json()
        assert shown["search"]["running"] and 'class="arrow line"' in shown["svg"]  # its line, as arrows
        assert shown["actions"]  # a person may play during an analysis ...
        # A refused move stops it and forgets it, so that the page starts it again.
        refused(client.post(f"/api/games/{game_id}/play", json={"move": "wS1 bQ-"}), 400, "You can't move")
        assert client.get(f"/api/games/{game_id}").json()["search"] is None
        assert client.post(f"/api/games/{game_id}/search", json={"play": False}).status_code == 202
        move = shown["actions"][0]["move"]
        played = client.post(f"/api/games/{game_id}/play", json={"move": move}).json()  # ... which stops it
        assert played["moves"][-1] == move and played["search"] is None
        # The engine thinking about its own move: the game is busy until it has played.
        assert client.post(f"/api/games/{game_id}/search", json={"seconds": 30}).status_code == 202
        before = game_string(client, game_id)
        refused(client.post(f"/api/games/{game_id}/undo", json={}), 409, "The engine is thinking")
        refused(client.post(f"/api/games/{game_id}/load", json={"game": "Base"}), 409, "The engine is thinking")
        assert game_string(client, game_id) == before
        start = time.monotonic()
        stopped = client.post(f"/api/games/{game_id}/stop", json={}).json()
        assert stopped["stopped"] and time.monotonic() - start < 3
        _events_until(socket, "searched")
    final = client.get(f"/api/games/{game_id}").json()
    assert len(final["moves"]) == len(before.split(";")) - 3 + 1  # Stop plays the best move so far
    assert client.post(f"/api/games/{game_id}/stop", json={}).json()["stopped"] is False


def test_games_are_independent_and_bounded(client):
    first, second = new_game(client, "Base"), new_game(client, "Base+P")
    client.post(f"/api/games/{first['id']}/play", json={"move": "wQ"})
    assert game_string(client, second["id"]) == "Base+P;NotStarted;White[1]"
    ids = [new_game(client)["id"] for _ in range(8)]  # capacity 8: the oldest are let go
    refused(client.get(f"/api/games/{first['id']}"), 404, "No game")
    assert game_string(client, ids[-1]) == "Base+MLP;NotStarted;White[1]"


def test_a_websocket_for_no_game_or_from_another_site_is_closed_with_the_reason(client):
    with pytest.raises(WebSocketDisconnect) as closed:
        with client.websocket_connect("/api/games/nosuchgame/events") as socket:
            socket.receive_json()
    assert closed.value.code == 4404
    game_id = new_game(client)["id"]
    with pytest.raises(WebSocketDisconnect) as closed:
        with client.websocket_connect(f"/api/games/{game_id}/events",
                                      headers={"origin": "https://elsewhere.example"}) as socket:
            socket.receive_json()
    assert closed.value.code == 4403


def test_the_page_and_its_files(client):
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert '<script src="/static/app.js"' in page.text
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    refused(client.get("/static/nothing.js"), 404, "No such page")
    # Nothing is fetched from elsewhere: no absolute URL in the page's files.
    for name in ("index.html", "app.js", "style.css"):
        text = client.get("/" if name == "index.html" else f"/static/{name}").text
        assert "http://" not in text and "https://" not in text, name


def _web(*args):
    return subprocess.Popen([sys.executable, "-m", "engine", "web", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_hexbee_web_serves_on_a_free_local_port(kernel_cache):
    import httpx

    server = _web()
    try:
        line = server.stdout.readline()
        assert line.startswith("hexbee web: serving on http://127.0.0.1:"), line
        url = line.split()[4]
        state = httpx.post(url + "api/games", json={"game": "Base"}, timeout=10).json()
        assert state["game_string"] == "Base;NotStarted;White[1]"
        assert "<title>hexbee</title>" in httpx.get(url, timeout=10).text
        # Ctrl-C during an analysis (a search until stopped): the server stops it and ends, status 0.
        started = httpx.post(url + f"api/games/{state['id']}/search", json={"play": False}, timeout=10)
        assert started.status_code == 202
        time.sleep(0.3)
        server.send_signal(signal.SIGINT)
        assert server.wait(15) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)
    errors = server.stderr.read()
    assert "not only this machine" not in errors and "Traceback" not in errors


def test_hexbee_web_says_when_it_listens_beyond_this_machine(kernel_cache):
    server = _web("--host", "0.0.0.0")
    try:
        assert server.stdout.readline().startswith("hexbee web: serving on http://0.0.0.0:")
    finally:
        server.terminate()
        server.wait(10)
    assert "listening on 0.0.0.0, not only this machine" in server.stderr.read()


def test_hexbee_web_refuses_a_bad_port_or_one_in_use():
    result = subprocess.run([sys.executable, "-m", "engine", "web", "--port", "70000"], capture_output=True,
                            text=True, timeout=30)
    assert (result.returncode, result.stdout) == (2, "") and "--port 70000: a port is 0 to 65535." in result.stderr
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run([sys.executable, "-m", "engine", "web", "--port", str(port)], capture_output=True,
                                text=True, timeout=30)
    assert (result.returncode, result.stdout) == (2, "")
    assert f"cannot listen on 127.0.0.1:{port}: Address already in use" in result.stderr


def test_a_bug_in_the_server_is_a_500_with_a_reason_not_a_traceback(kernel_cache, monkeypatch):
    from engine.web import games

    with TestClient(create_app(Games(capacity=2)), raise_server_exceptions=False) as client:
        game_id = new_game(client)["id"]

        def broken(self, *args, **kwargs):
            raise RuntimeError("a bug")

        monkeypatch.setattr(games.Game, "state", broken)
        refused(client.get(f"/api/games/{game_id}"), 500, "The server failed: RuntimeError.")


# --- Swarm (issue 27, item 7) -------------------------------------------------------------
def test_a_swarm_game_draws_from_its_seeded_bag_and_undoes_a_placement_with_its_draw(client):
    """The choices and steals are actions without a cell (buttons); a placement is
    followed at once by the game's own draw, the same draws for the same seed;
    an undo takes back a placement and its draw together."""
    def game_with(seed):
        state = client.post("/api/games", json={"game": "Base+Swarm", "bag_seed": seed}).json()
        assert state["bag_seed"] == seed and state["bag"] == Board("Base+Swarm").bag_kinds()
        for _ in range(2):
            assert {a["kind"] for a in state["actions"]} == {"choose"}
            assert all(a["piece"] is None and a["to"] is None for a in state["actions"])
            state = client.post(f"/api/games/{state['id']}/play", json={"move": state["actions"][0]["move"]}).json()
        for _ in range(8):  # placements and moves, each placement with its draw
            move = next(a for a in state["actions"] if a["kind"] in ("place", "move"))["move"]
            state = client.post(f"/api/games/{state['id']}/play", json={"move": move}).json()
            if state["moves"][-1].startswith("draw "):
                assert state["moves"][-2] == move
        return state

    first, second = game_with(5), game_with(5)
    assert first["moves"] == second["moves"] and any(m.startswith("draw ") for m in first["moves"])
    board = Board.from_game_string(first["game_string"])
    assert not board.draw_due and first["bag"] == board.bag_kinds()
    steals = [a for a in first["actions"] if a["kind"] == "steal"]
    assert steals and all(a["to"] is None and a["move"].startswith("steal ") for a in steals)
    assert first["actions"] == second["actions"] and game_with(6)["moves"] != first["moves"]

    drawn = max(i for i, move in enumerate(first["moves"]) if move.startswith("draw "))
    after = len(first["moves"]) - drawn - 1  # entries after the last draw: moves, none of them a placement
    back = client.post(f"/api/games/{first['id']}/undo", json={"count": after}).json() if after else first
    assert back["moves"] == first["moves"][:drawn + 1]
    back = client.post(f"/api/games/{first['id']}/undo", json={"count": 1}).json()
    assert back["moves"] == first["moves"][:drawn - 1]  # the placement went with its draw
    refused(client.post("/api/games", json={"game": "Base+Swarm", "bag_seed": "x"}), 400, "")
