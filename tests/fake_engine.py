"""A tiny UHP engine for the arena tests: a random mover that can misbehave.

    python tests/fake_engine.py BEHAVIOUR [--at N] [--once MARKER] [--delay S] [--seed K]

BEHAVIOUR is `random` (plays random legal moves) or the way it misbehaves at
its N-th `bestmove` of a game: `hang`, `crash`, `garbage`, `illegal` (a
well-formed move the rules forbid), `slow` (sleeps S seconds before this and
every later move), `error` (answers `err`) or `refuse` (answers `invalidmove`
to the next `play`). With --once it misbehaves in one game only: the first
that any process claims by creating MARKER.
"""

import argparse
import os
import random
import sys
import time


def claim(marker):
    """True for the one caller that creates `marker` (atomic across processes)."""
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        return True
    except FileExistsError:
        return False


def illegal_move(board):
    """A MoveString that parses but that the rules forbid here."""
    from engine.rules.errors import IllegalMoveError
    from engine.rules.notation import piece_name

    names = [piece_name(piece) for piece in range(28)]
    for piece in names:
        for reference in names:
            for text in (f"{piece} {reference}-", f"{piece} {reference}"):
                try:
                    board.parse_uhp(text)
                except IllegalMoveError:
                    return text
                except ValueError:
                    continue
    raise AssertionError("no illegal move found")


class FakeEngine:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.board = None
        self.moves_asked = 0
        self.misbehaving = False

    def answer(self, *lines):
        for line in lines:
            print(line)
        print("ok", flush=True)

    def new_game(self, argument):
        from engine.game import Board

        self.board = Board.from_game_string(argument) if ";" in argument else Board(argument or "Base")
        self.moves_asked = 0
        self.misbehaving = self.args.behaviour != "random" and (not self.args.once or claim(self.args.once))
        self.answer(self.board.game_string())

    def best_move(self):
        self.moves_asked += 1
        behaviour = self.args.behaviour if self.misbehaving and self.moves_asked >= self.args.at else "random"
        if behaviour == "hang":
            time.sleep(3600)
        elif behaviour == "crash":
            sys.exit(3)
        elif behaviour == "garbage":
            return self.answer("the best move is obvious")
        elif behaviour == "illegal":
            return self.answer(illegal_move(self.board))
        elif behaviour == "error":
            return self.answer("err I would rather not")
        elif behaviour == "slow":
            time.sleep(self.args.delay)
        self.answer(self.board.uhp(self.rng.choice(self.board.legal_moves)))

    def play(self, move):
        if self.args.behaviour == "refuse" and self.misbehaving and self.moves_asked >= self.args.at:
            return self.answer("invalidmove I do not like that move")
        try:
            self.board.push_uhp(move)
        except ValueError as error:
            return self.answer(f"invalidmove {error}")
        self.answer(self.board.game_string())

    def run(self):
        from engine.rules.bugs import CAPABILITIES  # plain Python: no numpy before the banner

        self.answer("id fake v1", CAPABILITIES)
        # Like a real engine, load the kernels after the banner and before the
        # first command, which waits for them (they may compile on a new machine).
        from engine.game import Board

        Board("Base+MLP").push_uhp("wS1")
        for line in sys.stdin:
            words = line.split()
            if not words:
                continue
            command, rest = words[0].lower(), line.strip()[len(words[0]):].strip()
            if command == "exit":
                return
            if command == "info":
                self.answer("id fake v1", CAPABILITIES)
            elif command == "newgame":
                self.new_game(rest)
            elif command == "play":
                self.play(rest)
            elif command == "bestmove":
                self.best_move()
            elif command == "options" and len(words) == 4:
                self.answer(f"{words[2]};int;{words[3]};0")
            else:
                self.answer(f"err unknown command {line.strip()}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("behaviour", choices=("random", "hang", "crash", "garbage", "illegal", "slow", "error",
                                              "refuse"))
    parser.add_argument("--at", type=int, default=1)
    parser.add_argument("--once")
    parser.add_argument("--delay", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=0)
    FakeEngine(parser.parse_args()).run()


if __name__ == "__main__":
    main()
