"""Opening positions for matches: a file of GameStrings, or random ones from a seed.

    python -m bench.openings Base+MLP --count 100 --seed 1 > bench/data/openings-Base+MLP.txt

An opening is three random legal placements by each side (6 plies), kept when
it is balanced by two simple counts:
 - the Queens: both still in hand, or both on the board with as many
   neighbours each (pieces next to a Queen are what wins or loses Hive);
 - the room to grow: each side has at least MIN_PLACEMENT_CELLS cells where it
   may place a piece, and the two counts differ by at most one (a side with
   fewer cells is boxed in);
 - nothing forced: a search of FORCED_END_DEPTH plies finds no win for either
   side (with the Predators, a free enemy Mantis takes a Queen placed on the
   fourth turn: 11 of the first 50 Base+MP+Venom+Predators openings shipped
   were lost that way by the side that had not placed her);
and when no opening kept before it is the same position turned or mirrored (the
twelve symmetries of the hex grid). Each opening is played twice with colours
swapped, so what imbalance is left cancels out of the match score.
"""

import argparse
import random
from pathlib import Path

from engine.game import BLACK, WHITE, Board, axial
from engine.search.search import Searcher, mate_in

DATA = Path(__file__).resolve().parent / "data"
OPENING_PLIES = 6
MIN_PLACEMENT_CELLS = 3
MAX_TRIES_PER_OPENING = 1000
FORCED_END_DEPTH = 4  # a Queen placed on ply 7 or 8 and taken on the next


def default_openings_file(game_type):
    """The shipped openings for a game type, or None if there are none."""
    path = DATA / f"openings-{game_type}.txt"
    return path if path.exists() else None


def load_openings(path):
    """GameStrings from a file, one a line; `#` starts a comment line. Each is
    replayed with full legality checks, so a bad line fails here, not mid-match."""
    openings = []
    for number, line in enumerate(Path(path).read_text().splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            board = Board.from_game_string(line)
        except ValueError as error:
            raise ValueError(f"{path}:{number}: {error}") from None
        if board.is_game_over():
            raise ValueError(f"{path}:{number}: the game is already over")
        openings.append(board.game_string())
    if not openings:
        raise ValueError(f"{path}: no openings")
    return openings


def random_opening(game_type, plies, rng, *, placements_first=True, repetition_draw=False):
    """A board after `plies` random legal moves (fewer if the game ends), drawn
    by `rng` (a random.Random): placements while there are any, or with
    placements_first=False uniformly among all legal moves."""
    board = Board(game_type, repetition_draw=repetition_draw)
    for _ in range(plies):
        moves = board.legal_moves
        if not moves:
            break
        if placements_first:
            moves = [move for move in moves if not move.is_pass and board.piece_cell(move.piece) < 0] or moves
        board.push(rng.choice(moves))
    return board


def is_balanced(board, searcher=None):
    """The three checks of the module's docstring; `searcher` (a Searcher, one
    made here if None) is given a new game for each board, so the answer does
    not depend on the boards before it."""
    white, black = (len(board.placement_cells(color)) for color in (WHITE, BLACK))
    if not (board.queen_neighbours(WHITE) == board.queen_neighbours(BLACK)
            and min(white, black) >= MIN_PLACEMENT_CELLS and abs(white - black) <= 1):
        return False
    searcher = searcher or Searcher()
    searcher.new_game()
    return mate_in(searcher.search(board, depth=FORCED_END_DEPTH).score) is None


def _symmetries(q, r):
    """The twelve images of axial (q, r): six rotations, each also mirrored.
    In cube coordinates (x, y, z) = (q, -q - r, r) a turn by 60 degrees is
    (x, y, z) -> (-z, -x, -y) and swapping y and z is a mirror."""
    x, y, z = q, -q - r, r
    images = []
    for _ in range(6):
        images.append((x, z))
        images.append((x, y))
        x, y, z = -z, -x, -y
    return images


def position_key(board):
    """The same for two boards whose pieces stand alike (and show the same faces)
    up to a turn, a mirror and a shift of the whole hive."""
    placed = [(board.name(piece), level, _symmetries(*axial(cell))) for piece, cell, level in board.pieces_in_play()]
    candidates = []
    for k in range(12):
        points = [(image[k], name, level) for name, level, image in placed]
        q0, r0 = min(point for point, _, _ in points)
        candidates.append(tuple(sorted((q - q0, r - r0, level, name) for (q, r), name, level in points)))
    return min(candidates), board.side_to_move


def generate_openings(game_type, count, seed, plies=OPENING_PLIES):
    """`count` distinct balanced openings of `plies` plies, the same for the same seed."""
    rng = random.Random(seed)
    searcher = Searcher()
    seen = set()
    openings = []
    for _ in range(count * MAX_TRIES_PER_OPENING):
        if len(openings) == count:
            return openings
        board = random_opening(game_type, plies, rng)
        key = position_key(board)
        if board.is_game_over() or key in seen or not is_balanced(board, searcher):
            continue
        seen.add(key)
        openings.append(board.game_string())
    raise ValueError(f"found only {len(openings)} balanced {game_type} openings of {plies} plies")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game_type", help="Base, Base+MLP, ...")
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--plies", type=int, default=OPENING_PLIES)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"# {args.count} balanced {args.game_type} openings of {args.plies} plies (bench/openings.py), made with")
    print(f"# python -m bench.openings {args.game_type} --count {args.count} --plies {args.plies} --seed {args.seed}")
    for opening in generate_openings(args.game_type, args.count, args.seed, args.plies):
        print(opening)


if __name__ == "__main__":
    main()
