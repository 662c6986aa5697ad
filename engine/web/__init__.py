"""hexbee web: play and analyse Hive in a browser (`hexbee web`; the web extra).

- `games.py`: the games the server keeps, each a UHP Session driven by its
  commands (no second copy of the rules), and what the page shows of one;
- `app.py`: the routes (Starlette): the page, the JSON API, a WebSocket per game;
- `cli.py`: `hexbee web`, the server on this machine (uvicorn);
- `static/`: the page, plain HTML, CSS and JavaScript.

Only `cli.py` and `app.py` need the web extra's packages.
"""
