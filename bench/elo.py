"""Elo and SPRT arithmetic for match results.

Scores are fractions of the maximum (a game: 0, 1/2, 1; a pair of games with
colours swapped: 0, 1/4, 1/2, 3/4, 1), and a result is a mapping from score to
how often it happened. The Elo model is the logistic one: an expected score s
means a difference of -400 log10(1/s - 1).

The SPRT is the generalized SPRT of fishtest and cutechess: the log-likelihood
ratio of the two hypotheses "the expected score is s1" and "is s0", each taken
at the maximum-likelihood distribution of outcomes that has that expectation
(a multinomial over the observed score values). Wald's bounds decide.
"""

import math
from typing import NamedTuple

Z_95 = 1.959963984540054  # two-sided 95% quantile of the normal distribution

# Outcomes not seen yet get this small count, so that the likelihood ratio stays
# finite while, say, every pair so far has been won (fishtest regularizes so).
UNSEEN_COUNT = 1e-3

GAME_SCORES = (0.0, 0.5, 1.0)
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)


def elo_from_score(score):
    """Elo difference for an expected score (inf at 1, -inf at 0)."""
    if score >= 1.0:
        return math.inf
    if score <= 0.0:
        return -math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: no "-0.0" at an even score


def score_from_elo(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def mean_and_variance(counts):
    """Mean score and per-outcome variance of a {score: count} result."""
    total = sum(counts.values())
    mean = sum(score * n for score, n in counts.items()) / total
    variance = sum(n * (score - mean) ** 2 for score, n in counts.items()) / total
    return mean, variance


class EloEstimate(NamedTuple):
    elo: float
    margin: float  # half the width of the 95% interval, in Elo
    score: float
    games: int  # outcomes counted (games, or pairs)

    def __str__(self):
        if math.isnan(self.elo):
            return "n/a"
        if math.isinf(self.elo):
            return f"{self.elo:+.0f}"
        return f"{self.elo:+.1f} +/- {self.margin:.1f}"


def elo_estimate(counts):
    """Elo difference and its 95% error bar from a {score: count} result: the
    normal interval of the mean score, mapped to Elo, half its width (as
    cutechess reports it)."""
    total = sum(counts.values())
    if total == 0:
        return EloEstimate(math.nan, math.nan, math.nan, 0)
    mean, variance = mean_and_variance(counts)
    deviation = Z_95 * math.sqrt(variance / total)
    low, high = elo_from_score(mean - deviation), elo_from_score(mean + deviation)
    return EloEstimate(elo_from_score(mean), (high - low) / 2, mean, total)


def game_counts(wins, draws, losses):
    return {1.0: wins, 0.5: draws, 0.0: losses}


def _tilt(probabilities, scores, target):
    """The distribution nearest (in likelihood) to `probabilities` whose mean
    is `target`: p_i / (1 + theta (a_i - target)), with theta the root of
    sum p_i (a_i - t) / (1 + theta (a_i - t)) = 0 (a Lagrange multiplier; the
    sum falls as theta grows, so bisection finds it). Returns theta."""
    offsets = [a - target for a in scores]
    low, high = -1.0 / max(offsets), -1.0 / min(offsets)  # where a denominator reaches 0

    def slope(theta):
        return sum(p * d / (1.0 + theta * d) for p, d in zip(probabilities, offsets))

    for _ in range(200):
        middle = (low + high) / 2
        if slope(middle) > 0:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def log_likelihood_ratio(counts, elo0, elo1):
    """GSPRT log-likelihood ratio of H1 (Elo difference elo1) against H0 (elo0)
    for a {score: count} result. Both expected scores must lie strictly
    between the lowest and the highest score observed."""
    scores = [score for score, n in counts.items() if n > 0]
    total = sum(counts[score] for score in scores)
    probabilities = [counts[score] / total for score in scores]
    ratio = 0.0
    for elo, sign in ((elo1, 1.0), (elo0, -1.0)):
        target = score_from_elo(elo)
        theta = _tilt(probabilities, scores, target)
        # log of p_hat / p_H = log(1 + theta (a - target)), weighted by p_hat
        ratio -= sign * sum(p * math.log1p(theta * (a - target)) for p, a in zip(probabilities, scores))
    return total * ratio


class SprtStatus(NamedTuple):
    llr: float
    lower: float  # accept H0 at or below
    upper: float  # accept H1 at or above

    @property
    def decision(self):
        """"H0", "H1" or None while the test goes on."""
        if self.llr >= self.upper:
            return "H1"
        if self.llr <= self.lower:
            return "H0"
        return None

    def __str__(self):
        return f"LLR {self.llr:+.2f} ({self.lower:+.2f}, {self.upper:+.2f})"


class Sprt(NamedTuple):
    """A test of H0: Elo difference elo0 against H1: elo1, with false-positive
    rate alpha and false-negative rate beta."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def status(self, counts, all_scores):
        """The test on a {score: count} result whose possible scores are
        `all_scores` (GAME_SCORES or PAIR_SCORES)."""
        lower = math.log(self.beta / (1 - self.alpha))
        upper = math.log((1 - self.beta) / self.alpha)
        if sum(counts.values()) == 0:
            return SprtStatus(0.0, lower, upper)
        regularized = {score: counts.get(score, 0) or UNSEEN_COUNT for score in all_scores}
        return SprtStatus(log_likelihood_ratio(regularized, self.elo0, self.elo1), lower, upper)

    def __str__(self):
        return f"SPRT elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g} beta={self.beta:g}"
