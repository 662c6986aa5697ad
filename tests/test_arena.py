"""The match runner (bench/): Elo and SPRT arithmetic, time controls, openings,
and whole matches between fake engines (tests/fake_engine.py) that misbehave.

Every subprocess runs under short timeouts, so a broken runner fails a test
instead of hanging the suite."""

import io
import json
import math
import re
import shlex
import sys
import time
from pathlib import Path

import pytest

from bench import arena
from bench import tournament as tournaments
from bench.elo import (
    GAME_SCORES,
    PAIR_SCORES,
    Sprt,
    elo_estimate,
    elo_from_score,
    game_counts,
    log_likelihood_ratio,
    mean_and_variance,
    score_from_elo,
)
from bench.openings import DATA as OPENINGS_DATA
from bench.openings import default_openings_file, generate_openings, is_balanced, load_openings, position_key
from bench.records import read_records
from bench.referee import FORFEITS
from bench.scoreboard import Scoreboard
from bench.timecontrol import GameClock, TimeControl, format_uhp_time
from bench.tournament import required_capabilities, schedule
from engine.game import Board
from engine.pgn import read_games
from engine.search.search import Searcher

from .conftest import file_lines, interrupted_arena

ROOT = Path(__file__).resolve().parent.parent
FAKE = Path(__file__).resolve().parent / "fake_engine.py"


# --- Elo and SPRT ----------------------------------------------------------------
@pytest.mark.parametrize(
    "score, elo",
    [
        (0.5, 0.0),
        (0.75, 190.848502),  # 400 log10(3)
        (0.25, -190.848502),
        (0.9, 381.697004),  # 400 log10(9)
        (0.64006, 100.0),  # 1 / (1 + 10^(-1/4)) = 0.640065
    ],
)
def test_elo_from_score_is_the_logistic_formula(score, elo):
    assert elo_from_score(score) == pytest.approx(elo, abs=0.01)
    assert score_from_elo(elo) == pytest.approx(score, abs=1e-5)


def test_elo_error_bar_of_60_wins_20_draws_20_losses():
    # Mean 0.7; per-game variance (60 * 0.3^2 + 20 * 0.2^2 + 20 * 0.7^2) / 100 = 0.16,
    # so the mean's standard error is 0.04 and the 95% interval 0.7 -/+ 1.96 * 0.04
    # = (0.62160, 0.77840): Elo (86.22, 218.25), reported as 147.19 +/- 66.01.
    estimate = elo_estimate(game_counts(60, 20, 20))
    assert mean_and_variance(game_counts(60, 20, 20)) == pytest.approx((0.7, 0.16))
    assert estimate.elo == pytest.approx(147.19, abs=0.01)
    assert estimate.margin == pytest.approx(66.01, abs=0.01)
    assert str(estimate) == "+147.2 +/- 66.0"


def test_elo_of_no_games_and_of_a_clean_sweep():
    assert str(elo_estimate(game_counts(0, 0, 0))) == "n/a"
    assert str(elo_estimate(game_counts(3, 0, 0))) == "+inf"


def test_llr_with_wins_and_losses_only_is_walds_binomial_sprt():
    # With two outcomes the multinomial at a given mean is fixed, so the GSPRT is
    # Wald's SPRT for a Bernoulli: W ln(s1/s0) + L ln((1-s1)/(1-s0)).
    s0, s1 = score_from_elo(0), score_from_elo(10)
    expected = 55 * math.log(s1 / s0) + 45 * math.log((1 - s1) / (1 - s0))
    assert log_likelihood_ratio({1.0: 55, 0.0: 45}, 0, 10) == pytest.approx(expected, rel=1e-9)
    assert expected == pytest.approx(0.24641, abs=1e-5)


@pytest.mark.parametrize(
    "counts",
    [
        game_counts(300, 400, 280),
        game_counts(1000, 2200, 1050),
        {0.0: 10, 0.25: 40, 0.5: 100, 0.75: 45, 1.0: 12},
    ],
)
def test_llr_is_close_to_the_normal_approximation(counts):
    # For small Elo bounds the GSPRT's ratio approaches N (s1 - s0)(2 m - s0 - s1) / (2 v),
    # m and v the sample mean and variance (M. Van den Bergh's approximation, fishtest).
    s0, s1 = score_from_elo(0), score_from_elo(5)
    mean, variance = mean_and_variance(counts)
    approximation = sum(counts.values()) * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)
    assert log_likelihood_ratio(counts, 0, 5) == pytest.approx(approximation, rel=0.01, abs=1e-3)


def test_sprt_bounds_and_decisions():
    sprt = Sprt(0, 10, alpha=0.05, beta=0.05)
    status = sprt.status({}, GAME_SCORES)
    assert (status.lower, status.upper) == pytest.approx((-math.log(19), math.log(19)))  # +/- 2.944
    assert status.decision is None
    assert sprt.status(game_counts(600, 0, 450), GAME_SCORES).decision == "H1"  # 57%: about +50 Elo
    assert sprt.status(game_counts(450, 0, 600), GAME_SCORES).decision == "H0"
    # A pair not seen yet keeps the ratio finite: every pair won is Wald's ratio per pair.
    won = sprt.status({1.0: 4}, PAIR_SCORES).llr
    assert won == pytest.approx(4 * math.log(score_from_elo(10) / 0.5), rel=0.01)



def test_sprt_continued_from_pair_counts_on_record():
    # SPRT test 3 of docs/sprt.md lost its games with its session's checkout;
    # its recorded pentanomial counts give back the LLR the record states.
    sprt, before = arena.parse_sprt(["elo0=0", "elo1=5", "before=58-67-167-96-103"])
    board = Scoreboard(["new", "old"], sprt, before)
    assert board.sprt_status().llr == pytest.approx(1.96, abs=0.005)
    for pair in range(2):  # one pair won twice moves it on; the game table counts only this match
        for white, black, result in (("new", "old", "1-0"), ("old", "new", "0-1")):
            board.add({"white": white, "black": black, "result": result, "pair": pair, "termination": "x"})
    assert board.sprt_status().llr > 1.97
    assert "+4 =0 -0" in board.table() and "pairs before this match (counts on record) 58-67-167-96-103" in board.table()
    for words in (["elo0=0", "elo1=5", "before=1-2-3"], ["elo0=0", "elo1=5", "before=a-b-c-d-e"], ["elo0=x", "elo1=5"]):
        with pytest.raises(arena.ArenaError):
            arena.parse_sprt(words)


# --- Time controls ------------------------------------------------------------------
def test_uhp_time_strings():
    assert format_uhp_time(5) == "00:00:05"
    assert format_uhp_time(0.5) == "00:00:00.5"
    assert format_uhp_time(3725.25) == "01:02:05.25"
    assert format_uhp_time(0.00001) == "00:00:00.001"


def test_time_control_parsing():
    assert TimeControl.parse("tc", "60+0.5") == TimeControl("clock", seconds=60.0, increment=0.5)
    assert str(TimeControl.parse("movetime", "0.25")) == "movetime=0.25"
    for key, value in (("depth", "0"), ("movetime", "-1"), ("tc", "x"), ("nodes", "5")):
        with pytest.raises(ValueError):
            TimeControl.parse(key, value)


def test_clock_shares_its_time_and_flags_an_overrun():
    clock = GameClock(TimeControl("clock", seconds=10.0, increment=1.0), margin=0.5)
    assert clock.request() == ("bestmove time 00:00:01.5", 10.5)  # 10 / 20 + the increment
    assert clock.charge(2.0) is None
    assert clock.remaining == pytest.approx(9.0)  # 10 - 2 + 1
    assert "left on its clock" in clock.charge(9.6)
    per_move = GameClock(TimeControl("movetime", seconds=1.0), margin=0.5)
    assert per_move.request() == ("bestmove time 00:00:01", 1.5)
    assert per_move.charge(1.4) is None and per_move.charge(1.6)
    assert GameClock(TimeControl("depth", depth=3), 0.5, hang_seconds=7).request() == ("bestmove depth 3", 7)


def test_each_engine_gets_its_time_limits_in_its_own_form():
    clock = TimeControl("clock", seconds=10.0, increment=1.0)
    assert GameClock(clock.with_form("clock"), margin=0.5).request() == ("bestmove clock 10 1", 10.5)
    assert GameClock(clock.with_form("seconds"), margin=0.5).request() == ("bestmove seconds 1.5", 10.5)
    per_move = TimeControl("movetime", seconds=0.25).with_form("seconds")
    assert GameClock(per_move, margin=0.5).request() == ("bestmove seconds 0.25", 0.75)
    assert str(per_move) == "movetime=0.25 limit=seconds"
    entrant = arena.parse_entrant(["cmd=x", "tc=60+0.5", "limit=clock"], [], 1)
    assert entrant.control == TimeControl("clock", seconds=60.0, increment=0.5, form="clock")
    for words in (["cmd=x", "movetime=1", "limit=clock"], ["cmd=x", "tc=60", "limit=minutes"]):
        with pytest.raises(arena.ArenaError):
            arena.parse_entrant(words, [], 1)


# --- Openings, schedule, scores ----------------------------------------------------
SHIPPED = sorted(path.name[len("openings-"):-len(".txt")] for path in OPENINGS_DATA.glob("openings-*.txt"))


@pytest.mark.parametrize("game_type", SHIPPED)
def test_shipped_openings(game_type):
    openings = load_openings(default_openings_file(game_type))
    boards = [Board.from_game_string(opening) for opening in openings]
    assert len(openings) >= (100 if game_type in ("Base", "Base+MLP") else 50)
    searcher = Searcher()
    assert all(board.game_type == game_type and board.ply == 6 and is_balanced(board, searcher) for board in boards)
    assert len({position_key(board) for board in boards}) == len(boards)


def test_openings_repeat_with_the_seed():
    assert generate_openings("Base", 5, seed=7) == generate_openings("Base", 5, seed=7)
    assert generate_openings("Base", 5, seed=7) != generate_openings("Base", 5, seed=8)


def test_the_shipped_openings_cover_the_fan_modules():
    assert {"Base+Venom", "Base+MLP+Venom", "Base+Predators", "Base+MP+Venom+Predators",
            "Base+MLP+Venom+Predators", "Base+MLP+Guardians+Dx+E+J", "Base+Vx", "Base+Wx", "Base+Fx", "Base+Nx"} <= set(SHIPPED)


def test_position_key_tells_the_faces_of_a_tile_apart():
    keys = {position_key(Board.from_game_string(f"Base+Venom;InProgress;White[2];{first};bS1 {first}-"))
            for first in ("wS1", "wR1")}
    assert len(keys) == 2


def test_position_key_ignores_turns_and_mirrors():
    # wS1 at the origin and bS1 east, north-east or west of it: one position turned.
    keys = {position_key(Board.from_game_string(f"Base;InProgress;White[2];wS1;bS1 {ref}")) for ref in
            ("wS1-", "wS1/", "-wS1")}
    assert len(keys) == 1


def test_schedule_plays_each_opening_twice_with_colours_swapped():
    tasks = schedule(2, ["a", "b"], 6)
    assert [(t.white, t.black, t.opening, t.pair) for t in tasks] == [
        (0, 1, "a", 1), (1, 0, "a", 1), (0, 1, "b", 2), (1, 0, "b", 2), (0, 1, "a", 3), (1, 0, "a", 3)]
    round_robin = schedule(3, ["a"], 3)  # rounded up to 4 games per pairing
    assert len(round_robin) == 12
    assert {(t.white, t.black) for t in round_robin} == {(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)}


def test_scoreboard_counts_games_and_pairs():
    board = Scoreboard(["a", "b"])
    for white, black, result, pair in [("a", "b", "1-0", 1), ("b", "a", "1/2-1/2", 1), ("b", "a", "1-0", 2),
                                       ("a", "b", "1-0", 2), ("a", "b", "0-1", 3)]:
        board.add({"white": white, "black": black, "result": result, "pair": pair, "termination": "x"})
    score = board.pairings["a", "b"]
    assert (score.wins, score.draws, score.losses) == (2, 1, 2)
    assert score.pairs == {0.75: 1, 0.5: 1}  # pair 3 is not complete
    assert board.totals("b") == (2, 1, 2)


# --- Matches between fake engines ------------------------------------------------------
def fake(behaviour, *flags):
    return "cmd=" + shlex.join([sys.executable, str(FAKE), behaviour, *flags])


def run_arena(tmp_path, engines, *options):
    """Run the arena in-process, on its threads (tests/test_cluster.py plays on
    Dask); return its status, game records and summary."""
    out = tmp_path / "out"
    argv = ["--local"] + [arg for words in engines for arg in ("--engine", *words)]
    # A generous start-up time: on a new machine the first start compiles the kernels.
    argv += ["--out", str(out), "--startup-timeout", "300", "--command-timeout", "5", *options]
    status = arena.run(argv)
    return status, read_records(out), (out / "summary.txt").read_text()


class Terminal(io.StringIO):
    """A stream that says it is a terminal, as the arena's stderr on one."""

    def isatty(self):
        return True


def test_on_a_terminal_the_live_line_names_the_length_of_each_game_in_progress(tmp_path, monkeypatch):
    """issue 29, 10: between two finished games the line says how far the running ones
    have got (reported at most every PLY_NOTE_SECONDS, 0 here)."""
    monkeypatch.setattr(tournaments, "PLY_NOTE_SECONDS", 0.0)
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    status, records, _ = run_arena(tmp_path, [[fake("random", "--seed", "1"), "name=one"], [fake("random"), "name=two"]],
                                   "--each", "depth=1", "--games", "2", "--max-plies", "20", "--concurrency", "2")
    assert status == 0 and len(records) == 2
    lines = terminal.getvalue().split("\r\x1b[K")
    assert any(re.search(r"^\[0/2\] .*  playing #1 ply \d+", line) for line in lines)
    assert any(line.startswith("[2/2]") and "playing" not in line for line in lines)


def test_the_live_line_forgets_a_finished_game_and_says_nothing_of_plies_off_a_terminal():
    terminal, log = Terminal(), io.StringIO()
    on_terminal, off_terminal = arena.Progress(Scoreboard(["a", "b"]), 9, terminal), arena.Progress(Scoreboard(["a", "b"]), 9, log)
    for progress in (on_terminal, off_terminal):
        for number in range(1, 7):
            progress.ply(number, 10 + number)
    assert terminal.getvalue().endswith("playing #1 ply 11, #2 ply 12, #3 ply 13, #4 ply 14 +2 more")
    on_terminal({"number": 3})
    on_terminal.ply(3, 40)  # a report that arrives after its game's record
    assert terminal.getvalue().endswith("playing #1 ply 11, #2 ply 12, #4 ply 14, #5 ply 15 +1 more")
    assert log.getvalue() == ""  # a log file gets one line a finished game, as before
    off_terminal({"number": 3})
    assert log.getvalue() == "[0/9]  a vs b: +0 =0 -0\n"


def test_match_between_random_movers(tmp_path):
    status, records, summary = run_arena(
        tmp_path,
        [[fake("random", "--seed", "1"), "name=one", "option.Speed=3"], [fake("random", "--seed", "2"), "name=two"]],
        "--each", "movetime=1", "--games", "4", "--max-plies", "30", "--concurrency", "2",
    )
    assert status == 0
    assert sorted(record["number"] for record in records) == [1, 2, 3, 4]
    for record in records:
        board = Board.from_game_string(record["game_string"])
        opening_moves = record["opening"].split(";")[3:]
        assert record["game_string"].split(";")[3:][: len(opening_moves)] == opening_moves
        assert board.ply == record["plies"] <= 30
        assert record["termination"] not in FORFEITS
    pgn = (tmp_path / "out" / "games.pgn").read_text()
    assert pgn.count("[Event ") == 4 and "[GameType \"Base+MLP\"]" in pgn and "\n7. " in pgn
    # The file reads back into Games that replay to the recorded games.
    games = {int(game.headers["Round"]): game for game in read_games(tmp_path / "out" / "games.pgn")}
    assert sorted(games) == [1, 2, 3, 4]
    for record in records:
        game = games[record["number"]]
        assert (game.headers["White"], game.headers["Black"], game.result) == (
            record["white"], record["black"], record["result"])
        assert game.headers["Termination"] == record["termination"]
        assert game.comments == {record["plies"]: record["reason"]}
        assert game.board() == Board.from_game_string(record["game_string"])
        assert game.board().game_string() == record["game_string"]
        assert sum(1 for _ in game.positions()) == record["plies"] + 1
    assert "4 of 4 games played (all games played)" in summary


@pytest.mark.parametrize(
    "behaviour, flags, termination, reason",
    [
        ("hang", ["depth=1"], "hang", "no answer to 'bestmove depth 1' within 1.00 s"),
        ("crash", ["depth=1"], "crash", "exited with code 3 (on 'bestmove depth 1')"),
        ("garbage", ["depth=1"], "garbage", "answered 'the best move is obvious'"),
        ("illegal", ["depth=1"], "illegal move", "played '"),
        ("refuse", ["depth=1"], "engine error", "answered 'invalidmove I do not like that move' to 'play "),
        # From its 2nd move on, 0.3 s a move on a 1 s clock: 0.7, 0.4, 0.1 s left, then it overruns.
        ("slow", ["tc=1", "--delay", "0.3"], "time forfeit", "s left on its clock)"),
    ],
)
def test_a_misbehaving_engine_loses_that_game_and_the_match_goes_on(tmp_path, behaviour, flags, termination, reason):
    control = [flag for flag in flags if "=" in flag]
    extra = [flag for flag in flags if "=" not in flag]
    bad = fake(behaviour, "--at", "2", "--once", str(tmp_path / "claimed"), *extra)
    status, records, summary = run_arena(
        tmp_path, [[fake("random"), "name=good"], [bad, "name=bad"]],
        "--each", *control, "--games", "2", "--max-plies", "20", "--hang-timeout", "1", "--margin", "0.1",
        "--concurrency", "1",
    )
    assert status == 0
    lost, played_on = records  # bad is black in game 1, which it claims by its first `newgame`
    assert (lost["termination"], lost["result"]) == (termination, "1-0"), summary
    assert lost["reason"].startswith("bad (black) ") and reason in lost["reason"]
    if behaviour == "slow":
        assert lost["plies"] == 6 + 2 * 4 + 1  # black's 5th move
    assert played_on["termination"] == "ply limit" and played_on["plies"] == 20


def test_sprt_stops_the_match_when_h1_is_accepted(tmp_path):
    status, records, summary = run_arena(
        tmp_path, [[fake("random"), "name=good"], [fake("garbage"), "name=bad"]],
        "--each", "depth=1", "--games", "40", "--concurrency", "2",
        "--sprt", "elo0=0", "elo1=400", "alpha=0.3", "beta=0.3",
    )
    assert status == 0
    assert "H1 accepted" in summary and "(SPRT H1)" in summary
    assert 4 <= len(records) < 40  # ln(0.7 / 0.3) / ln(0.909 / 0.5) = 1.4: two pairs won
    assert all(record["result"] == ("1-0" if record["white"] == "good" else "0-1") for record in records)


def test_an_engine_that_cannot_start_stops_the_match_at_once(tmp_path, capsys):
    status, records, summary = run_arena(
        tmp_path, [[fake("random"), "name=good"], ["cmd=/nonexistent/engine", "name=missing"]], "--each", "depth=1")
    assert status == 2 and records == []
    assert "could not start '/nonexistent/engine'" in capsys.readouterr().err
    assert "0 of 100 games played" in summary


def test_engine_settings_and_defaults():
    entrant = arena.parse_entrant(["cmd=x --y", "movetime=2", "option.A=1"], ["depth=3", "option.B=2"], 1)
    assert entrant.spec.command == "x --y" and entrant.spec.name == "engine1"
    assert entrant.control == TimeControl("movetime", seconds=2.0)
    assert entrant.spec.options == (("B", "2"), ("A", "1"))
    with pytest.raises(arena.ArenaError):
        arena.parse_entrant(["cmd=x"], [], 2)


def test_interrupted_match_keeps_the_finished_games(tmp_path):
    out = tmp_path / "out"
    seed = f"{time.time_ns()}"  # marks this test's engine processes
    status, stdout = interrupted_arena(
        ["--out", str(out), "--games", "200", "--each", "depth=1", "--engine", fake("random", "--seed", seed),
         "--engine", fake("random", "--seed", seed + "1"), "--concurrency", "2", "--startup-timeout", "300",
         "--local"], out)
    assert status == 130
    games = [json.loads(line) for line in file_lines(out / "games.jsonl")]
    assert 2 <= len(games) < 200
    assert f"{len(games)} of 200 games played (interrupted)" in stdout
    assert (out / "summary.txt").read_text().strip().endswith("(interrupted)")
    assert not [cmdline for cmdline in _command_lines() if str(FAKE) in cmdline and seed in cmdline]


def _command_lines():
    lines = []
    for path in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            lines.append(path.read_bytes().replace(b"\0", b" ").decode(errors="replace"))
        except OSError:
            pass
    return lines


# --- Our engine -------------------------------------------------------------------
@pytest.mark.skipif(not (ROOT / "engine" / "__main__.py").exists(), reason="the UHP front end (issue 3) has not landed")
def test_match_between_two_instances_of_our_engine_at_depth_1(tmp_path):
    engine = "cmd=" + shlex.join([sys.executable, "-m", "engine"])
    status, records, summary = run_arena(
        tmp_path, [[engine, "name=first", f"dir={ROOT}"], [engine, "name=second", f"dir={ROOT}"]],
        "--each", "depth=1", "--games", "4", "--max-plies", "60", "--concurrency", "2", "--hang-timeout", "20",
    )
    assert status == 0 and len(records) == 4
    wins = draws = losses = 0
    for record in records:
        board = Board.from_game_string(record["game_string"], repetition_draw=True)
        assert record["termination"] not in FORFEITS, record["reason"]
        assert board.ply == record["plies"]
        if record["result"] == "1/2-1/2":
            draws += 1
        elif (record["result"] == "1-0") == (record["white"] == "first"):
            wins += 1
        else:
            losses += 1
    estimate = elo_estimate(game_counts(wins, draws, losses))
    assert f"first vs second: +{wins} ={draws} -{losses}, Elo {estimate}" in summary
    assert estimate.score == pytest.approx((wins + draws / 2) / 4)


def test_a_fan_game_type_needs_its_tokens_among_the_capabilities():
    assert required_capabilities("Base") == set()
    assert required_capabilities("Base+MLP") == {"Mosquito", "Ladybug", "Pillbug"}
    assert required_capabilities("Base+P+Guardians+Dx") == {"Pillbug", "Guardians", "Dx"}


def test_without_dask_the_arena_plays_on_its_threads_or_says_how_to_install_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` raises ImportError
    monkeypatch.delitem(sys.modules, "bench.cluster", raising=False)
    engines = ["--engine", fake("random"), "name=one", "--engine", fake("random"), "name=two", "--each", "depth=1"]
    out = tmp_path / "out"
    assert arena.run([*engines, "--out", str(out), "--scheduler", "tcp://127.0.0.1:8786"]) == 2
    assert "--scheduler needs Dask distributed: pip install -e '.[bench]'" in capsys.readouterr().err
    assert arena.run([*engines, "--out", str(out), "--games", "2", "--max-plies", "10", "--concurrency", "1"]) == 0
    assert "note: Dask is not installed (pip install -e '.[bench]'): playing on this process's threads" in (
        capsys.readouterr().err)
    assert len(read_records(out)) == 2


def test_a_resumed_match_counts_the_games_on_file_once_and_refuses_others(tmp_path):
    from bench.records import GameLog
    from bench.referee import GameSettings
    from bench.tournament import Entrant, Tournament
    from bench.uhp_client import EngineSpec

    entrants = [Entrant(EngineSpec(name, "x"), TimeControl("depth", depth=1)) for name in ("a", "b")]
    tasks = schedule(2, ["o1", "o2"], 4)
    on_file = [{"white": "a", "black": "b", "round": 1, "pair": 1, "opening": "o1", "result": "1-0",
                "termination": "x"},
               {"white": "b", "black": "a", "pair": 2, "opening": "o2", "result": "1-0", "termination": "x"}]
    scoreboard = Scoreboard(["a", "b"])
    tournament = Tournament(entrants, tasks, GameSettings(), GameLog(tmp_path), scoreboard,
                            played=on_file + on_file[:1])  # a line written twice counts once
    assert scoreboard.played == 2 and scoreboard.totals("a") == (1, 0, 1)
    # The second record, of an older arena, has no round: pair 2 of a match is its round 2.
    assert [task.number for task in tournament.pending] == [2, 3]
    record = dict(on_file[0], number=1)
    assert tournament.accept(record) and scoreboard.played == 2  # a game delivered again is not counted again
    for other in ({"white": "a", "black": "c"}, {"opening": "o2"}, {"round": 3}):
        with pytest.raises(arena.ArenaError, match="is not one of this match's games"):
            Tournament(entrants, tasks, GameSettings(), GameLog(tmp_path), Scoreboard(["a", "b"]),
                       played=[dict(on_file[0], **other)])


def test_a_record_cut_short_by_a_kill_is_dropped_when_the_match_resumes(tmp_path):
    from bench.records import GAMES_FILE, resume_records

    path = tmp_path / GAMES_FILE
    whole = [json.dumps({"number": n}) for n in (1, 2)]
    path.write_text(whole[0] + "\n" + whole[1] + "\n" + '{"number": 3, "whi')
    assert resume_records(tmp_path) == ([{"number": 1}, {"number": 2}], True)
    assert path.read_text() == whole[0] + "\n" + whole[1] + "\n"
    path.write_text(whole[0] + "\n" + whole[1])  # whole, but for its newline
    assert resume_records(tmp_path) == ([{"number": 1}, {"number": 2}], False)
    assert path.read_text().endswith("}\n")
    assert resume_records(tmp_path / "none") == ([], False)
