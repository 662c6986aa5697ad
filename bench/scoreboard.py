"""Match scores: who beat whom, Elo estimates and the SPRT, and their text.

Games come in pairs (one opening, colours swapped); a pair's two games give
the pentanomial count (0, 1/2, 1, 3/2 or 2 points) that the SPRT uses, since
the two games of a pair are not independent.
"""

from collections import Counter
from itertools import combinations

from .elo import PAIR_SCORES, elo_estimate, game_counts
from .referee import BLACK_WON, DRAWN, WHITE_WON

POINTS = {WHITE_WON: (1.0, 0.0), BLACK_WON: (0.0, 1.0), DRAWN: (0.5, 0.5)}


class PairingScore:
    """Results between engines `first` and `second`, from `first`'s view."""

    def __init__(self):
        self.games = Counter()  # points of `first` in a game -> games
        self.pairs = Counter()  # points of `first` in a pair, halved -> pairs
        self._half_pairs = {}  # pair id -> points of `first` in the pair's first game

    def add(self, points, pair):
        self.games[points] += 1
        if pair in self._half_pairs:
            self.pairs[(self._half_pairs.pop(pair) + points) / 2] += 1
        else:
            self._half_pairs[pair] = points

    @property
    def wins(self):
        return self.games[1.0]

    @property
    def draws(self):
        return self.games[0.5]

    @property
    def losses(self):
        return self.games[0.0]


class Scoreboard:
    """Every finished game's score, for tables, the live line and the SPRT
    (which tests the first engine named against the second). `pairs_before`
    are the pentanomial counts of a test continued from counts on record (its
    games lost): the SPRT adds them, the game tables do not."""

    def __init__(self, names, sprt=None, pairs_before=None):
        self.names = list(names)
        self.sprt = sprt
        self.pairs_before = Counter(pairs_before or {})
        self.played = 0
        self.terminations = Counter()
        self.pairings = {pair: PairingScore() for pair in combinations(self.names, 2)}

    def add(self, record):
        """Count one game record (a dict with white, black, result, pair, termination)."""
        self.played += 1
        self.terminations[record["termination"]] += 1
        white, black = record["white"], record["black"]
        white_points, black_points = POINTS[record["result"]]
        if (white, black) in self.pairings:
            self.pairings[white, black].add(white_points, record["pair"])
        else:
            self.pairings[black, white].add(black_points, record["pair"])

    def totals(self, name):
        """(wins, draws, losses) of one engine against all the others."""
        wins = draws = losses = 0
        for (first, second), score in self.pairings.items():
            if name == first:
                wins, draws, losses = wins + score.wins, draws + score.draws, losses + score.losses
            elif name == second:
                wins, draws, losses = wins + score.losses, draws + score.draws, losses + score.wins
        return wins, draws, losses

    def sprt_status(self):
        if self.sprt is None:
            return None
        return self.sprt.status(self._sprt_pairs(), PAIR_SCORES)

    def _sprt_pairs(self):
        """The pentanomial counts the SPRT tests: this match's, and those before it."""
        return self.pairings[tuple(self.names[:2])].pairs + self.pairs_before

    # --- Text --------------------------------------------------------------------
    def progress_line(self, total):
        """One line for the terminal while the match runs."""
        parts = [f"[{self.played}/{total}]"]
        if len(self.names) == 2:
            (first, second), score = next(iter(self.pairings.items()))
            estimate = elo_estimate(score.games)
            parts.append(f"{first} vs {second}: +{score.wins} ={score.draws} -{score.losses}")
            if estimate.games:
                parts.append(f"{100 * estimate.score:.1f}%  Elo {estimate}")
            if self.sprt is not None:
                parts.append(str(self.sprt_status()))
        else:
            for name in self.names:
                estimate = elo_estimate(game_counts(*self.totals(name)))
                if estimate.games:
                    parts.append(f"{name} {100 * estimate.score:.0f}%")
        return "  ".join(parts)

    def table(self):
        """The final table: standings, each pairing, the SPRT and how games ended."""
        width = max(len(name) for name in self.names + ["engine"])
        lines = [f"{'engine':<{width}}  games   wins  draws losses  score  Elo (95%)" + (
            "" if len(self.names) == 2 else " vs the field")]
        standings = sorted(self.names, key=lambda name: -_score(self.totals(name)))
        for name in standings:
            wins, draws, losses = self.totals(name)
            estimate = elo_estimate(game_counts(wins, draws, losses))
            score = f"{100 * estimate.score:5.1f}%" if estimate.games else "     -"
            lines.append(
                f"{name:<{width}}  {estimate.games:5d}  {wins:5d}  {draws:5d}  {losses:5d}  {score}  {estimate}"
            )
        lines.append("")
        for (first, second), score in self.pairings.items():
            pairs = "-".join(str(score.pairs[s]) for s in PAIR_SCORES)
            lines.append(
                f"{first} vs {second}: +{score.wins} ={score.draws} -{score.losses}, Elo {elo_estimate(score.games)}"
                f"; pairs 0-2 points {pairs}, Elo {elo_estimate(score.pairs)}"
            )
        status = self.sprt_status()
        if status is not None:
            verdict = {"H1": "H1 accepted", "H0": "H0 accepted", None: "no decision"}[status.decision]
            before = self.pairs_before
            if before:
                counts = "-".join(str(before[s]) for s in PAIR_SCORES)
                lines.append(f"pairs before this match (counts on record) {counts}, Elo {elo_estimate(before)}; "
                             f"with them {elo_estimate(self._sprt_pairs())}")
            lines.append(f"{self.sprt}: {status}, {verdict}")
        ended = ", ".join(f"{name} {count}" for name, count in self.terminations.most_common())
        lines.append(f"games ended by: {ended or '-'}")
        return "\n".join(lines)


def _score(wins_draws_losses):
    wins, draws, losses = wins_draws_losses
    games = wins + draws + losses
    return (wins + draws / 2) / games if games else 0.0
