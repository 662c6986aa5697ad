"""The table of move kinds: one row per kind of move, as bugs.py is one row per bug.

A move is one int (the codec in moves.py) whose kind field is a row's index
here. A row says which of the codec's fields the kind uses, how its MoveString
is written (fan-rules.md §4.2, NO-1), and which identity slots it takes (moves.py
`move_slot`, the dense index of ID-1 that de-duplication, history tables and
RL actions share). make/unmake (board.py) have a kernel pair for every kind but
`none` and refuse that one loudly.

Adding a kind of move: add its row, write its generator, its apply and undo
kernels in board.py, and its resolution in game.py (`Board.parse_uhp`).

What is not a kind: a HoneyCombo double turn is two entries of ordinary kinds
with the turn phase in the state (§10); the Honeycomb's flip is a flip of `nH`;
a throw of one's own piece is a move of it (ST-1: the same state).

Plain Python, so that notation can read it without numba.
"""

from typing import NamedTuple

# How a MoveString shows its kind (NO-1). The position decides among the kinds
# that share a form: a reference form places, moves, throws or carries; a removal
# removes the target from the game, or (a Queen's sting) sends it to hand.
FORM_PASS = "pass"  # `pass`
FORM_REFERENCE = "reference"  # `<piece>`, `<piece> <ref>`, optionally ` ^<thrower>`
FORM_FLIP = "flip"  # `<tile> ~`
FORM_STING = "sting"  # `<actor> ~<victim>`
FORM_REMOVAL = "removal"  # `<actor> x<target>`
FORM_WASP_STING = "wasp sting"  # `<actor> !<target>`
FORM_SWAP = "swap"  # `<actor> =<target>`
FORM_CONTROL = "control"  # `<inner entry> @<controller>`
FORM_CHOOSE = "choose"  # `choose <p> <p> <p>`
FORM_DRAW = "draw"  # `draw <p>`
FORM_STEAL = "steal"  # `steal <p>`
# The sign after the actor that marks a form whose second token starts with it.
SIGN_OF_FORM = {FORM_STING: "~", FORM_REMOVAL: "x", FORM_WASP_STING: "!", FORM_SWAP: "="}
KEYWORD_FORMS = (FORM_PASS, FORM_CHOOSE, FORM_DRAW, FORM_STEAL)
SWARM_FORMS = (FORM_CHOOSE, FORM_DRAW, FORM_STEAL)  # Swarm's entries name colours and bugs (§11)

# Identity slot groups (moves.move_slot): two kinds in one group never give one
# piece the same destination in one position, so (group, piece, destination)
# names one resulting state.
SLOTS_NONE = -1  # no slot: no move and pass
# The piece arrives on the destination: place, move, throw, carry. A flip names
# the cell its tile stays on, which no move of the tile reaches (G-4).
SLOTS_ARRIVAL = 0
# A kind with a face (a placement) takes the group after its own for face 1:
# the two faces of one placement are two moves (VN-4).
# A kind whose piece acts on the piece of another cell has a group of its own: a
# Mosquito may both climb onto a cell and sting or swap the piece there.
SLOTS_STING = 2  # the victim and its cell: every stinger of it gives one state
SLOTS_SWAP = 3  # the Centipede and its target's cell
# The actor and its target's cell: a predator's (or its Mosquito's) removal, a
# Queen's sting to hand, an S004 Wasp's sting. No piece does two of them.
SLOTS_TAKE = 4
# A Tick's controlled movement (no freeze) is another state than a throw of that
# piece there (Frozen): ID-2.
SLOTS_CONTROL = 5
# Swarm's entries, the one kind of them a position has (setup, a draw due, or a
# turn that may steal): a draw and a steal by their piece, a choice by its three
# (the second and third taken together as the slot's second field).
SLOTS_SWARM = 6


class Kind(NamedTuple):
    name: str  # as Move.kind and the web board name it
    fields: str  # the codec fields it uses besides the kind: piece, dest, other, face
    form: str  # FORM_*: how its MoveString is written
    # A canonical MoveString of its form, with pieces today's table of bugs has
    # (the syntax: fan-rules.md §4.2 names the real actors, wW, wWx, wC, wT ...).
    example: str
    meaning: str  # what the fields are
    slots: int = SLOTS_NONE  # SLOTS_*: its identity slots


# The order is the codec's: a kind's index is its code, and none is 0.
KINDS = (
    Kind("none", "", FORM_PASS, "", "no move: an empty slot of a table"),
    Kind("pass", "", FORM_PASS, "pass", "the side to move passes (only when nothing else is legal)"),
    Kind("place", "piece dest face", FORM_REFERENCE, "wS1 -wQ",
         "`piece` from hand onto `dest`, showing `face` (1: its back, Venom §6.0)", SLOTS_ARRIVAL),
    Kind("move", "piece dest", FORM_REFERENCE, "wB1 bQ",
         "`piece` in play onto the top of `dest`: its own move, or its own side's throw of it (ST-1)", SLOTS_ARRIVAL),
    Kind("throw", "piece dest other", FORM_REFERENCE, "bA1 wP/ ^wP",
         "the opponent's `piece` thrown onto `dest`, where it is Frozen for a turn (rules.md, \"Pillbug\"); or "
         "moved there by the S004 Firefly `other`, the same state (FX-2, EX-ID1), when no throw reaches it",
         SLOTS_ARRIVAL),
    Kind("flip", "piece dest", FORM_FLIP, "wG2 ~",
         "the tile `piece` on `dest` (or the Honeycomb) turns over (VN-3, HC-4)", SLOTS_ARRIVAL),
    Kind("swap", "piece dest other", FORM_SWAP, "wC =bA1",
         "a Centipede `piece` and the piece `other` on `dest` change places (C-1)", SLOTS_SWAP),
    Kind("remove", "piece dest other", FORM_REMOVAL, "wK xbA1",
         "a Predator `piece` and its prey `other` on `dest` leave the game (§7 K-2, N-2)", SLOTS_TAKE),
    Kind("control", "piece dest other", FORM_CONTROL, "bQ bP/ @wM",
         "the Tick `other` moves the enemy `piece` onto `dest` by the piece's own movement, freezing nothing "
         "(§6.7 T-3, T4); its abilities under control make moves of their own kinds", SLOTS_CONTROL),
    Kind("transport", "piece dest other face", FORM_REFERENCE, "wDx -wQ",
         "a Dragonfly `piece` carries `other`, the piece under it, to the ground at `dest` (DX-3); `face` 1: an "
         "enemy S004 Firefly commands it, and it is Frozen after (FX-2)", SLOTS_ARRIVAL),
    Kind("sting", "piece dest other", FORM_STING, "wW ~bA1",
         "the tile `piece` on `dest` is stung by `other` (a Wasp Queen, or a Mosquito copying one): it turns "
         "over, Frozen for a turn (W-2); one move per victim, named by its first stinger", SLOTS_STING),
    Kind("wasp sting", "piece dest other", FORM_WASP_STING, "wWx !bS1",
         "an S004 Wasp `piece` stings `other` on `dest`, whose owner must then move it away (WX-3, `Oblig`)",
         SLOTS_TAKE),
    Kind("to hand", "piece dest other", FORM_REMOVAL, "wQ xbB1",
         "`other`, the top of `dest`, leaves the board: a Queen `piece` sends it back to its owner's hand, once a "
         "game (WX-5); or an S004 Mantis `piece` (or a Mosquito copying one) takes it, into its owner's hand or "
         "the Mantis's prison, and goes to its own owner's hand (NX-2)", SLOTS_TAKE),
    Kind("choose", "piece dest other", FORM_CHOOSE, "choose wS1 wA1 wA2",
         "Swarm's setup: `piece`, `dest` and `other` (ids in the codec's fields) are the three pieces kept in hand "
         "(SW-1)", SLOTS_SWARM),
    Kind("draw", "piece", FORM_DRAW, "draw bG1",
         "Swarm: `piece` drawn from the bag into the placer's hand (SW-3), a chance entry the client sends",
         SLOTS_SWARM),
    Kind("steal", "piece", FORM_STEAL, "steal bA1", "Swarm: `piece` taken from the opponent's hand (SW-4)",
         SLOTS_SWARM),
)

NUM_MOVE_KINDS = len(KINDS)
KIND_NAMES = tuple(kind.name for kind in KINDS)
KIND_OF_NAME = {kind.name: index for index, kind in enumerate(KINDS)}
KIND_FIELDS = tuple(frozenset(kind.fields.split()) for kind in KINDS)
KIND_FORMS = tuple(kind.form for kind in KINDS)
PLAYED_KINDS = tuple(range(1, NUM_MOVE_KINDS))  # every kind but none: make_move's kinds
# The slot groups: the tables indexed by slot hold these.
NUM_SLOT_GROUPS = 1 + max(kind.slots + ("face" in kind.fields.split()) for kind in KINDS)
assert not {k.slots + 1 for k in KINDS if "face" in k.fields.split()} & {k.slots for k in KINDS}, \
    "the group after a kind with a face is its face 1's alone"
# The kinds each MoveString form can stand for, in table order.
KINDS_OF_FORM = {}
for _index, _kind in enumerate(KINDS[1:], start=1):
    KINDS_OF_FORM.setdefault(_kind.form, []).append(_index)

