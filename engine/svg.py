"""SVG pictures from the command line (the drawing is engine/io/svg.py):

    python -m engine.svg 'Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-' --legal wQ > board.svg

`python -m engine.svg --help` for the options; README.md, "Pictures", has the
command that drew docs/midgame.svg. `engine.svg.board_svg` and `pv_arrows` are
the drawing's, kept at this path for programs that import them from here.
"""

import argparse
import sys

from .game import Board
from .io.svg import board_svg, pv_arrows
from .rules.notation import parse_piece

__all__ = ["board_svg", "pv_arrows", "main"]


def main(argv=None):
    """`python -m engine.svg GAMESTRING [options]`: the position's picture on stdout."""
    parser = argparse.ArgumentParser(prog="python -m engine.svg", description="Draw a Hive position as SVG.")
    parser.add_argument("game_string", nargs="?", default="Base", help="a GameString or a game type (default Base)")
    parser.add_argument("--size", type=float, default=30, help="a hexagon's radius in pixels (30)")
    parser.add_argument("--flipped", action="store_true", help="seen from Black's side")
    parser.add_argument("--rotation", type=int, default=0, help="sixths of a turn clockwise")
    parser.add_argument("--legal", metavar="PIECE", help="highlight the legal destinations of this piece, e.g. wA1")
    parser.add_argument("--pv", metavar="MOVES", help="arrows for a line of moves, ';'-separated")
    parser.add_argument("--no-last-move", action="store_true", help="do not draw the last move")
    parser.add_argument("--no-hands", action="store_true", help="do not draw the hands")
    parser.add_argument("--coordinates", action="store_true", help="write each cell's axial (q, r)")
    args = parser.parse_args(argv)

    board = Board.from_game_string(args.game_string) if ";" in args.game_string else Board(args.game_string)
    highlights = ()
    if args.legal:
        piece = parse_piece(args.legal)
        highlights = [move.dest for move in board.legal_moves if move.piece == piece]
    arrows = pv_arrows(board, [m for m in args.pv.split(";") if m.strip()]) if args.pv else ()
    picture = board_svg(
        board,
        size=args.size,
        flipped=args.flipped,
        rotation=args.rotation,
        highlights=highlights,
        arrows=arrows,
        last_move=not args.no_last_move,
        show_hands=not args.no_hands,
        coordinates=args.coordinates,
    )
    sys.stdout.write(picture + "\n")


if __name__ == "__main__":
    main()
