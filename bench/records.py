"""Saving games as they finish, so an interrupted match loses nothing played.

Each game is appended, and flushed, to two files in the output folder:
`games.jsonl` (one JSON object a line: the GameString, result, reason, ...) and
`games.pgn` (PGN-style, one move a line as MzingaViewer reads them; engine.pgn
writes it and reads it back).
"""

import json
import platform
from pathlib import Path

from engine.pgn import Game

GAMES_FILE = "games.jsonl"
PGN_FILE = "games.pgn"
SUMMARY_FILE = "summary.txt"


class GameLog:
    """The two files of a match's games. `played` are the records of a resumed
    match (games.jsonl is the record): games.pgn is written again from them, so
    that a game a kill left out of it, written to games.jsonl only, is there."""

    def __init__(self, directory, event="hexbee arena", played=()):
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.event = event
        self._games = open(self.directory / GAMES_FILE, "a", encoding="utf-8")
        self._pgn = open(self.directory / PGN_FILE, "w" if played else "a", encoding="utf-8")
        for record in played:
            self._write_pgn(record)
        self._pgn.flush()

    def write(self, record):
        self._games.write(json.dumps(record) + "\n")
        self._games.flush()
        self._write_pgn(record)
        self._pgn.flush()

    def _write_pgn(self, record):
        self._pgn.write(str(game_record(record, self.event)) + "\n")

    def write_summary(self, text):
        (self.directory / SUMMARY_FILE).write_text(text + "\n", encoding="utf-8")

    def close(self):
        self._games.close()
        self._pgn.close()


def read_records(directory):
    """The game records saved in an output folder, in the order they finished."""
    path = Path(directory) / GAMES_FILE
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def resume_records(directory):
    """The game records of a folder whose match goes on: as read_records, but
    a last line that a kill cut short (no newline, not JSON) is cut off the
    file, so that its game is played again and the next record starts a line.
    Returns (records, whether a line was cut)."""
    path = Path(directory) / GAMES_FILE
    if not path.exists():
        return [], False
    data = path.read_bytes()
    start = data.rfind(b"\n", 0, len(data) - 1) + 1 if data else 0
    last = data[start:]
    cut = False
    if last and not last.endswith(b"\n"):
        try:
            json.loads(last)
        except ValueError:
            with open(path, "r+b") as handle:
                handle.truncate(start)
            cut = True
        else:  # a whole record that only lacks its newline
            with open(path, "ab") as handle:
                handle.write(b"\n")
    return read_records(directory), cut


def game_record(record, event):
    """One finished game as an engine.pgn.Game: the tags (players, time controls,
    termination), its moves, its result and the reason it ended as a comment
    after the last move. Its text is what games.pgn holds."""
    return Game.from_game_string(
        record["game_string"],
        Event=event,
        Site=platform.node(),
        Date=record["finished"][:10].replace("-", "."),
        Round=str(record["number"]),
        White=record["white"],
        Black=record["black"],
        Result=record["result"],
        TimeControl=f"{record['white_control']} / {record['black_control']}",
        Termination=record["termination"],
    ).commented(record["plies"], record["reason"])
