"""The colours of the public API, python-chess's: WHITE is True and BLACK is False,
so that `if board.turn:` reads "if White is to move".

Inside, the engine counts sides 0 (White) and 1 (Black): the kernels' arrays are
indexed by side, as `Board.side_to_move` and `engine.rl`'s players are. A colour
becomes a side in one place, `side_index`, and a side a colour in `side_color`;
indexing an array by a colour itself would pick the wrong side (True is 1).

>>> side_index(WHITE), side_index(BLACK), side_color(0), side_color(1)
(0, 1, True, False)
"""

import sys
import warnings
from pathlib import Path

import numpy as np

__all__ = ["WHITE", "BLACK", "side_index", "side_color"]

WHITE = True
BLACK = False

_PACKAGE = str(Path(__file__).resolve().parent)


def warn_deprecated(message):
    """A DeprecationWarning at the first caller outside the package, the code
    that has to change (Python 3.12's skip_file_prefixes, by hand). The
    deprecated forms of the Board's API warn through it too."""
    frame, level = sys._getframe(1), 2
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, DeprecationWarning, stacklevel=level)


def side_index(color):
    """The side of a colour: 0 for WHITE, 1 for BLACK. The colours before
    python-chess's, 0 (White) and 1 (Black), are still read, with a
    DeprecationWarning."""
    if isinstance(color, (bool, np.bool_)):
        return 0 if color else 1
    if not isinstance(color, (int, np.integer)):
        raise TypeError(f"a colour is WHITE (True) or BLACK (False), not {type(color).__name__}")
    if color not in (0, 1):
        raise ValueError(f"a colour is WHITE (True) or BLACK (False), not {color}")
    warn_deprecated(f"the colour {color} is deprecated: colours are WHITE (True) and BLACK (False), as "
                    "python-chess's; 0 and 1 are sides (side_index, Board.side_to_move)")
    return int(color)


def side_color(side):
    """The colour of a side (0 or 1): WHITE or BLACK."""
    if side not in (0, 1) or isinstance(side, (bool, np.bool_)):
        raise ValueError(f"a side is 0 (White) or 1 (Black), not {side!r}")
    return bool(side == 0)
