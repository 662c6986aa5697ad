"""The research interface against OpenSpiel's `hive`, measured in one run.

    pip install -e '.[openspiel]'
    python -m bench.openspiel [--seconds 2] [--positions 20] [--seed 1]

Three measures, each on the same positions for both libraries, CPU time of this
process (so that a loaded machine slows both alike), best of --repeats:

- playouts/s: random games from the start to their end or 500 plies (OpenSpiel's
  max_game_length), each ply a legal action list and a uniform choice, driven
  from Python; for hexbee also its compiled engine.rl.playouts.
- clone + apply/s: from mid-game positions, clone the state and apply one legal
  action (in turn each of them), and the same as one call, `child(action)`; for
  hexbee also apply_unchecked, and Board's copy() + push() for reference.
- move lists/s: the legal actions of mid-game positions; for hexbee also
  Board.legal_moves.

The mid-game positions come from random OpenSpiel games (plies 10 to 60, every
fifth), each loaded into a hexbee Board from its GameString; a position that
hexbee finds illegal (OpenSpiel's rules differ, see the README) is skipped.
Without open_spiel installed, hexbee is measured alone on its own random games.
"""

import argparse
import platform
import random
import sys
import time

from engine.rules.errors import IllegalMoveError, NotationError
from engine.game import Board
from engine.rl import State, playouts

MAX_PLIES = 500


def rate(work, seconds, repeats):
    """Best calls per CPU second of `work()` (which returns how many it did)."""
    best = 0.0
    for _ in range(repeats):
        done, start = 0, time.process_time()
        while (spent := time.process_time() - start) < seconds:
            done += work()
        best = max(best, done / spent)
    return best


# --- The positions --------------------------------------------------------------
def spiel_positions(spiel_game, count, seed):
    """[(OpenSpiel state, hexbee Board)] of one position each, from random games."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = spiel_game.new_initial_state()
        for ply in range(61):
            if state.is_terminal():
                break
            if ply >= 10 and ply % 5 == 0:
                try:
                    found.append((state.clone(), Board.from_game_string(str(state))))
                except (IllegalMoveError, NotationError):
                    break  # OpenSpiel's game left hexbee's rules: skip the rest of it
            state.apply_action(rng.choice(state.legal_actions()))
    return found[:count]


def own_positions(count, seed):
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        board = Board("Base+MLP")
        for ply in range(61):
            if board.is_game_over():
                break
            if ply >= 10 and ply % 5 == 0:
                found.append((None, board.copy()))
            board.push(rng.choice(board.legal_moves))
    return found[:count]


# --- The work, one call a unit ----------------------------------------------------
def python_playout(new_state, seed, plies):
    """One random game driven from Python through an OpenSpiel-shaped state;
    adds its length to plies[0]."""
    rng = random.Random(seed)
    state = new_state()
    played = 0
    while not state.is_terminal() and played < MAX_PLIES:
        state.apply_action(int(rng.choice(state.legal_actions())))
        played += 1
    plies[0] += played
    return 1


def each_action(states, play):
    """Call play(state, action) for each state with one of its legal actions, in
    turn each one."""
    actions = [list(state.legal_actions()) for state in states]
    turn = [0]

    def work():
        k = turn[0]
        turn[0] += 1
        for state, legal in zip(states, actions):
            play(state, int(legal[k % len(legal)]))
        return len(states)

    return work


def clone_apply(states, method):
    """Clone each state and apply one of its legal actions with `method`."""
    return each_action(states, lambda state, action: getattr(state.clone(), method)(action))


def children(states):
    """state.child(action): the clone and the apply in one call (both libraries have it)."""
    return each_action(states, lambda state, action: state.child(action))


def board_copy_push(boards):
    moves = [board.legal_moves for board in boards]

    def work():
        for board, legal in zip(boards, moves):
            board.copy().push(legal[0])
        return len(boards)

    return work


def move_lists(states):
    def work():
        for state in states:
            state.legal_actions()
        return len(states)

    return work


def board_move_lists(boards):
    def work():
        for board in boards:
            board.legal_moves  # noqa: B018 (the property is the work)
        return len(boards)

    return work


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.openspiel", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per measure and repeat")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        import pyspiel
    except ImportError:
        pyspiel = None
        print("open_spiel is not installed (pip install -e '.[openspiel]'): hexbee alone", file=sys.stderr)
    spiel_game = pyspiel.load_game("hive") if pyspiel else None
    pairs = spiel_positions(spiel_game, args.positions, args.seed) if spiel_game else own_positions(
        args.positions, args.seed)
    boards = [board for _, board in pairs]
    ours = [State.from_board(board) for board in boards]
    seeds = iter(range(10**9))
    compiled = State("Base+MLP")

    lengths = {}  # plies played by each playout measure, for the mean game length

    def counted(name):
        lengths[name] = [0, 0]  # plies, games
        return lengths[name]

    def compiled_playouts(tally=counted("compiled")):
        _, plies = playouts(compiled, 10, next(seeds), MAX_PLIES)
        tally[0] += plies
        tally[1] += 10
        return 10

    def python_playouts(new_state, tally):
        def work():
            tally[1] += 1
            return python_playout(new_state, next(seeds), tally)
        return work

    rows = []  # (measure, hexbee way, hexbee rate, OpenSpiel rate or None)
    measures = [
        ("playouts/s", "State from Python", python_playouts(lambda: State("Base+MLP"), counted("ours")),
         python_playouts(spiel_game.new_initial_state, counted("spiel")) if spiel_game else None),
        ("playouts/s", "engine.rl.playouts (compiled)", compiled_playouts, None),
        ("clone + apply/s", "State.clone + apply_action", clone_apply(ours, "apply_action"),
         clone_apply([spiel for spiel, _ in pairs], "apply_action") if spiel_game else None),
        ("clone + apply/s", "State.clone + apply_unchecked", clone_apply(ours, "apply_unchecked"), None),
        ("clone + apply/s", "State.child", children(ours),
         children([spiel for spiel, _ in pairs]) if spiel_game else None),
        ("clone + apply/s", "Board.copy + push", board_copy_push(boards), None),
        ("move lists/s", "State.legal_actions", move_lists(ours),
         move_lists([spiel for spiel, _ in pairs]) if spiel_game else None),
        ("move lists/s", "Board.legal_moves", board_move_lists(boards), None),
    ]
    playouts(compiled, 1, 0, 10)  # load the kernels before the clock starts
    for measure, way, mine, theirs in measures:
        ours_rate, spiel_rate = 0.0, None
        # Alternate the two, so that a change in the machine's load falls on both.
        for _ in range(args.repeats):
            ours_rate = max(ours_rate, rate(mine, args.seconds, 1))
            if theirs is not None:
                spiel_rate = max(spiel_rate or 0.0, rate(theirs, args.seconds, 1))
        rows.append((measure, way, ours_rate, spiel_rate))
        print(f"{measure:16} {way:32} {ours_rate:12,.0f}" + (f" {spiel_rate:12,.0f}" if spiel_rate else ""),
              file=sys.stderr, flush=True)
    version = getattr(pyspiel, "__version__", "") if pyspiel else "not installed"
    print(f"\n{len(pairs)} mid-game positions (seed {args.seed}), CPU time, best of {args.repeats}, "
          f"OpenSpiel {version}; {platform.processor() or platform.machine()}, "
          f"Python {platform.python_version()}\n")
    mean = {name: plies / games for name, (plies, games) in lengths.items() if games}
    print("Mean length of the random games (plies, at most 500): "
          + ", ".join(f"{name} {value:.0f}" for name, value in mean.items()) + "\n")
    print("| measure | hexbee | OpenSpiel `hive` | ratio |")
    print("|---|---|---|---|")
    tallies = {"State from Python": ("ours", "spiel"), "engine.rl.playouts (compiled)": ("compiled", None)}
    for measure, way, ours_rate, spiel_rate in rows:
        lines = [(measure, ours_rate, spiel_rate)]
        if way in tallies:  # the same games counted in plies, since the two rule sets play them to other lengths
            mine, theirs = tallies[way]
            lines.append(("plies of those/s", ours_rate * mean[mine], spiel_rate and spiel_rate * mean[theirs]))
        for label, a, b in lines:
            theirs_text = f"{b:,.0f}" if b else ""
            ratio = f"{a / b:.1f}x" if b else ""
            print(f"| {label} | {way}: {a:,.0f} | {theirs_text} | {ratio} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
