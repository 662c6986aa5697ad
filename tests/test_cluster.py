"""The arena on Dask distributed (bench/cluster.py): a match on a LocalCluster
of two worker processes, a worker killed in the middle of a match, and a match
interrupted and resumed from its games.jsonl. The engines are this checkout's,
searching one ply; every worker process starts its own."""

import json
import os
import re
import shlex
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")

from bench import arena  # noqa: E402
from bench import tournament as tournaments  # noqa: E402
from bench.cluster import Cluster, engine_environment  # noqa: E402
from bench.pool import Pool  # noqa: E402
from bench.records import read_records  # noqa: E402
from bench.referee import FORFEITS  # noqa: E402
from bench.selfplay import cluster_match, match, match_openings, read_weights  # noqa: E402
from bench.tune import play_round  # noqa: E402
from engine.search.search import Searcher  # noqa: E402
from engine.game import Board  # noqa: E402
from engine.pgn import read_games  # noqa: E402

from .conftest import file_lines, interrupted_arena  # noqa: E402
from .test_arena import Terminal  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.usefixtures("kernel_cache")  # the workers' engines load the kernels, never compile them


def engine(name, starts=None, directory=ROOT):
    """An --engine for this checkout's engine (installed, so it runs in any
    `directory`); with `starts`, a wrapper that notes each start of the
    process in that file first."""
    command = shlex.join([sys.executable, "-m", "engine"])
    if starts is not None:
        command = shlex.join(["sh", "-c", f"echo {name} >> {shlex.quote(str(starts))}; exec {command}"])
    return ["--engine", f"cmd={command}", f"name={name}", f"dir={directory}"]


def match_arguments(out, games, *more, directory=ROOT):
    """Two engines searching one ply, `games` games of at most 40 plies."""
    return [*engine("first", directory=directory), *engine("second", directory=directory), "--each", "depth=1",
            "--games", str(games), "--max-plies", "40", "--out", str(out), "--startup-timeout", "300",
            "--hang-timeout", "30", *more]


def fake_match(out):
    """A random mover against one that answers garbage (tests/fake_engine.py),
    up to 40 games, until an SPRT with wide bounds accepts that the first is stronger."""
    fake = [sys.executable, str(ROOT / "tests" / "fake_engine.py")]
    return ["--engine", "cmd=" + shlex.join([*fake, "random"]), "name=good",
            "--engine", "cmd=" + shlex.join([*fake, "garbage"]), "name=bad", "--each", "depth=1",
            "--games", "40", "--sprt", "elo0=0", "elo1=400", "alpha=0.3", "beta=0.3", "--out", str(out)]


@pytest.mark.slow
def test_a_game_that_keeps_killing_its_workers_stops_the_match_with_the_reason(tmp_path, capsys):
    # The engine's start kills its parent, the worker: Dask gives the game to a new
    # worker until distributed.scheduler.allowed-failures (3) is exceeded.
    killer = "cmd=" + shlex.join(["sh", "-c", "kill -9 $PPID; sleep 60"])
    argv = [*engine("first"), "--engine", killer, "name=killer", "--each", "depth=1", "--games", "2",
            "--out", str(tmp_path / "out"), "--concurrency", "1"]
    assert arena.run(argv) == 2
    assert "arena: workers died playing a game, 3 times or more" in capsys.readouterr().err


def assert_every_game_once(out, games):
    records = read_records(out)
    assert sorted(record["number"] for record in records) == list(range(1, games + 1))
    for record in records:
        assert record["termination"] not in FORFEITS, record["reason"]
        assert Board.from_game_string(record["game_string"]).ply == record["plies"]
    pgn = (out / "games.pgn").read_text()
    assert pgn.count("[Event ") == games
    return records


def test_a_pool_lends_each_object_to_one_borrower_and_reuses_it():
    made = []
    pool = Pool(lambda: made.append(object()) or made[-1])
    with pool.borrowed() as first, pool.borrowed() as second:
        assert first is not second
    with pool.borrowed() as again:
        assert again in (first, second)
    assert len(made) == 2 and pool.made == made


def test_match_on_a_local_cluster_of_two_workers(tmp_path, capsys):
    out, starts = tmp_path / "out", tmp_path / "starts"
    argv = [*engine("first", starts), *engine("second", starts), "--each", "depth=1", "--games", "6",
            "--max-plies", "40", "--out", str(out), "--startup-timeout", "300", "--concurrency", "2"]
    assert arena.run(argv) == 0
    assert "6 games on a LocalCluster (2 workers, 2 games at once)" in capsys.readouterr().out
    assert_every_game_once(out, 6)
    assert "6 of 6 games played (all games played)" in (out / "summary.txt").read_text()
    # Each worker starts each engine once and keeps it for its games.
    started = starts.read_text().split()
    assert sorted(set(started)) == ["first", "second"]
    assert started.count("first") <= 2 and started.count("second") <= 2


def test_a_worker_killed_in_the_middle_of_a_match_loses_no_game(tmp_path):
    out, directory = tmp_path / "out", tmp_path / "engines"  # the engines' working directory marks them
    directory.mkdir()
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, memory_limit="512MiB",
                                  dashboard_address=":0") as cluster:
        killed = {}

        def kill_a_busy_worker():
            with distributed.Client(cluster.scheduler_address) as client:
                deadline = time.monotonic() + 300
                while time.monotonic() < deadline and not killed:
                    if (out / "games.jsonl").exists() and (out / "games.jsonl").read_text().strip():
                        busy = {address: keys for address, keys in client.processing().items() if keys}
                        if busy:
                            address, keys = next(iter(busy.items()))
                            pid = client.run(os.getpid, workers=[address])[address]
                            os.kill(pid, signal.SIGKILL)
                            killed.update(address=address, pid=pid, games=list(keys))
                    time.sleep(0.05)

        killer = threading.Thread(target=kill_a_busy_worker)
        killer.start()
        try:
            status = arena.run(match_arguments(out, 8, "--scheduler", cluster.scheduler_address, directory=directory))
        finally:
            killer.join(timeout=60)
        with distributed.Client(cluster.scheduler_address) as client:
            pids = set(client.run(os.getpid).values())
            # Dask's nanny sets glibc's trim threshold for its workers; their engines do not inherit it.
            assert set(client.run(os.environ.get, "MALLOC_TRIM_THRESHOLD_").values()) == {"65536"}
            assert "MALLOC_TRIM_THRESHOLD_" not in client.submit(engine_environment).result()
        # The cluster lives on; the match's engine processes on its workers have ended.
        assert not _processes_in(directory)
        # A second match on the same cluster, stopped by the SPRT.
        sprt_status = arena.run([*fake_match(tmp_path / "sprt"), "--scheduler", cluster.scheduler_address])
    assert sprt_status == 0
    summary = (tmp_path / "sprt" / "summary.txt").read_text()
    assert "H1 accepted" in summary and "(SPRT H1)" in summary
    assert 4 <= len(read_records(tmp_path / "sprt")) < 40
    assert status == 0
    assert killed, "no worker was busy after the first game"
    assert killed["pid"] not in pids  # the worker was gone; its games were played elsewhere
    records = assert_every_game_once(out, 8)
    numbers = {int(key.rsplit("-", 1)[1]) for key in killed["games"]}
    assert numbers <= {record["number"] for record in records}


def test_an_interrupted_match_resumes_from_its_results_file(tmp_path, capsys, monkeypatch):
    out, directory = tmp_path / "out", tmp_path / "engines"  # the engines' working directory marks them
    directory.mkdir()
    argv = match_arguments(out, 8, "--concurrency", "2", "--seed", "7", directory=directory)
    status, stdout = interrupted_arena(argv, out, group=True)  # Ctrl-C: the workers get it too
    assert status == 130, stdout
    assert "Traceback" not in stdout
    before = file_lines(out / "games.jsonl")
    assert 2 <= len(before) < 8, stdout
    assert f"{len(before)} of 8 games played (interrupted)" in stdout
    assert json.loads((out / "match.json").read_text())["argv"] == argv
    assert not _processes_in(directory), "the workers' engine processes outlived the interrupted match"

    # A kill between the two writes of a game: games.jsonl holds it, games.pgn not.
    pgn = out / "games.pgn"
    pgn.write_text(str(next(read_games(pgn))) + "\n")
    # On a terminal the workers' games in progress show on the live line (issue 29, 10).
    monkeypatch.setattr(tournaments, "PLY_NOTE_SECONDS", 0.0)
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert arena.run(["--resume", str(out), "--concurrency", "2"]) == 0
    monkeypatch.undo()
    assert re.search(r"  playing #\d+ ply \d+", terminal.getvalue())
    assert [game.headers["Round"] for game in read_games(pgn)] == [str(r["number"]) for r in read_records(out)]
    assert f"resumed: {len(before)} games on file, {8 - len(before)} to play" in capsys.readouterr().out
    assert file_lines(out / "games.jsonl")[: len(before)] == before  # the games on file are kept as they were
    assert_every_game_once(out, 8)
    summary = (out / "summary.txt").read_text()
    assert f"8 of 8 games played, {len(before)} of them before this run (all games played)" in summary
    # Nothing more to play: a second resume only counts.
    assert arena.run(["--resume", str(out), "--local"]) == 0
    assert len(file_lines(out / "games.jsonl")) == 8


def test_self_play_and_the_tuner_play_the_same_games_on_dask_as_in_one_process():

    weights = read_weights(None)
    blind = weights * 0  # an evaluation of nothing: A should win most games
    limits = {"depth": 2}
    openings = match_openings(4, seed=3)
    with Cluster(workers=2, memory_limit="1GiB") as cluster:
        on_dask = cluster_match(cluster, weights, blind, 6, limits, max_plies=80, seed=2)
        games_on_dask = []
        play_round(cluster, weights, openings, 1, 40, games_on_dask.append)
    assert on_dask == match(Searcher(weights), Searcher(blind), 6, limits, max_plies=80, seed=2) > 3
    games_here = []
    play_round(None, weights, openings, 1, 40, games_here.append)

    def summary(games):  # the games come back in the order they finish
        return sorted((len(rows), result, sum(int(row.sum()) for row in rows)) for rows, result in games)

    assert len(games_on_dask) == len(openings) and summary(games_on_dask) == summary(games_here)


def _processes_in(directory, wait=10.0):
    """The processes whose working directory is `directory`, after giving
    those that are ending `wait` seconds."""
    deadline = time.monotonic() + wait
    while True:
        found = []
        for cwd in Path("/proc").glob("[0-9]*/cwd"):
            try:
                if Path(os.readlink(cwd)) == directory:
                    found.append(cwd.parent.name)
            except OSError:
                pass
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.2)
