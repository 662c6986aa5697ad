"""Where games are played, as the match runner, self-play and the tuner take it
from their command lines: on Dask distributed (bench/cluster.py, the `bench`
extra), a LocalCluster by default or the cluster at --scheduler ADDRESS, or
with --local (and without Dask) in the runner's own process.
"""

import sys

INSTALL_DASK = "pip install -e '.[bench]'"


class WhereError(ValueError):
    """The games cannot be played where asked (Dask missing, contradictory options)."""


def add_arguments(parser, local_help="play in this process, not on Dask"):
    """--scheduler and --local (the callers have their own --concurrency)."""
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="play on the Dask cluster of this scheduler (e.g. tcp://10.0.0.5:8786)")
    parser.add_argument("--local", action="store_true", help=local_help)


def cluster_from(args, workers, where="this process"):
    """A bench.cluster.Cluster for the games of `args` (a LocalCluster of
    `workers` processes unless --scheduler), or None to play them in `where`:
    with --local, or with a note on stderr when Dask is not installed."""
    if args.local:
        if args.scheduler:
            raise WhereError("--local and --scheduler exclude each other")
        return None
    try:
        from .cluster import Cluster
    except ImportError:
        if args.scheduler:
            raise WhereError(f"--scheduler needs Dask distributed: {INSTALL_DASK}") from None
        print(f"note: Dask is not installed ({INSTALL_DASK}): playing on {where}", file=sys.stderr)
        return None
    return Cluster(args.scheduler, workers=max(1, workers))
