"""The browsable API reference (docs/build_api.py, issue 29, 13): pdoc builds a page for
every layer from the docstrings, without an error."""

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pdoc")

ROOT = Path(__file__).resolve().parent.parent


def test_the_api_reference_has_a_page_for_every_layer(tmp_path):
    built = subprocess.run([sys.executable, str(ROOT / "docs" / "build_api.py"), "--out", str(tmp_path)],
                           capture_output=True, text=True, timeout=120)
    assert built.returncode == 0, built.stderr
    pages = {path.relative_to(tmp_path).as_posix() for path in tmp_path.rglob("*.html")}
    for page in ("index.html", "engine.html", "engine/game.html", "engine/pgn.html", "engine/rl.html",
                 "engine/io/svg.html", "engine/rules/movegen.html", "engine/search/search.html",
                 "engine/protocol/uhp.html", "engine/web/app.html"):
        assert page in pages
    game = (tmp_path / "engine" / "game.html").read_text()
    assert "Board" in game and "push_uhp" in game
