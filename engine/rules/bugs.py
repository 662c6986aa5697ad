"""The table of bugs: one row per bug kind, and everything per bug derived from it.

Piece ids and names, notation letters, copies, the expansions of the game types,
the capabilities line, the movement and ability bits the move generator dispatches
on, and the evaluation's default weights all come from `BUGS`. Adding a bug is a
row here, its kernels in movegen.py (if it needs a new movement or ability) and its
tests. Capacities that the rows imply are checked in constants.py at import.

Plain Python, so that the banner can name the capabilities before numpy or numba
is imported; constants.py turns the columns into the arrays the kernels read.
"""

from itertools import accumulate, combinations
from typing import NamedTuple, Optional

# --- Movement kinds: one bit each, one kernel each in movegen.py ----------------
# A Mosquito's borrowed kinds run in bit order, which is therefore the order of
# its destinations in `validmoves`.
SLIDE_ONE = 1 << 0  # one sliding step (Queen, Pillbug)
SLIDE_THREE = 1 << 1  # exactly three sliding steps, no cell twice (Spider)
CLIMB = 1 << 2  # one step at any height (Beetle)
JUMP = 1 << 3  # straight over one or more pieces (Grasshopper)
SLIDE_ANY = 1 << 4  # any number of sliding steps (Soldier Ant)
LADYBUG_PATH = 1 << 5  # two steps on top of the hive, then down (Ladybug)
UP_DOWN = 1 << 6  # one climb onto the hive, then down (Woodlouse; fan-rules.md U-1, J-1)
HOP = 1 << 7  # over exactly one occupied cell to the empty cell beyond (Flea, E-2)
# To a cell two steps away, not straight, at any height; from on top it carries the
# piece under it to empty ground (Sperling's Dragonfly, DX-1..3).
DIAGONAL = 1 << 8
DIAGONAL_GROUND = 1 << 9  # the same, to empty ground only (a Mosquito's copy of it, DX-5)
DOWN_UP = 1 << 10  # from on top down to the ground, then up onto another pile (Moth, V-1)
TWO_CLIMBS = 1 << 11  # two steps that each end on a pile (Butterfly Z-1; Firefly from the ground, F-1)
SLIDE_TWO = 1 << 12  # exactly two sliding steps, not back to the start (Scorpion, R-1)
CLIMB_ONTO = 1 << 13  # one climb onto an occupied neighbour, nothing else (Dragonfly from the ground, D-1)
FLY_TO_PRIME = 1 << 14  # onto the piece the opponent just acted on, then down beside it (Fly, Y-2)
DESCEND = 1 << 15  # from on top one step down to empty ground, nothing else (Tick on top, T-2)
# Over piles: across the cells its own colour tops, onto the first the other colour
# tops; never down (S004 Moth, VX-2).
OVER_OWN = 1 << 16
# To any empty ground cell touching the hive with no Queen next to it, at any
# distance, over gates (S004 Wasp and Firefly, WX-2, FX-1).
FLIGHT = 1 << 17
# The kinds that read the occupied neighbours of cells other than their start
# (a single slide reads the start's own, which lifting the piece does not change).
SLIDES_ON = SLIDE_THREE | SLIDE_ANY | SLIDE_TWO
MOVEMENT_NAMES = {
    SLIDE_ONE: "slide one",
    SLIDE_THREE: "slide three",
    CLIMB: "climb",
    JUMP: "jump",
    SLIDE_ANY: "slide any",
    LADYBUG_PATH: "ladybug path",
    UP_DOWN: "up down",
    HOP: "hop",
    DIAGONAL: "diagonal",
    DIAGONAL_GROUND: "diagonal ground",
    DOWN_UP: "down up",
    TWO_CLIMBS: "two climbs",
    SLIDE_TWO: "slide two",
    CLIMB_ONTO: "climb onto",
    FLY_TO_PRIME: "fly to prime",
    DESCEND: "descend",
    OVER_OWN: "over own",
    FLIGHT: "flight",
}

# --- Abilities: powers used instead of the bug's own move ------------------------
THROW = 1 << 0  # lift an adjacent piece over itself (Pillbug, rules.md "Pillbug")
STING = 1 << 1  # turn an adjacent enemy tile over and freeze it (Wasp Queen, W-2)
SWAP = 1 << 2  # change places with a piece three steps over the hive away (Centipede, C-1)
# Leave the game with an enemy piece: an adjacent one (Killer beetle, K-2), or the
# one the opponent just placed (Mantis, N-2).
KILL = 1 << 3
PREY_ON_PLACED = 1 << 4
# Play the movements and abilities of an enemy piece beside it at its own level
# (Tick, §6.7 T-3). The one ability a Mosquito never copies (T-4).
CONTROL = 1 << 5
# Move an enemy piece beside it by that piece's movement, which freezes it (S004
# Firefly, FX-2).
COMMAND = 1 << 6
# Oblige an enemy piece beside it alone on the ground to move away on its
# owner's next turn (S004 Wasp, WX-3). The Wasp also gives each Queen a sting,
# once a game (WX-5): movegen.queen_stings.
OBLIGE = 1 << 7
# Leave the board with the top piece of a cell beside it: itself to its owner's
# hand, that piece to its owner's hand if it is its own or the enemy Queen, else
# into its prison (S004 Mantis, NX-2; a Mosquito copying it keeps no prison, NX-5).
CAPTURE = 1 << 8
# What a Mosquito copies: none of the S004 abilities (WX-5, WX-6, FX-3), nor
# mind control (T-4).
LENT_ABILITIES = THROW | STING | SWAP | KILL | PREY_ON_PLACED | CAPTURE

# --- Flags ------------------------------------------------------------------------
ROYAL = 1 << 0  # surrounding it loses the game; no piece moves before it is placed
RESTS_ON_TOP = 1 << 1  # may end a move on top of the hive, so it can make stacks higher
COPIES_NEIGHBOURS = 1 << 2  # moves and powers are those of its neighbours' top bugs (Mosquito)
# Passive, while uncovered: the enemy may not flip a tile next to it (Scorpion, R-2).
LOCKS = 1 << 3
# Never the target of an ability, while uncovered (Stink bug, IM-1; the Honeycomb,
# IM-2, is never covered while it is a target's top).
IMMUNE = 1 << 4
# Passive, while uncovered: the pieces next to it cannot be removed by a Predator
# (Stink bug, IM-1).
SHIELDS = 1 << 5
# A neutral piece, in no hand, on the board from the start (the Honeycomb, §10):
# `copies` 0, one piece after both sides' (NEUTRAL_BUGS, HONEYCOMB_ID).
NEUTRAL = 1 << 6

# --- Placement rules -----------------------------------------------------------------
PLACE_BESIDE_OWN = 0  # an empty cell touching its own colour and not the other (rules.md, G-5)
PLACE_BESIDE_BOTH = 1  # an empty cell touching both colours, away from the enemy Queen (Flea, E-1)
PLACE_ON_TOP = 2  # on top of its own colour, no enemy next to the pile (Guardians, GU-2)
# As the usual rule, and not next to a cell holding a Queen (S004 Wasp and
# Firefly, WX-1); the Queen's own rule where they are in the game type is the
# usual one away from them (PLACE_QUEEN_AWAY, movegen.placement_rule).
PLACE_AWAY_FROM_QUEENS = 3
PLACE_QUEEN_AWAY = 4


class Bug(NamedTuple):
    letter: str  # notation letter (uhp.md "MoveString")
    name: str
    copies: int  # per side
    expansion: str  # the GameTypeString letter that enables it; "" for the base game
    movement: int  # bit set of the movement kinds above
    abilities: int  # bit set of the abilities above
    flags: int  # bit set of the flags above
    # Default evaluation weights (evaluate.py), in hundredths of a piece: a piece
    # in hand, on top and free to move, pinned or covered. Tuned 2026-11-29 by
    # `python -m bench.tune` (see evaluate.py for how).
    weight_in_hand: int
    weight_movable: int
    weight_stuck: int
    # The colour of its letter in pictures (engine/svg.py): Mzinga's hues, dark
    # enough to read on a white piece and light enough on a black one.
    colour: str
    placement: int = PLACE_BESIDE_OWN
    # What a ground Mosquito next to it copies of its movement (fan-rules.md §5.1);
    # None: all of it.
    lends: Optional[int] = None
    # Its movement from on top of the hive, when not the same as from the ground.
    on_top: Optional[int] = None
    # The letter of the bug on the back of its tile with Venom (fan-rules.md §6.0); "" for none.
    back: str = ""


BUGS = (
    Bug("Q", "Queen Bee", 1, "", SLIDE_ONE, 0, ROYAL, 0, 26, 4, "#c08a00", back="W"),
    Bug("S", "Spider", 2, "", SLIDE_THREE, 0, 0, 20, 15, -10, "#9a5b2c", back="R"),
    Bug("B", "Beetle", 2, "", CLIMB, 0, RESTS_ON_TOP, 2, 63, 5, "#8a56b8", back="F"),
    Bug("G", "Grasshopper", 3, "", JUMP, 0, 0, 17, 23, -10, "#2f9140", back="D"),
    Bug("A", "Soldier Ant", 3, "", SLIDE_ANY, 0, 0, 37, 52, -14, "#3276d2", back="Y"),
    # On the ground it copies its neighbours; on top of the hive it moves as a
    # Beetle (rules.md "Mosquito"), which its CLIMB bit says.
    Bug("M", "Mosquito", 1, "M", CLIMB, 0, COPIES_NEIGHBOURS | RESTS_ON_TOP, 26, 47, -3, "#808080", back="T"),
    Bug("L", "Ladybug", 1, "L", LADYBUG_PATH, 0, 0, 17, 26, 3, "#d0383b", back="U"),
    Bug("P", "Pillbug", 1, "P", SLIDE_ONE, THROW, 0, 11, 42, -3, "#14998f", back="C"),
    # Fan pieces (fan-rules.md), in its piece order. Their weights are first guesses.
    # Venom's faces (§6) have no copies of their own: they are the backs of the
    # official tiles above (`back`), and a tile in play is the bug of its face.
    Bug("W", "Wasp Queen", 0, "Venom", SLIDE_ONE, STING, 0, 0, 30, 4, "#c0a000"),
    Bug("F", "Firefly", 0, "Venom", TWO_CLIMBS, 0, RESTS_ON_TOP, 0, 55, 5, "#b08020", on_top=CLIMB),
    Bug("D", "Colony Dragonfly", 0, "Venom", CLIMB_ONTO, 0, RESTS_ON_TOP, 0, 35, -5, "#1f8a70", on_top=JUMP),
    Bug("R", "Scorpion", 0, "Venom", SLIDE_TWO, 0, LOCKS, 0, 20, -8, "#a0442c"),
    Bug("Y", "Fly", 0, "Venom", FLY_TO_PRIME, 0, 0, 0, 40, -10, "#4a60b0"),
    Bug("U", "Stink bug", 0, "Venom", UP_DOWN, 0, IMMUNE | SHIELDS, 0, 30, 5, "#7a8a20"),
    Bug("T", "Tick", 0, "Venom", CLIMB_ONTO, CONTROL, RESTS_ON_TOP, 0, 40, -3, "#6f5a9a", on_top=DESCEND),
    Bug("C", "Centipede", 0, "Venom", 0, SWAP, 0, 0, 35, -3, "#0f7a6e"),
    # The Predators (§7): the Mantis never moves (N-1), it only preys.
    Bug("K", "Killer beetle", 1, "Predators", SLIDE_ONE, KILL, 0, 25, 45, 0, "#9c2a3a"),
    Bug("N", "Mantis", 1, "Predators", 0, PREY_ON_PLACED, 0, 25, 30, 10, "#5a8f2e"),
    # The Guardians rest on top always and lend a Mosquito nothing (GU-3).
    Bug("V", "Moth", 1, "Guardians", DOWN_UP, 0, RESTS_ON_TOP, 20, 45, 10, "#b0568a", PLACE_ON_TOP, 0),
    Bug("Z", "Butterfly", 1, "Guardians", TWO_CLIMBS, 0, RESTS_ON_TOP, 20, 45, 10, "#c0692a", PLACE_ON_TOP, 0),
    Bug("Dx", "Dragonfly", 1, "Dx", DIAGONAL, 0, RESTS_ON_TOP, 25, 50, 0, "#3a8fb0", lends=DIAGONAL_GROUND),
    Bug("E", "Flea", 1, "E", SLIDE_ONE | HOP, 0, 0, 15, 30, -5, "#6b7a1f", PLACE_BESIDE_BOTH),
    Bug("Fx", "S004 Firefly", 1, "Fx", FLIGHT, COMMAND, 0, 20, 45, 0, "#c08e2a", PLACE_AWAY_FROM_QUEENS),
    Bug("J", "Woodlouse", 1, "J", UP_DOWN, THROW, 0, 15, 40, 0, "#5c6f7e"),
    Bug("Nx", "S004 Mantis", 1, "Nx", SLIDE_ONE | SLIDE_TWO | SLIDE_THREE, CAPTURE, 0, 25, 45, 5, "#4f8a2a"),
    # The S004 Moth ends every move on top, so a Mosquito copies nothing of it (§5.1).
    Bug("Vx", "S004 Moth", 1, "Vx", OVER_OWN, 0, RESTS_ON_TOP, 25, 50, 5, "#8e4a9c", lends=0),
    Bug("Wx", "S004 Wasp", 1, "Wx", FLIGHT, OBLIGE, 0, 20, 40, 0, "#b8a020", PLACE_AWAY_FROM_QUEENS),
    # HoneyCombo's neutral tile (§10): it never moves, lends nothing and is no
    # target (IM-2); its flip is the side to move's (HC-4).
    Bug("H", "Honeycomb", 0, "HoneyCombo", 0, 0, NEUTRAL | IMMUNE, 0, 0, 0, "#c8961e", lends=0),
)

NUM_BUGS = len(BUGS)
BUG_LETTERS = "".join(bug.letter for bug in BUGS)
BUG_OF_LETTER = {bug.letter: index for index, bug in enumerate(BUGS)}
QUEEN = next(index for index, bug in enumerate(BUGS) if bug.flags & ROYAL)
# The bug on the back of each bug's tile with Venom, -1 for none.
BUG_BACK = tuple(BUG_OF_LETTER[bug.back] if bug.back else -1 for bug in BUGS)

# --- Game types: official letters and fan tokens, one bit each (fan-rules.md §2.1) ---
# Every fan token of the grammar, in canonical order (GT-2); those no row names yet
# are known but not implemented, but for the modules that bring rules and no bug
# (RULES_ONLY). Pairs that would bring two versions of one bug
# together may never meet (GT-3).
FAN_TOKENS = ("Venom", "Predators", "Guardians", "HoneyCombo", "Swarm", "Dx", "E", "Fx", "J", "Nx", "Vx", "Wx")
FAN_EXCLUSIONS = (("Venom", "Dx"), ("Venom", "Fx"), ("Venom", "Wx"), ("Guardians", "Vx"), ("Predators", "Nx"))
EXPANSION_LETTERS = "".join(dict.fromkeys(b.expansion for b in BUGS if b.expansion and b.expansion not in FAN_TOKENS))
RULES_ONLY = ("Swarm",)  # hands drawn from a bag (§11)
FAN_IMPLEMENTED = tuple(token for token in FAN_TOKENS if token in RULES_ONLY or any(b.expansion == token for b in BUGS))
EXPANSION_BIT = {token: 1 << index for index, token in enumerate((*EXPANSION_LETTERS, *FAN_IMPLEMENTED))}
OFFICIAL_BITS = sum(EXPANSION_BIT[letter] for letter in EXPANSION_LETTERS)
# Venom's variants (fan-rules.md §2.2), one bit each after the tokens': faces
# chosen at placement and never flipped (`Venom(Placed)`), or each listed back
# face shown by every tile of its bug (`Venom(Fixed:FY)`), listed in GT-2's order.
VENOM_PLACED_BIT = 1 << len(EXPANSION_BIT)
FIXED_FACES = "FDRYUTC"
FIXED_FACE_BIT = {letter: VENOM_PLACED_BIT << (1 + index) for index, letter in enumerate(FIXED_FACES)}
VENOM_FIXED_BITS = sum(FIXED_FACE_BIT.values())
FAN_BITS = sum(EXPANSION_BIT[token] for token in FAN_IMPLEMENTED)
# The official rows come first, so that loops over them can stop there.
OFFICIAL_BUGS = sum(1 for bug in BUGS if bug.expansion not in FAN_TOKENS)
assert all(bug.expansion in FAN_TOKENS for bug in BUGS[OFFICIAL_BUGS:]), "fan rows come after the official ones"
OFFICIAL_PIECES_PER_SIDE = sum(bug.copies for bug in BUGS[:OFFICIAL_BUGS])
# The names an engine announces in `info` (uhp.md "info"): "Mosquito;Ladybug;Pillbug";
# with the FanBugs option on, the fan tokens follow (FB-2).
EXPANSION_NAMES = {b.expansion: b.name for b in BUGS if b.expansion in EXPANSION_LETTERS}
EXPANSION_NAMES.update({token: token for token in FAN_IMPLEMENTED})
CAPABILITIES = ";".join(EXPANSION_NAMES[letter] for letter in EXPANSION_LETTERS)
FAN_CAPABILITIES = ";".join((CAPABILITIES, *FAN_IMPLEMENTED))

# --- Pieces: ids colour-major, bugs in table order, copies in order ---------------
WHITE, BLACK = 0, 1
NEUTRAL_COLOR = 2  # the colour of a neutral piece, which is neither side's (nH)
COLOR_LETTERS = "wbn"
PIECES_PER_SIDE = sum(bug.copies for bug in BUGS)
# The neutral bugs, one piece each, after both sides' pieces.
NEUTRAL_BUGS = tuple(index for index, bug in enumerate(BUGS) if bug.flags & NEUTRAL)
COLOURED_PIECES = 2 * PIECES_PER_SIDE
NUM_PIECES = COLOURED_PIECES + len(NEUTRAL_BUGS)
HONEYCOMB_ID = COLOURED_PIECES + NEUTRAL_BUGS.index(BUG_OF_LETTER["H"])
# Id of each bug's first copy within one colour.
BUG_FIRST_ID = tuple(accumulate((bug.copies for bug in BUGS[:-1]), initial=0))
# Per piece id: colour, bug, copy number (1-based, 0 for a single bug).
PIECES = tuple(
    (color, index, copy if bug.copies > 1 else 0)
    for color in (WHITE, BLACK)
    for index, bug in enumerate(BUGS)
    for copy in range(1, bug.copies + 1)
) + tuple((NEUTRAL_COLOR, index, 0) for index in NEUTRAL_BUGS)
PIECE_NAMES = tuple(COLOR_LETTERS[c] + BUGS[b].letter + (str(k) if k else "") for c, b, k in PIECES)
# The name of each piece showing its back with Venom (fan-rules.md §4.1: tile G2
# Dragonfly side up is wD2), None for a single-sided piece.
PIECE_BACK_NAMES = tuple(
    COLOR_LETTERS[c] + BUGS[b].back + (str(k) if k else "") if BUG_BACK[b] >= 0 else None for c, b, k in PIECES
)
QUEEN_ID = (BUG_FIRST_ID[QUEEN], PIECES_PER_SIDE + BUG_FIRST_ID[QUEEN])

# Pieces of either colour that can stand on top of the hive, on either face of
# their tile; a stack is at most these plus the ground piece under them.
CLIMBERS = 2 * sum(
    bug.copies for bug, back in zip(BUGS, BUG_BACK) if (bug.flags | (BUGS[back].flags if back >= 0 else 0)) & RESTS_ON_TOP
)
# Pieces per side that may throw (a Mosquito can borrow the throw).
THROWERS = sum(bug.copies for bug in BUGS if bug.abilities & THROW or bug.flags & COPIES_NEIGHBOURS)
# Pieces per side that move an enemy piece beside them by its movement (the Tick,
# the S004 Firefly).
COMMANDERS = sum(bug.copies or 1 for bug in BUGS if bug.abilities & (CONTROL | COMMAND))


def game_types():
    """Every official GameTypeString, canonical: Base, then Base+ and the
    expansion letters in table order, fewer letters first."""
    types = []
    for size in range(len(EXPANSION_LETTERS) + 1):
        for letters in combinations(EXPANSION_LETTERS, size):
            types.append("Base+" + "".join(letters) if letters else "Base")
    return tuple(types)


def fan_game_types():
    """Every GameTypeString with fan tokens that the table implements, canonical
    (fan-rules.md GT-2): each official one with each allowed set of tokens."""
    types = []
    for size in range(1, len(FAN_IMPLEMENTED) + 1):
        for tokens in combinations(FAN_IMPLEMENTED, size):
            if any(a in tokens and b in tokens for a, b in FAN_EXCLUSIONS):
                continue
            types.extend("+".join((official, *tokens)) for official in game_types())
    return tuple(types)
