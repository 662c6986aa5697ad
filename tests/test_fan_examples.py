"""Every worked example of fan-rules.md §6, §7, §8 and §9.1-9.4, 9.6-9.7 as data, held to the
plain-Python reference.

`FAN_EXAMPLES` is the spec's examples, one row each (EX-J1 gives three sets, so three rows);
`MORE_FAN_POSITIONS` adds positions of ours in the same shape for what the spec's examples do
not show (the Mosquito against the new bugs, the statuses of §3.3, carrying refused, Venom's
corners). Both are importable, so that the same table can be run against the engine: build the
position with `reference.Position.from_example(row.game_type, row.board, **dict(row.statuses))`,
resolve the expected strings with `expected_moves` (moves in the reference's form: (piece,
(q, r)), and with Venom (tile, "~"), (wasp, "~", victim), (centipede, "=", target)) and compare
with the engine's moves of the same `kind` and `piece`:

- "place": placements of `piece` (with Venom, `piece` names the face: "wD1" is tile G1 placed
  Dragonfly side up); "move": `piece`'s own moves; "throw": the moves of the pieces that
  `piece` throws; "any": every legal move that moves `piece` to a cell (its own moves and the
  throws of it; not its flip, nor a sting or a swap).
- Venom (§6): "flip": the flips of the side to move (`piece` "": all of them; else that tile's);
  "sting": the Wasp Queen `piece`'s stings; "swap": the Centipede `piece`'s swaps; "control":
  the moves the Tick `piece` makes by mind control (§6.7: the controlled pieces' movements and
  abilities); "all": every legal move of the position (`piece` "").
- Predators (§7): "remove": the removals `piece` makes (a Killer beetle's kill, a Mantis's jump,
  a Mosquito's copy of either).
- The S004 bugs (§9.6, §9.7): "wasp sting": the S004 Wasp `piece`'s stings; "to hand": the
  Queen `piece`'s stings back to hand; "throw" with an S004 Firefly: the moves it commands.
- "result": `expected` holds pairs (move string, result); "" is the position itself.
- "perft": perft from the start of `game_type`, `expected` the counts from depth 1.

Expected strings are the spec's, with its `(q,r)@L` prefix (the mover ends on (q, r) at level
L) added where the spec names the cell or the level in words ("level 2", "to (-1,0)", "carries"),
so that the level after the move, and so landing on top and carrying, is checked too.
Boards are drawn in each row's comment by `reference.draw` (see test_bugs.py for how to read).
"""

from typing import NamedTuple

import pytest

from .reference import Position, draw, move_string, perft


class FanExample(NamedTuple):
    name: str  # the spec's id (EX-...) or ours (REF-...)
    section: str  # where its rule is, "fan-rules.md §9.2"
    game_type: str
    board: str  # the spec's notation: `(0,0) wQ · (0,1) bA1+wB1`
    kind: str  # "place", "move", "throw", "any", "flip", "sting", "swap", "remove", "control", "all", "result",
    # or "perft"
    piece: str
    expected: tuple
    statuses: tuple = ()  # keyword pairs for Position.from_example: ("to_move", "b"), ("last", ("wA1",))
    note: str = ""


# Boards that more than one row uses.
EX_J1 = "(0,0) wJ · (-1,1) wQ · (1,0) bA1 · (2,0) bQ · (0,1) bS1+bB1"
MJ_LEAF = "(0,0) wM · (-1,0) wJ · (-2,0) wQ · (-3,0) bQ"
MJ_LINE = "(-1,0) wJ · (0,0) wM · (1,0) wQ · (2,0) bQ"
P_LINE = "(0,0) wP · (1,0) wQ · (2,0) bQ · (-1,0) bA1"
EX_VN2 = ("(0,0) wQ · (1,0) bQ · (2,-1) bR1 · (3,-1) wA1 · (2,0) wU · (0,1) bA1+wB1 · (-1,1) bS2+wD1 · "
          "(0,-1) wS2+bB1 · (-1,0) wG2 · (-2,0) wS1 · (1,1) wA2")
EX_W1 = "(0,0) wW · (1,0) bA1 · (2,0) bA2 · (0,1) bS1+wB1 · (-1,1) bU · (0,-1) bG1 · (-1,0) bB1 · (2,-1) bQ"
EX_Y1 = "(0,0) wQ · (1,0) bQ · (2,0) bA1 · (-1,0) wY1 · (2,-1) wG1+bB1 · (3,0) wA2+bB2"
EX_C1 = "(0,0) wQ · (1,0) bQ · (-1,0) wC · (0,1) bA1 · (1,1) bS1 · (1,-1) wB1+bB1 · (2,1) wA1"
VENOM_PERFT = (8, 384, 10368, 279936)
EX_T1 = "(0,0) wT · (-1,0) wQ · (1,0) bQ · (0,1) wS1+bB1"
EX_T2 = "(0,0) bA1+wT · (-1,0) wQ · (1,0) bQ · (0,1) wS1+bB1"
T_KILL = "(-1,0) wQ · (0,0) wT · (1,0) bK · (0,1) bA1 · (1,1) bQ"
EX_M1 = "(0,0) wM · (-1,0) wQ · (1,0) bW · (0,1) bT · (-1,1) wB1"
EX_VX1 = "(0,0) wQ · (-1,0) wVx · (1,0) wA1 · (2,0) bA1 · (3,0) bS1 · (0,1) wG1 · (1,1) bQ"
EX_VX3 = "(0,0) wQ · (1,0) bQ · (-1,0) wM · (-1,1) wB1"
EX_NX1 = "(0,0) wNx · (-1,1) wQ · (1,0) bS1 · (0,1) bG1 · (0,2) bQ"
NX_MOSQUITO = "(0,0) wQ · (1,0) bQ · (0,1) wNx · (-1,1) wM"
EX_WX2 = "(0,0) wQ · (1,0) bQ · (2,0) bA1 · (3,0) wWx · (3,1) bS1"
EX_FX1 = "(0,0) wQ · (1,0) bQ · (-1,0) wA1 · (-2,0) wFx · (-2,1) bG1"
FX_QUEEN = "(0,0) wQ · (1,0) bFx · (0,1) bQ"
VX_CONTROLLED = "(-1,0) wQ · (0,0) wT · (1,0) bVx · (0,1) wG1 · (1,1) bA1 · (2,1) wA1 · (2,0) bQ"

FAN_EXAMPLES = [
    #      .     .     .     .     .     .
    #   .   wB1^2  wS1   wA1    wQ    bQ    .
    #      .     .     .     .     .     .
    FanExample(
        "EX-G1", "fan-rules.md §8 GU-2", "Base+Guardians",
        "(0,0) wQ · (1,0) bQ · (-1,0) wA1 · (-2,0) wS1 · (-3,0) bS1+wB1",
        "place", "wV", ("(-1,0)@1 wV wA1", "(-2,0)@1 wV wS1", "(-3,0)@2 wV wB1"),
        note="not on wQ (next to bQ), nor on bQ",
    ),
    #      .     .     .     .     .
    #   .    wS1   wV^2   wQ    bQ    .
    #      .     .     .    bA1    .
    #                     .     .
    FanExample(
        "EX-V1", "fan-rules.md §8 V-1", "Base+Guardians",
        "(0,0) wQ · (1,0) bQ · (-1,0) wA1+wV · (-2,0) wS1 · (0,1) bA1",
        "move", "wV", ("(0,0)@1 wV wQ", "(0,1)@1 wV bA1", "(-2,0)@1 wV wS1"),
        note="not back onto wA1",
    ),
    #      .     .     .     .     .
    #   .    wZ^2  wA1    wQ    bQ    .
    #      .     .    bG1   bA1    .
    #               .     .     .
    FanExample(
        "EX-Z1", "fan-rules.md §8 Z-1", "Base+Guardians",
        "(0,0) wQ · (1,0) bQ · (-1,0) wA1 · (-2,0) wS1+wZ · (0,1) bA1 · (-1,1) bG1",
        "move", "wZ", ("(0,0)@1 wZ wQ", "(-1,1)@1 wZ bG1"),
        note="not wA1 (one step), bQ (three)",
    ),
    #         .     .     .     .
    #      .    bS1   wG1    wQ    .
    #   .    wS1    bQ  wB1^2   .
    #      .    bA1   wA1    .
    #         .     .     .
    FanExample(
        "EX-G2", "fan-rules.md §8 GU-1, §3.8", "Base+Guardians",
        "(0,0) bQ · (1,0) wS2+wB1 · (0,1) wA1 · (-1,1) bA1 · (-1,0) wS1 · (0,-1) bS1 · (1,-1) wG1 · (2,-1) wQ",
        "result", "", (("", "InProgress"), ("wB1 bQ", "WhiteWins"), ("wB1 wA1", "InProgress")),
        note="bQ surrounded but not covered: the game goes on; covered with (1,0) still occupied: White wins",
    ),
    #      .     .     .     .
    #   .    wA1    wQ    bQ    .
    #      .    bA1    .     .
    #         .     .
    FanExample(
        "EX-E1", "fan-rules.md §9.1 E-1", "Base+E",
        "(0,0) wQ · (1,0) bQ · (-1,0) wA1 · (-1,1) bA1",
        "place", "wE", ("(-2,1) wE /wA1",),
        note="(0,1) and (1,-1) touch bQ; (0,-1) and (-2,0) touch no black piece",
    ),
    #      .     .     .     .
    #   .     wE    wQ   bA1    .
    #      .    wA1    bQ    .
    #         .     .     .
    FanExample(
        "EX-E2", "fan-rules.md §9.1 E-2", "Base+E",
        "(-1,0) wE · (0,0) wQ · (1,0) bA1 · (0,1) bQ · (-1,1) wA1",
        "move", "wE", ("(-1,2) wE wA1\\", "(-2,1) wE -wA1", "(0,-1) wE \\wQ"),
        note="jump over wA1, two slides; not (2,0) (two pieces)",
    ),
    FanExample("EX-E3", "fan-rules.md §9.1, §12", "Base+E", "", "perft", "", (4, 96, 1632, 26592)),
    #         .     .     .     .
    #      .     wJ   bA1    bQ    .
    #   .     wQ  bB1^2   .     .
    #      .     .     .
    FanExample(
        "EX-J1 moves", "fan-rules.md §9.2 J-1", "Base+J",
        EX_J1,
        "move", "wJ",
        ("wJ -wQ", "wJ /wQ", "wJ \\wQ", "wJ wQ\\", "wJ bB1\\", "wJ \\bA1", "wJ bA1\\", "wJ \\bQ"),
    ),
    FanExample(
        "EX-J1 throws", "fan-rules.md §9.2 J-2", "Base+J",
        EX_J1,
        "throw", "wJ", ("wQ -wJ", "wQ \\wJ", "wQ \\bA1"),
        note="only wQ: bA1 is pinned, bB1 is stacked",
    ),
    FanExample(
        "EX-J1 wQ", "fan-rules.md §9.2, §3.2 ST-1", "Base+J",
        EX_J1,
        "any", "wQ", ("wQ -wJ", "wQ \\wJ", "wQ \\bA1", "wQ /bB1"),
        note="wQ's slides -wJ and /bB1 and the throws; `wQ -wJ` is one move (ST-1): four in all",
    ),
    #      .     .     .     .
    #   .    wDx    wQ    bQ    .
    #      .     .    bA1    .
    #               .     .
    FanExample(
        "EX-Dx1", "fan-rules.md §9.3 DX-2", "Base+Dx",
        "(0,0) wQ · (1,0) bQ · (-1,0) wDx · (0,1) bA1",
        "move", "wDx", ("(0,1)@1 wDx bA1", "(1,-1)@0 wDx \\bQ"),
        note="the other four Diag cells touch nothing",
    ),
    #      .     .     .
    #   .     wQ    bQ    .
    #      .   wDx^2   .
    #         .     .
    FanExample(
        "EX-Dx2", "fan-rules.md §9.3 DX-3", "Base+Dx",
        "(0,0) wQ · (1,0) bQ · (0,1) bA1+wDx",
        "move", "wDx", ("(-1,0)@1 wDx -wQ", "(1,-1)@1 wDx \\bQ", "(2,0)@1 wDx bQ-"),
        note="wDx carries bA1 each time (level 1: on top of it); (1,2), (-1,3), (-2,2) touch nothing",
    ),
    #      .     .     .
    #   .     wQ    bQ    .
    #      .   wDx^2   .
    #         .    wS1    .
    #            .     .
    FanExample(
        "EX-Dx3", "fan-rules.md §9.3 DX-3", "Base+Dx",
        "(0,0) wQ · (1,0) bQ · (0,1) bA1+wDx · (0,2) wS1",
        "move", "wDx",
        ("(-1,0)@0 wDx -wQ", "(1,-1)@0 wDx \\bQ", "(2,0)@0 wDx bQ-", "(1,2)@0 wDx wS1-", "(-1,3)@0 wDx /wS1"),
        note="bA1 is pinned, so wDx moves alone (level 0), leaving bA1",
    ),
    # --- Venom (fan-rules.md §6) ---
    FanExample("EX-VN1", "fan-rules.md §6.0 VN-4, §12", "Base+Venom", "", "perft", "", VENOM_PERFT),
    FanExample("EX-VN1 MLP", "fan-rules.md §6.0 VN-4, §12", "Base+MLP+Venom", "", "perft", "",
               (14, 1176, 49896, 2117016)),
    FanExample("EX-VN1 Placed", "fan-rules.md §6.0 VN-4, §2.2", "Base+Venom(Placed)", "", "perft", "", VENOM_PERFT),
    FanExample("EX-VN1 Fixed:FY", "fan-rules.md §6.0 VN-4, §2.2", "Base+Venom(Fixed:FY)", "", "perft", "",
               (4, 96, 1440, 21600), note="as Base"),
    FanExample(
        "EX-VN1 first entries", "fan-rules.md §6.0 VN-2, VN-4", "Base+Venom", "",
        "all", "", ("wS1", "wR1", "wB1", "wF1", "wG1", "wD1", "wA1", "wY1"), statuses=(("turn", 1),),
        note="each tile but the Queen's (tournament opening), either face up, at the origin",
    ),
    #              .     .     .     .     .
    #     .     .   bB1^2   .    bR1   wA1    .
    #  .    wS1   wG2    wQ    bQ    wU    .
    #     .     .   wD1^2 wB1^2  wA2    .
    #              .     .     .     .
    FanExample(
        "EX-VN2", "fan-rules.md §6.0 VN-3, §6.4 R-2", "Base+L+Venom",
        EX_VN2,
        "flip", "", ("wQ ~", "wU ~", "wB1 ~", "wG2 ~", "wS1 ~"), statuses=(("last", ("wA2",)),),
        note="wU next to bR1 but a Stink bug; wB1 on top, a Beetle tile; wG2 pinned. Not wA1 (locked by "
        "bR1), wD1 (a Grasshopper tile on top), wS2 (covered), wA2 (Last)",
    ),
    #        .     .     .     .
    #     .    bG1    .     bQ    .
    #  .    bB1    wW   bA1   bA2    .
    #     .     bU  wB1^2   .     .
    #        .     .     .
    FanExample(
        "EX-W1 stings", "fan-rules.md §6.1 W-2", "Base+L+Venom",
        EX_W1,
        "sting", "wW", ("wW ~bA1", "wW ~bB1"), statuses=(("last", ("bG1",)),),
        note="not bS1 (covered), bU (immune), bG1 (Last), bA2 (not adjacent)",
    ),
    FanExample(
        "EX-W1 no slide", "fan-rules.md §6.1 W-1", "Base+L+Venom",
        EX_W1,
        "move", "wW", (), statuses=(("last", ("bG1",)),), note="(1,-1) is a gate between bA1 and bG1",
    ),
    FanExample(
        "EX-W1 results", "fan-rules.md §6.1 W-2", "Base+L+Venom",
        EX_W1,
        "result", "", (("", "InProgress"), ("wW ~bA1", "InProgress"), ("wW ~bB1", "InProgress")),
        statuses=(("last", ("bG1",)),),
        note="the victims' new faces and freeze are checked in test_reference_fan.py",
    ),
    #     .     .     .     .
    #  .    wF1    wQ    bQ    .
    #     .     .    bA1    .
    #              .     .
    FanExample(
        "EX-F1", "fan-rules.md §6.2 F-1", "Base+Venom",
        "(-1,0) wF1 · (0,0) wQ · (1,0) bQ · (0,1) bA1",
        "move", "wF1", ("(1,0)@1 wF1 bQ", "(0,1)@1 wF1 bA1"),
        note="two climbs: not on top of wQ (one step), not any ground cell",
    ),
    #     .     .     .     .
    #  .    wS1  wF1^2   bQ    .
    #     .     .    bA1    .
    #              .     .
    FanExample(
        "EX-F2", "fan-rules.md §6.2 F-2", "Base+Venom",
        "(0,0) wQ+wF1 · (1,0) bQ · (0,1) bA1 · (-1,0) wS1",
        "move", "wF1",
        ("(1,0)@1 wF1 bQ", "(0,1)@1 wF1 bA1", "(-1,0)@1 wF1 wS1", "(1,-1)@0 wF1 \\bQ", "(0,-1)@0 wF1 \\wQ",
         "(-1,1)@0 wF1 wS1\\"),
        note="on top: the Beetle's step, onto any neighbour or down",
    ),
    #        .     .     .
    #     .     wQ    bQ    .
    #  .    wD1   bA1    .
    #     .     .     .
    FanExample(
        "EX-D1", "fan-rules.md §6.3 D-1", "Base+Venom",
        "(0,0) wQ · (1,0) bQ · (-1,1) wD1 · (0,1) bA1",
        "move", "wD1", ("(0,0)@1 wD1 wQ", "(0,1)@1 wD1 bA1"), note="one climb, nothing else",
    ),
    #              .     .
    #     .     .    bS1    .
    #  .     wQ    bQ    .
    #     .   wD1^2   .
    #        .    bG1    .
    #           .     .
    FanExample(
        "EX-D2", "fan-rules.md §6.3 D-2", "Base+Venom",
        "(0,0) wQ · (1,0) bQ · (0,1) bA1+wD1 · (0,2) bG1 · (2,-1) bS1",
        "move", "wD1", ("(0,-1)@0 wD1 \\wQ", "(3,-2)@0 wD1 bS1/", "(0,3)@0 wD1 bG1\\"),
        note="over wQ; over bQ and bS1; over bG1. Not (1,1), (-1,1), (-1,2): empty neighbours, no flight",
    ),
    #     .     .     .     .
    #  .    wR1    wQ    bQ    .
    #     .     .     .     .
    FanExample(
        "EX-R1", "fan-rules.md §6.4 R-1", "Base+Venom",
        "(0,0) wQ · (1,0) bQ · (-1,0) wR1",
        "move", "wR1", ("(0,1) wR1 wQ\\", "(1,-1) wR1 \\bQ"),
    ),
    #                    .     .
    #     .     .     .   bB1^2   .     .
    #  .    wY1    wQ    bQ   bA1  bB2^2   .
    #     .     .     .     .     .     .
    FanExample(
        "EX-Y1", "fan-rules.md §6.5 Y-1, Y-2", "Base+Venom",
        EX_Y1,
        "move", "wY1", ("(1,1) wY1 bQ\\", "(2,1) wY1 bA1\\"),
        statuses=(("last", ("bA1",)), ("prime", "bA1")),
        note="Black's last turn moved bA1; not (3,-1): both shared neighbours are height-2 stacks",
    ),
    #                    .     .
    #     .     .     .    wA2    .
    #  .    wY1    wQ    bQ    .
    #     .     .     .     bC    .
    #                    .     .
    FanExample(
        "EX-Y2", "fan-rules.md §6.5 Y-1 [changed: A.6]", "Base+P+Venom",
        "(0,0) wQ · (1,0) bQ · (-1,0) wY1 · (1,1) bC · (2,-1) wA2",
        "move", "wY1",
        ("(0,1) wY1 wQ\\", "(0,2) wY1 /bC", "(1,2) wY1 bC\\", "(2,0) wY1 wA2\\", "(2,1) wY1 bC-"),
        statuses=(("prime", "bC"),),
        note="Prime set directly, as if bC had just swapped: the empty neighbours of bC's cell, not of wA2's",
    ),
    #     .     .     .     .
    #  .     wU    wQ    bQ    .
    #     .     .    bA1    .
    #              .     .
    FanExample(
        "EX-U1", "fan-rules.md §6.6 U-1", "Base+L+Venom",
        "(-1,0) wU · (0,0) wQ · (1,0) bQ · (0,1) bA1",
        "move", "wU", ("(-1,1) wU /wQ", "(0,-1) wU \\wQ", "(1,-1) wU \\bQ"),
    ),
    #        .     .
    #     .     bU    .     .
    #  .     wP    wQ    bQ    .
    #     .    bA1    .     .
    #        .     .
    FanExample(
        "EX-U2 throws", "fan-rules.md §6.6 U-2, §3.7 IM-1", "Base+LP+Venom",
        "(0,0) wP · (1,0) wQ · (2,0) bQ · (0,1) bA1 · (1,-1) bU",
        "throw", "wP", ("(-1,0) bA1 -wP", "(-1,1) bA1 /wP", "(0,-1) bA1 -bU"),
        note="bU (not pinned) is never thrown; wQ is pinned",
    ),
    FanExample(
        "EX-U2 bU", "fan-rules.md §6.6 U-2, §3.7 IM-1", "Base+LP+Venom",
        "(0,0) wP · (1,0) wQ · (2,0) bQ · (0,1) bA1 · (1,-1) bU",
        "any", "bU", (), note="no move of White's moves bU",
    ),
    #              .     .
    #     .     .   bB1^2   .
    #  .     wC    wQ    bQ    .     .
    #     .     .    bA1   bS1   wA1    .
    #              .     .     .     .
    FanExample(
        "EX-C1", "fan-rules.md §6.8 C-1..C-3", "Base+P+Venom",
        EX_C1,
        "swap", "wC", ("wC =bQ", "wC =bA1", "wC =bS1"),
        note="bS1 pinned by wA1, still a target. Not wQ (always a1), the (1,-1) stack, wA1 (four steps away)",
    ),
    #              .     .     .
    #     .    bS1   bB1    .   bQ
    #  .     wQ    wK    bA1    .
    #     .     bU   bG1    .
    FanExample(
        "EX-K1", "fan-rules.md §7 K-2, PR-3", "Base+L+Venom+Predators",
        "(0,0) wK · (1,0) bA1 · (0,1) bG1 · (-1,1) bU · (-1,0) wQ · (0,-1) bS1 · (1,-1) bB1 · (2,-2) bQ",
        "remove", "wK", ("wK xbA1",), (("last", ("bS1",)),),
        note="surrounded, no slide. Not bG1 (touches bU), bU (immune), bS1 (Last), bB1 (cuts bQ off)",
    ),
    #     .     .     .     .
    #  .     wQ    wT    bQ    .
    #     .     .   bB1^2   .
    #              .     .
    FanExample(
        "EX-T1 move", "fan-rules.md §6.7 T-1", "Base+M+Venom", EX_T1, "move", "wT", (),
        note="wT is pinned (wQ hangs on it): no climb",
    ),
    FanExample(
        "EX-T1", "fan-rules.md §6.7 T-3", "Base+M+Venom", EX_T1,
        "control", "wT", ("(1,-1) bQ wT/ @wT", "(1,1) bQ bB1- @wT"),
        note="bB1 is at level 1: not controllable from the ground",
    ),
    #     .     .     .     .
    #  .     wQ   wT^2   bQ    .
    #     .     .   bB1^2   .
    #              .     .
    FanExample(
        "EX-T2 move", "fan-rules.md §6.7 T-2", "Base+M+Venom", EX_T2,
        "move", "wT", ("(1,-1) wT \\bQ", "(0,-1) wT \\bA1", "(-1,1) wT wQ\\"), note="not onto a stack",
    ),
    FanExample(
        "EX-T2", "fan-rules.md §6.7 T-3", "Base+M+Venom", EX_T2,
        "control", "wT",
        ("bB1 bQ\\ @wT", "bB1 wS1\\ @wT", "bB1 /wS1 @wT", "bB1 wQ\\ @wT", "(0,0)@2 bB1 wT @wT", "(1,0)@1 bB1 bQ @wT"),
        note="bB1 may move onto the Tick; bQ and bA1 (level 0) are not controllable from level 1",
    ),
    #              .     .
    #     .     .     bQ    .
    #  .     wQ    wT    bP    .
    #     .     .     .    bA1    .
    FanExample(
        "EX-T3", "fan-rules.md §6.7 T-3, T-4", "Base+MP+Venom",
        "(0,0) wT · (-1,0) wQ · (1,0) bP · (1,-1) bQ · (1,1) bA1",
        "control", "wT",
        ("bQ \\wT @wT", "bQ bP/ @wT", "bQ wT\\ ^bP @wT", "bQ bP/ ^bP @wT", "bQ bA1/ ^bP @wT",
         "bA1 wT\\ ^bP @wT", "bA1 bP/ ^bP @wT", "bA1 bP- ^bP @wT"),
        note="wT and bP are pinned; thrown black pieces are frozen, so bQ bP/ @wT and bQ bP/ ^bP @wT are two moves",
    ),
    #     .     .     .     .
    #  .     wQ    wM    bW    .
    #     .    wB1    bT    .
    FanExample(
        "EX-M1", "fan-rules.md §6.7 T-4, §5.1", "Base+M+Venom", EX_M1,
        "move", "wM", ("wM wQ/", "wM \\bW", "(-1,0)@1 wM wQ", "(-1,1)@1 wM wB1", "(0,1)@1 wM bT", "(1,0)@1 wM bW"),
        note="slides as the Queen and Wasp Queen; climbs as the Beetle or the Tick",
    ),
    FanExample(
        "EX-M1 sting", "fan-rules.md §6.1 W-3, §5.1", "Base+M+Venom", EX_M1,
        "sting", "wM", ("wM ~bW", "wM ~bT"), note="bW becomes bQ, bT becomes bM; no mind control",
    ),
    FanExample("EX-M1 control", "fan-rules.md §6.7 T-4", "Base+M+Venom", EX_M1, "control", "wM", ()),
    #  .    wN    wQ   bS1    bQ    .
    FanExample(
        "EX-N1", "fan-rules.md §7 N-2", "Base+Predators", "(0,0) wQ · (-1,0) wN · (1,0) bS1 · (2,0) bQ",
        "remove", "wN", ("wN xbQ",), (("last", ("bQ",)), ("prime", "bQ"), ("placed", "bQ")),
    ),
    FanExample(
        "EX-N1 win", "fan-rules.md §7 N-2, §3.8", "Base+Predators", "(0,0) wQ · (-1,0) wN · (1,0) bS1 · (2,0) bQ",
        "result", "", (("", "InProgress"), ("wN xbQ", "WhiteWins")),
        (("last", ("bQ",)), ("prime", "bQ"), ("placed", "bQ")),
    ),
    FanExample(
        "EX-N1 pinned", "fan-rules.md §7 N-2, §3.6", "Base+Predators",
        "(0,0) wQ · (-1,0) wN · (1,0) bS1 · (2,0) bQ · (-2,0) wA1",
        "remove", "wN", (), (("last", ("bQ",)), ("prime", "bQ"), ("placed", "bQ")),
        note="a white piece at (-2,0) pins wN",
    ),
    FanExample(
        "EX-N1 moved", "fan-rules.md §7 N-2", "Base+Predators", "(0,0) wQ · (-1,0) wN · (1,0) bS1 · (2,0) bQ",
        "remove", "wN", (), (("last", ("bQ",)), ("prime", "bQ")),
        note="Black's last entry moved bQ: nothing Placed",
    ),
    FanExample("EX-PR1", "fan-rules.md §7 PR-2, §12", "Base+Predators", "", "perft", "", (7, 294, 5880, 117600)),
    # --- The S004 Moth (fan-rules.md §9.4) ---
    #      .     .     .     .     .     .
    #   .    wVx    wQ   wA1   bA1   bS1    .
    #      .     .    wG1    bQ    .     .
    #         .     .     .     .     .
    FanExample(
        "EX-Vx1", "fan-rules.md §9.4 VX-2", "Base+Vx", EX_VX1,
        "move", "wVx", ("(2,0)@1 wVx bA1", "(1,1)@1 wVx bQ"),
        note="across wQ, wA1 and wG1; not bS1, behind bA1 (the path stops on an enemy piece)",
    ),
    FanExample(
        "EX-Vx2", "fan-rules.md §9.4 VX-2", "Base+Vx",
        "(0,0) wQ · (1,0) wA1 · (2,0) bA1+wVx · (3,0) bS1 · (0,1) wG1 · (1,1) bQ",
        "move", "wVx", ("(3,0)@1 wVx bS1", "(1,1)@1 wVx bQ"),
        note="EX-Vx1 after `wVx bA1`: it never comes down by itself",
    ),
    #      .     .     .     .
    #   .    wM     wQ    bQ    .
    #      .    wB1    .     .
    FanExample(
        "EX-Vx3", "fan-rules.md §9.4 VX-4, §5.1 MQ-4", "Base+M+Vx", EX_VX3,
        "move", "wM", ("(-2,1)@0 wM -wB1", "(0,-1)@0 wM \\wQ"),
        note="the Beetle's steps onto wQ and wB1 are dropped",
    ),
    FanExample("EX-Vx3 Base+M", "fan-rules.md §9.4 VX-4", "Base+M", EX_VX3,
               "move", "wM", ("(-2,1)@0 wM -wB1", "(0,-1)@0 wM \\wQ", "(0,0)@1 wM wQ", "(-1,1)@1 wM wB1")),
    FanExample("EX-Vx perft", "fan-rules.md §12", "Base+Vx", "", "perft", "", (5, 150, 2610, 45414)),
    # --- The S004 Mantis (fan-rules.md §9.5) ---
    #      .     .     .     .
    #   .     .    wNx   bS1    .
    #      .     wQ   bG1    .
    #         .     .    bQ    .
    FanExample(
        "EX-Nx1", "fan-rules.md §9.5 NX-1", "Base+Nx", EX_NX1,
        "move", "wNx", ("wNx \\wQ", "wNx \\bS1", "wNx -wQ", "wNx bS1/", "wNx /wQ", "wNx bS1-"),
        note="one, two and three slides",
    ),
    FanExample(
        "EX-Nx1 removals", "fan-rules.md §9.5 NX-2", "Base+Nx", EX_NX1, "to hand", "wNx", ("wNx xbS1", "wNx xwQ"),
        note="bS1 to the prison, wQ to White's hand; not bG1, which would cut bQ off",
    ),
    FanExample("EX-Nx perft", "fan-rules.md §12", "Base+Nx", "", "perft", "", (5, 150, 2610, 45414)),
    # --- The S004 Wasp and the Queen's sting (fan-rules.md §9.6) ---
    #      .     .     .     .     .     .
    #   .    wWx   wA1    wQ    bQ   bA1    .
    #      .     .     .     .     .     .
    FanExample(
        "EX-Wx1", "fan-rules.md §9.6 WX-2", "Base+Wx", "(0,0) wQ · (1,0) bQ · (-1,0) wA1 · (-2,0) wWx · (2,0) bA1",
        "move", "wWx", ("wWx /wA1", "wWx \\wA1", "wWx bA1\\", "wWx bA1/", "wWx bA1-"),
        note="no cell next to a Queen, and (-1,0)'s other neighbours touch nothing but the Wasp's start",
    ),
    #      .     .     .     .     .
    #   .     wQ    bQ   bA1   wWx    .
    #      .     .     .     .    bS1    .
    FanExample(
        "EX-Wx2", "fan-rules.md §9.6 WX-3", "Base+Wx", EX_WX2, "wasp sting", "wWx", ("wWx !bS1",),
        note="bA1 is pinned and could not move away",
    ),
    FanExample(
        "EX-Wx2 obliged", "fan-rules.md §9.6 WX-4", "Base+Wx", EX_WX2, "all", "", ("(0,1) bS1 wQ\\",),
        (("to_move", "b"), ("obliged", ("bS1", "wWx"))),
        note="bS1's other Spider move, to (3,-1), stays next to wWx; no placement, no other piece",
    ),
    #      .     .     .     .
    #   .    bA1    wQ    bQ    .
    #      .    wG1  bB1^2   .
    #   .    wWx    .     .
    FanExample(
        "EX-Wx3", "fan-rules.md §9.6 WX-5", "Base+Wx",
        "(0,0) wQ · (1,0) bQ · (-1,0) bA1 · (0,1) wS1+bB1 · (-1,1) wG1 · (-2,2) wWx",
        "to hand", "wQ", ("wQ xbA1", "wQ xbB1"), note="wS1 stays under bB1's place; never bQ",
    ),
    FanExample("EX-Wx perft", "fan-rules.md §12", "Base+Wx", "", "perft", "", (5, 150, 2520, 42336)),
    # --- The S004 Firefly (fan-rules.md §9.7) ---
    #      .     .     .     .     .
    #   .    wFx   wA1    wQ    bQ    .
    #      .    bG1    .     .     .
    FanExample(
        "EX-Fx1", "fan-rules.md §9.7 FX-1", "Base+Fx", EX_FX1,
        "move", "wFx", ("wFx -bG1", "wFx /bG1", "wFx bG1\\", "wFx \\wA1"),
    ),
    FanExample(
        "EX-Fx1 control", "fan-rules.md §9.7 FX-2", "Base+Fx", EX_FX1,
        "throw", "wFx", ("(-2,-1) bG1 \\wFx @wFx", "(0,-1) bG1 \\wQ @wFx"),
        note="over wFx, and to (0,-1); wA1 (its own) is never controlled",
    ),
    #      .     .     .     .     .
    #   .     wQ    wP   bB1   wFx    .
    #      .     .     bQ   bA1    .
    FanExample(
        "EX-ID1", "fan-rules.md §9.7, §3.5 ID-1", "Base+P+Fx", "(0,0) wP · (-1,0) wQ · (1,0) bB1 · (2,0) wFx · (0,1) bQ · (1,1) bA1",
        "any", "bB1",
        ("bB1 wQ\\", "bB1 \\wP", "bB1 wP/", "bB1 wP @wFx", "bB1 bQ @wFx", "bB1 bA1 @wFx", "bB1 wFx @wFx",
         "bB1 \\wFx @wFx"),
        note="(1,-1) by control is the throw there (both freeze): one move, printed bB1 wP/; eight in all",
    ),
    FanExample("EX-Fx perft", "fan-rules.md §12", "Base+Fx", "", "perft", "", (5, 150, 2520, 42336)),
]

# Ours: what the spec's examples leave out, each set worked out by hand from the rules cited.
PR_MOSQUITO = "(0,0) wM · (1,-1) wK · (1,0) bA1 · (2,-1) wQ · (2,0) bQ"
MORE_FAN_POSITIONS = [
    #     .     .    wK    wQ     .
    #  .     .    wM    bA1   bQ     .
    FanExample(
        "REF-PR Mosquito kill", "fan-rules.md §7 PR-4, K-2, §3.6", "Base+M+Predators", PR_MOSQUITO,
        "remove", "wM", ("wM xbA1",),
        note="wM copies wK's kill and leaves with bA1; the climb to (1,0) passes between wK and an empty cell",
    ),
    FanExample(
        "REF-PR kill splits", "fan-rules.md §7 K-2, §3.6", "Base+M+Predators", PR_MOSQUITO,
        "remove", "wK", (), note="without wK and bA1, wM is cut off",
    ),
    #      .     .     .     .     .
    #   .     wM    wE    wQ    bQ    .
    #      .     .     .     .     .
    FanExample(
        "REF-ME", "fan-rules.md §5.1, §9.1 E-3", "Base+M+E",
        "(-1,0) wM · (0,0) wE · (1,0) wQ · (2,0) bQ",
        "move", "wM", ("(0,-1) wM \\wE", "(-1,1) wM /wE"),
        note="only wE lends: its two slides; no jump over wE (wQ is beyond), and not a Grasshopper's "
        "line to (3,0)",
    ),
    #      .     .     .     .     .
    #   .     bQ    wQ    wJ    wM    .
    #      .     .     .     .     .
    FanExample(
        "REF-MJ moves", "fan-rules.md §5.1, §9.2 J-3", "Base+M+J",
        MJ_LEAF,
        "move", "wM", ("(-1,-1) wM \\wJ", "(0,-1) wM wJ/", "(-2,1) wM /wJ", "(-1,1) wM wJ\\"),
        note="only wJ lends: up onto it, down on any empty side of it",
    ),
    FanExample(
        "REF-MJ no throw", "fan-rules.md §5.1, §9.2 J-3", "Base+M+J",
        MJ_LEAF,
        "throw", "wM", (), note="its only neighbour, wJ, is pinned",
    ),
    #      .     .     .     .     .
    #   .     wJ    wM    wQ    bQ    .
    #      .     .     .     .     .
    FanExample(
        "REF-MJ throws", "fan-rules.md §5.1, §9.2 J-3", "Base+M+J",
        MJ_LINE,
        "throw", "wM", ("wJ \\wQ", "wJ \\wM", "wJ /wM", "wJ wM\\"),
        note="wM is pinned and throws all the same; wQ is pinned",
    ),
    FanExample(
        "REF-MJ pinned", "fan-rules.md §1.3 G-2", "Base+M+J",
        MJ_LINE,
        "move", "wM", (),
    ),
    FanExample(
        "REF-MJ in Last", "fan-rules.md §5.1 MQ-3, §3.3", "Base+M+J",
        MJ_LINE,
        "throw", "wM", (), statuses=(("last", ("wM",)),),
        note="the Mosquito's own Last forbids the copied throw",
    ),
    #         .     .
    #      .    bA1    .     .     .
    #   .     wJ    wM    wQ    bQ    .
    #      .     .     .     .     .
    FanExample(
        "REF-MJ frozen lender", "fan-rules.md §5.1 MQ-1", "Base+M+J",
        "(-1,0) wJ · (0,0) wM · (1,0) wQ · (2,0) bQ · (0,-1) bA1",
        "throw", "wM", ("bA1 \\wQ", "bA1 /wM", "bA1 wM\\"),
        statuses=(("last", ("wJ",)), ("frozen", ("wJ",))),
        note="a Frozen wJ still lends its throw (but is not thrown itself)",
    ),
    #               .     .
    #      .     .    bA1    .     .
    #   .     bQ    wQ   wDx    wM    .
    #      .     .     .     .     .
    FanExample(
        "REF-MDx", "fan-rules.md §5.1, §9.3 DX-5", "Base+M+Dx",
        "(0,0) wM · (-1,0) wDx · (-2,0) wQ · (-3,0) bQ · (-1,-1) bA1",
        "move", "wM", ("(-2,1)@0 wM /wDx",),
        note="the only empty Diag cell touching the hive; (-1,-1) is a Diag cell too, but occupied",
    ),
    #      .     .     .     .     .
    #   .     bQ    wQ   wV^2   wM    .
    #      .     .     .    wZ^2   .
    #                     .     .
    FanExample(
        "REF-MVZ", "fan-rules.md §5.1, §8 GU-3", "Base+M+Guardians",
        "(0,0) wM · (-1,0) wA1+wV · (-1,1) wS1+wZ · (-2,0) wQ · (-3,0) bQ",
        "move", "wM", (), note="a Moth and a Butterfly lend nothing, and the pieces under them are covered",
    ),
    #      .     .     .     .
    #   .    wV^2   wQ    bQ    .
    #      .     .     .     .
    FanExample(
        "REF-Z on V", "fan-rules.md §8 GU-2", "Base+Guardians",
        "(0,0) wQ · (1,0) bQ · (-1,0) wA1+wV",
        "place", "wZ", ("(-1,0)@2 wZ wV",), note="a Guardian's own colour on top: a Guardian on a Guardian",
    ),
    #      .     .     .
    #   .     wQ  wB1^2   .
    #      .     .    bA1    .
    #               .     .
    FanExample(
        "REF-E covered Queen", "fan-rules.md §9.1 E-1", "Base+E",
        "(0,0) wQ · (1,0) bQ+wB1 · (1,1) bA1",
        "place", "wE", (),
        note="(2,0) and (0,1) touch both colours but also bQ, covered by wB1",
    ),
    #      .     .     .
    #   .     wQ    bQ    .
    #      .   wDx^2   .
    #         .     .
    FanExample(
        "REF-Dx frozen cargo", "fan-rules.md §9.3 DX-3", "Base+Dx",
        "(0,0) wQ · (1,0) bQ · (0,1) wA1+wDx",
        "move", "wDx", ("(-1,0)@0 wDx -wQ", "(1,-1)@0 wDx \\bQ", "(2,0)@0 wDx bQ-"),
        statuses=(("last", ("wA1",)), ("frozen", ("wA1",))),
        note="a Frozen piece is never carried: wDx lands alone",
    ),
    #      .     .     .
    #   .     wQ    bQ    .
    #      .   wDx^3   .
    #         .     .
    FanExample(
        "REF-Dx Guardian cargo", "fan-rules.md §9.3 DX-3, §8 GU-3", "Base+Guardians+Dx",
        "(0,0) wQ · (1,0) bQ · (0,1) bA1+wV+wDx",
        "move", "wDx", ("(-1,0)@0 wDx -wQ", "(1,-1)@0 wDx \\bQ", "(2,0)@0 wDx bQ-"),
        note="our reading: a Guardian is always on top (GU-3), so it is never carried down",
    ),
    #      .     .     .     .
    #   .     wQ    bQ   bS1    .
    #      .   wDx^2   .     .
    #         .     .
    FanExample(
        "REF-Dx onto a stack", "fan-rules.md §9.3 DX-3", "Base+Dx",
        "(0,0) wQ · (1,0) bQ · (0,1) bA1+wDx · (2,0) bS1",
        "move", "wDx", ("(-1,0)@1 wDx -wQ", "(1,-1)@1 wDx \\bQ", "(2,0)@1 wDx bS1"),
        note="EX-Dx2 with an occupied Diag cell: from on top wDx lands alone on top of bS1, carries elsewhere",
    ),
    #      .     .     .
    #   .     bQ   bA1    .
    #      .   wDx^2   .
    #         .     .
    FanExample(
        "REF-Dx carries its Queen", "fan-rules.md §9.3 DX-4 [Dx5]", "Base+Dx",
        "(0,0) bQ · (1,0) bA1 · (0,1) wQ+wDx",
        "move", "wDx", ("(-1,0)@1 wDx -bQ", "(1,-1)@1 wDx \\bA1", "(2,0)@1 wDx bA1-"),
        note="either Queen may be carried",
    ),
    #         .     .     .     .
    #      .    wS1   bS1   bS2    .
    #   .    wS2  wB1^2  bV^2  bA1    .
    #      .    wG1    .    bG1    .
    #         .    wA1    .     .
    #            .     .
    FanExample(
        "REF-G draw", "fan-rules.md §3.8, §8 GU-1", "Base+Guardians",
        "(0,0) wQ+wB1 · (1,0) bQ+bV · (1,-1) bS1 · (0,-1) wS1 · (-1,0) wS2 · (-1,1) wG1 · (2,0) bA1 · "
        "(2,-1) bS2 · (1,1) bG1 · (-1,2) wA1",
        "result", "", (("", "InProgress"), ("wA1 wG1-", "Draw"), ("wA1 /wG1", "InProgress")),
        note="both Queens covered; filling (0,1), next to both, surrounds both at once",
    ),
    FanExample(
        "REF-J in Last", "fan-rules.md §3.3, §9.2 J-2", "Base+J",
        EX_J1,
        "throw", "wJ", (), statuses=(("last", ("wJ",)),),
        note="EX-J1 with wJ in Last: no throw (its moves are unchanged, the next row)",
    ),
    FanExample(
        "REF-J in Last moves", "fan-rules.md §3.3", "Base+J",
        EX_J1,
        "move", "wJ",
        ("wJ -wQ", "wJ /wQ", "wJ \\wQ", "wJ wQ\\", "wJ bB1\\", "wJ \\bA1", "wJ bA1\\", "wJ \\bQ"),
        statuses=(("last", ("wJ",)),),
    ),
    #      .     .     .     .     .
    #   .    bA1    wP    wQ    bQ    .
    #      .     .     .     .     .
    FanExample(
        "REF-P Last", "fan-rules.md §3.3, §5.2", "Base+P",
        P_LINE,
        "throw", "wP", (), statuses=(("last", ("bA1",)),), note="bA1, just placed, is in Last",
    ),
    FanExample(
        "REF-P throws", "fan-rules.md §5.2", "Base+P",
        P_LINE,
        "throw", "wP", ("bA1 \\wQ", "bA1 \\wP", "bA1 /wP", "bA1 wP\\"), note="wQ is pinned",
    ),
    # --- Venom (fan-rules.md §6): what its examples leave out ---
    #     .     .     .     .
    #  .     wT    bW    .
    #     .    wW    bS1    .
    FanExample(
        "REF-T sting is the Queen's", "fan-rules.md §6.7 T-3, §3.5 ID-1, §4.3 NO-5", "Base+M+Venom",
        "(0,0) wT · (0,1) wW · (1,0) bW · (1,1) bS1",
        "sting", "bW", ("wW ~bS1",),
        note="the controlled bW stings its own side; the state is wW's sting of bS1, printed without @",
    ),
    #     .     .     .     .
    #  .     wQ    wT    bW    .
    #     .     .     .    bS1    .
    FanExample(
        "REF-T sting", "fan-rules.md §6.7 T-3, §4.2", "Base+M+Venom",
        "(-1,0) wQ · (0,0) wT · (1,0) bW · (1,1) bS1",
        "control", "wT", ("bW ~bS1 @wT",), note="bW is pinned (bS1 hangs on it): its sting only",
    ),
    #     .     .     .     .
    #  .     wQ    wT    bK    .
    #     .     .    bA1   bQ    .
    FanExample(
        "REF-T kill own Queen", "fan-rules.md §6.7 T-3, §7 K-2, §3.8", "Base+M+Venom+Predators",
        T_KILL,
        "result", "", (("bK xbQ @wT", "WhiteWins"),),
        note="the controlled Killer beetle's enemy is its own side: it removes bQ, and Black loses",
    ),
    FanExample(
        "REF-T kill", "fan-rules.md §6.7 T-3, §7 K-2, §3.6", "Base+M+Venom+Predators",
        T_KILL,
        "remove", "bK", ("bK xbQ @wT",), note="not bK xbA1: bQ would be cut off (§3.6)",
    ),
    FanExample(
        "REF-VN2 covered Scorpion", "fan-rules.md §6.0 VN-3 4, §1.3 G-3", "Base+L+Venom",
        EX_VN2.replace("(2,-1) bR1", "(2,-1) bR1+wB2"),
        "flip", "", ("wQ ~", "wU ~", "wB1 ~", "wG2 ~", "wS1 ~", "wA1 ~", "wB2 ~"), statuses=(("last", ("wA2",)),),
        note="EX-VN2's last sentence: with a beetle on bR1, wA1 ~ is legal too (and the beetle, a Beetle tile "
        "on top, flips)",
    ),
    FanExample(
        "REF-R frozen lock", "fan-rules.md §6.4 R-2 [R3]", "Base+L+Venom",
        EX_VN2,
        "flip", "", ("wQ ~", "wU ~", "wB1 ~", "wG2 ~", "wS1 ~", "wA2 ~"),
        statuses=(("last", ("bR1",)), ("frozen", ("bR1",))),
        note="a Frozen Scorpion still locks wA1; wA2 is no longer in Last",
    ),
    #     .     .     .     .
    #  .    wR1    wQ    bQ    .
    #     .     .     .     .
    FanExample(
        "REF-R own side", "fan-rules.md §6.4 R-2 [R1]", "Base+Venom",
        "(0,0) wQ · (1,0) bQ · (-1,0) wR1",
        "flip", "", ("wQ ~", "wR1 ~"), note="the lock binds the Scorpion's opponent only",
    ),
    FanExample(
        "REF-VN Placed no flip", "fan-rules.md §2.2 Venom(Placed), VN-3 6", "Base+Venom(Placed)",
        "(0,0) wQ · (1,0) bQ · (-1,0) wR1",
        "flip", "", (),
    ),
    FanExample(
        "REF-VN Placed faces", "fan-rules.md §2.2 Venom(Placed), VN-2", "Base+Venom(Placed)",
        "(0,0) wQ · (1,0) bQ · (-1,0) wR1",
        "place", "wF1", ("wF1 -wR1", "wF1 /wQ", "wF1 /wR1", "wF1 \\wR1", "wF1 wR1/"),
        note="faces are still chosen at placement",
    ),
    FanExample(
        "REF-VN Fixed no choice", "fan-rules.md §2.2 Venom(Fixed:...)", "Base+Venom(Fixed:FY)",
        "(0,0) wQ · (1,0) bQ",
        "place", "wB1", (), note="both Beetle tiles are Fireflies: never placed Beetle side up (next row)",
    ),
    FanExample(
        "REF-VN Fixed face", "fan-rules.md §2.2 Venom(Fixed:...)", "Base+Venom(Fixed:FY)",
        "(0,0) wQ · (1,0) bQ",
        "place", "wF1", ("wF1 -wQ", "wF1 /wQ", "wF1 \\wQ"),
    ),
    FanExample(
        "REF-VN Fixed front", "fan-rules.md §2.2 Venom(Fixed:...)", "Base+Venom(Fixed:FY)",
        "(0,0) wQ · (1,0) bQ",
        "place", "wR1", (), note="R is not listed: the Spider tiles show their front",
    ),
    #     .     .     .
    #  .    wA1    bQ    .
    #     .     .     .
    FanExample(
        "REF-VN Queen side up", "fan-rules.md §6.0 VN-2", "Base+Venom",
        "(0,0) wA1 · (1,0) bQ",
        "place", "wW", (), statuses=(("turn", 3),), note="the Queen tile is placed Queen side up only (next row)",
    ),
    FanExample(
        "REF-VN Queen placed", "fan-rules.md §6.0 VN-2", "Base+Venom",
        "(0,0) wA1 · (1,0) bQ",
        "place", "wQ", ("wQ -wA1", "wQ /wA1", "wQ \\wA1"), statuses=(("turn", 3),),
    ),
    FanExample(
        "REF-VN no Queen no flip", "fan-rules.md §6.0 VN-3 2, §1.3 G-1", "Base+Venom",
        "(0,0) wA1 · (1,0) bQ",
        "flip", "", (), statuses=(("turn", 3),),
    ),
    #     .     .     .     .
    #  .    wD1    wQ    bQ    .
    #     .     .     .     .
    FanExample(
        "REF-VN ordinal per tile", "fan-rules.md §6.0 VN-2", "Base+Venom",
        "(0,0) wQ · (1,0) bQ · (-1,0) wD1",
        "place", "wD2", ("wD2 -wD1", "wD2 /wD1", "wD2 /wQ", "wD2 \\wD1", "wD2 wD1/"),
        note="tile G1 is in play as wD1: G2 is next, either face (wG3 never, the next row)",
    ),
    FanExample(
        "REF-VN ordinal G3", "fan-rules.md §6.0 VN-2", "Base+Venom",
        "(0,0) wQ · (1,0) bQ · (-1,0) wD1",
        "place", "wG3", (),
    ),
    #     .     .     .     .     .
    #  .    wA1    wW   bA1    bQ    .
    #     .     .     .     .     .
    FanExample(
        "REF-W pinned", "fan-rules.md §6.1 W-2", "Base+Venom",
        "(0,0) wW · (-1,0) wA1 · (1,0) bA1 · (2,0) bQ",
        "sting", "wW", ("wW ~bA1",), note="the Wasp Queen and its victim both pinned: nothing moves",
    ),
    FanExample(
        "REF-W in Last", "fan-rules.md §6.1 W-2, §3.3", "Base+Venom",
        "(0,0) wW · (-1,0) wA1 · (1,0) bA1 · (2,0) bQ",
        "sting", "wW", ("wW ~bA1",), statuses=(("last", ("wW",)),),
        note="our reading: Last forbids throwing, not stinging (§3.3 names the throwers only)",
    ),
    FanExample(
        "REF-W frozen", "fan-rules.md §6.1 W-2, §3.3", "Base+Venom",
        "(0,0) wW · (-1,0) wA1 · (1,0) bA1 · (2,0) bQ",
        "sting", "wW", (), statuses=(("last", ("wW",)), ("frozen", ("wW",))),
    ),
    #     .     .     .     .
    #  .    bA1    wW    bW    .
    #     .     .     .     .
    FanExample(
        "REF-W stings a Queen tile", "fan-rules.md §6.1 W-2", "Base+Venom",
        "(0,0) wW · (1,0) bW · (-1,0) bA1",
        "sting", "wW", ("wW ~bW", "wW ~bA1"), note="the enemy Queen tile, here Wasp side up: it turns Queen side up",
    ),
    #     .     .     .     .
    #  .     wW    bE    bQ    .
    #     .    bA1    .     .
    #        .     .
    FanExample(
        "REF-W single-sided", "fan-rules.md §6.1 W-2 [decision]", "Base+Venom+E",
        "(0,0) wW · (1,0) bE · (2,0) bQ · (0,1) bA1",
        "sting", "wW", ("wW ~bA1",), note="the Flea has no back",
    ),
    FanExample(
        "REF-Y no Prime", "fan-rules.md §6.5 Y-1", "Base+Venom",
        EX_Y1,
        "move", "wY1", (), note="EX-Y1 without Prime: no Fly move",
    ),
    FanExample(
        "REF-Y Prime on its cell", "fan-rules.md §6.5 Y-1", "Base+Venom",
        EX_Y1,
        "move", "wY1", (), statuses=(("last", ("wY1",)), ("prime", "wY1")),
        note="as if Black had thrown wY1: T is the Fly's own cell (it is Frozen too in play)",
    ),
    FanExample(
        "REF-Y from a stack", "fan-rules.md §6.5 Y-2", "Base+Venom",
        EX_Y1,
        "move", "wY1", ("(1,-1) wY1 -bB1", "(2,-2) wY1 \\bB1", "(3,-1) wY1 bB1-", "(3,-2) wY1 bB1/"),
        statuses=(("last", ("bB1",)), ("prime", "bB1")),
        note="Prime bB1 on a height-2 pile: the descent from height 2 passes every gate here",
    ),
    #     .     .     .     .
    #  .     wC    wQ    bQ    .
    #     .     .    bA1    bU    .
    #              .     .     .
    FanExample(
        "REF-C Stink bug", "fan-rules.md §6.8 C-2, §3.7 IM-1", "Base+LP+Venom",
        "(0,0) wQ · (1,0) bQ · (-1,0) wC · (0,1) bA1 · (1,1) bU",
        "swap", "wC", ("wC =bQ", "wC =bA1"), note="bU is never swapped",
    ),
    FanExample(
        "REF-C frozen target", "fan-rules.md §6.8 C-2, §3.3", "Base+LP+Venom",
        "(0,0) wQ · (1,0) bQ · (-1,0) wC · (0,1) bA1 · (1,1) bU",
        "swap", "wC", ("wC =bQ",), statuses=(("last", ("bA1",)), ("frozen", ("bA1",))),
    ),
    #     .     .     .     .     .
    #  .    wA1    wC    wQ    bQ    .
    #     .     .     .    bA1    .
    #                    .     .
    FanExample(
        "REF-C pinned", "fan-rules.md §6.8 C-1, §3.6", "Base+P+Venom",
        "(-2,0) wA1 · (-1,0) wC · (0,0) wQ · (1,0) bQ · (0,1) bA1",
        "swap", "wC", (), note="wA1 hangs on wC",
    ),
    #     .     .     .     .
    #  .     wC    wQ    bQ    .
    #     .     .    wA1   bA1    .
    #              .     .     .
    FanExample(
        "REF-C own target, in Last", "fan-rules.md §6.8 C-2, §3.3", "Base+P+Venom",
        "(0,0) wQ · (1,0) bQ · (-1,0) wC · (0,1) wA1 · (1,1) bA1",
        "swap", "wC", ("wC =wA1", "wC =bQ", "wC =bA1"), statuses=(("last", ("wC",)),),
        note="a target of either colour; our reading: a Centipede in Last still swaps (Last forbids throwing)",
    ),
    FanExample(
        "REF-C no own move", "fan-rules.md §6.8", "Base+P+Venom",
        "(0,0) wQ · (1,0) bQ · (-1,0) wC · (0,1) wA1 · (1,1) bA1",
        "move", "wC", (), note="our reading: the Centipede's only action is the swap (§6.8 gives it no other)",
    ),
    #     .     .     .     .     .
    #  .     bU    wJ    wQ    bQ    .
    #     .     .    bA1    .     .
    #              .     .
    FanExample(
        "REF-J Stink bug", "fan-rules.md §9.2 J-2, §3.7 IM-1", "Base+L+Venom+J",
        "(0,0) wJ · (1,0) wQ · (2,0) bQ · (-1,0) bU · (0,1) bA1",
        "throw", "wJ", ("bA1 /wJ", "bA1 bU/", "bA1 wJ/"), note="the Woodlouse never throws bU either",
    ),
    #        .     .     .
    #     .    bS1   bA2    .
    #  .     wQ    bW   bA1    .
    #     .    wS1    .    wA1    .
    #        .     .     .     .
    FanExample(
        "REF-VN royal Wasp", "fan-rules.md §6.0 VN-1, §3.8", "Base+Venom",
        "(0,0) bW · (1,0) bA1 · (1,-1) bA2 · (0,-1) bS1 · (-1,0) wQ · (-1,1) wS1 · (1,1) wA1",
        "result", "", (("", "InProgress"), ("(0,1) wA1 wS1-", "WhiteWins")),
        note="the Queen tile Wasp side up is captured like the Queen",
    ),
    FanExample(
        "REF-VN royal Wasp, Guardians", "fan-rules.md §6.0 VN-1, §8 GU-1", "Base+Venom+Guardians",
        "(0,0) bW+wV · (1,0) bA1 · (1,-1) bA2 · (0,-1) bS1 · (-1,0) wQ · (-1,1) wS1 · (1,1) wA1",
        "result", "", (("", "InProgress"), ("(0,1) wA1 wS1-", "WhiteWins")),
        note="surrounded and covered; without wV on her the game would go on",
    ),
    # --- The S004 Moth (fan-rules.md §9.4): what its examples leave out ---
    #      .     .     .     .
    #   .    wVx  wB1^2  bS1    .
    #      .     .     bQ    .
    FanExample(
        "REF-Vx over its own pile", "fan-rules.md §9.4 VX-2", "Base+Vx",
        "(0,0) wQ · (-1,0) wVx · (1,0) bA1+wB1 · (2,0) bS1 · (1,1) bQ",
        "move", "wVx", ("(2,0)@1 wVx bS1", "(1,1)@1 wVx bQ"),
        note="wB1 tops its pile, so the Moth crosses it; bA1 under it is no destination",
    ),
    #      .     .     .     .
    #   .     .    bB1^2   .     .
    #      .    wVx   bA1    bQ    .
    #   .     wQ   bB2^2   .     .
    FanExample(
        "REF-Vx gated", "fan-rules.md §9.4 VX-2 [Mo4], §1.2 Step", "Base+Vx",
        "(0,0) wVx · (1,0) bA1 · (1,-1) wS1+bB1 · (0,1) wS2+bB2 · (-1,1) wQ · (2,0) bQ",
        "move", "wVx", ("(1,-1)@2 wVx bB1", "(0,1)@2 wVx bB2"),
        note="not bA1: the piles of two either side gate the step onto it, and the other ways stop on bB1 and bB2",
    ),
    #      .     .     .     .     .
    #   .     wQ    wT   bVx    bQ    .
    #      .     .    wG1   bA1   wA1    .
    FanExample(
        "REF-Vx under control", "fan-rules.md §9.4 VX-2, §6.7 T-3", "Base+M+Venom+Vx", VX_CONTROLLED,
        "control", "wT", ("(0,0)@1 bVx wT @wT", "(0,1)@1 bVx wG1 @wT", "(2,1)@1 bVx wA1 @wT"),
        note="the colour test is the Moth's own: it crosses bA1 and bQ and lands on White's pieces",
    ),
    #      .     .     .     .
    #   .     .     wM    bQ    .
    #      .     wQ   wF1    .
    FanExample(
        "REF-Vx Mosquito by a Firefly", "fan-rules.md §5.1 MQ-4", "Base+M+Venom+Vx",
        "(0,0) wM · (-1,1) wQ · (0,1) wF1 · (1,0) bQ",
        "move", "wM", ("(-1,0)@0 wM \\wQ", "(1,-1)@0 wM \\bQ"),
        note="the Firefly's two climbs would end on top: only the Queens' slides are left",
    ),
    FanExample(
        "REF-Vx Tick on top", "fan-rules.md §5.1 MQ-4, §6.0 VN-3", "Base+M+Venom+Vx",
        "(0,0) wQ · (1,0) bQ · (0,1) bA1+wT", "flip", "wT", (),
        note="turned over it would leave a Mosquito on top; in Base+M+Venom it may flip",
    ),
    # --- The S004 Mantis: what its example leaves out ---
    FanExample(
        "REF-Nx prison", "fan-rules.md §9.5 NX-2, NX-4", "Base+Nx", "(0,0) wQ · (1,0) bQ · (-1,0) bS2",
        "place", "bS1", (), (("to_move", "b"), ("prison", ("bS1",))),
        note="bS1 in wNx's prison is not in Black's hand: bS2 is on the board, so Black has no Spider to place",
    ),
    #      .     .     .     .
    #   .     wQ   wNx    bQ    .
    #      .     .     .     .
    FanExample(
        "REF-Nx placed again", "fan-rules.md §9.5 NX-3", "Base+Nx", "(0,0) wQ · (1,0) bQ",
        "place", "wNx", ("(-1,0) wNx -wQ", "(-1,1) wNx /wQ", "(0,-1) wNx \\wQ"), (("prison", ("bS1",)),),
        note="each placement empties wNx's prison: bS1 back in Black's hand (the engine's run of the row checks it)",
    ),
    #      .     .     .
    #   .     wQ    bQ    .
    #      wM   wNx    .
    FanExample(
        "REF-Nx and its Mosquito", "fan-rules.md §9.5 NX-2, NX-5, §3.5 ID-1", "Base+M+Nx", NX_MOSQUITO,
        "to hand", "wM", ("wM xwNx", "wM xwQ"),
        note="wNx xwM leaves the same state as wM xwNx (both in White's hand): one move, named by the Mosquito",
    ),
    FanExample(
        "REF-Nx and its Mosquito, wNx", "fan-rules.md §9.5 NX-2", "Base+M+Nx", NX_MOSQUITO,
        "to hand", "wNx", ("wNx xbQ", "wM xwNx"), note="its taking of wM is that move; not wQ: wM would be cut off",
    ),
    # --- The S004 Wasp and Firefly: what their examples leave out ---
    #      .     .     .
    #   .    wS1    wQ    .
    #      .     .     .
    FanExample(
        "REF-G6 after a sting to hand", "fan-rules.md §1.3 G-6, §9.6 WX-5", "Base+Wx", "(0,0) wQ · (-1,0) wS1",
        "place", "bA1",
        ("bA1 -wS1", "bA1 /wS1", "bA1 \\wS1", "bA1 /wQ", "bA1 wS1/", "bA1 wQ\\", "bA1 wQ/", "bA1 wQ-"),
        (("to_move", "b"), ("stings_used", ("w",)), ("turn", 3)),
        note="wQ has just sent bA1, Black's only piece in play, back to hand: Black places anywhere by the hive",
    ),
    #      .     .     .     .     .
    #   .     wQ    bQ   bA1   wWx    .
    #      .     .     .     .     .
    FanExample(
        "REF-Wx obligation lapses", "fan-rules.md §9.6 WX-4", "Base+Wx", "(0,0) wQ · (1,0) bQ · (2,0) bA1 · (3,0) wWx",
        "place", "bB1", ("(1,1) bB1 bQ\\", "(2,-1) bB1 bQ/"), (("to_move", "b"), ("obliged", ("bA1", "wWx"))),
        note="bA1 holds wWx to the hive, so it cannot move away: the obligation lapses and Black may place",
    ),
    FanExample(
        "REF-Wx spent Queen", "fan-rules.md §9.6 WX-5", "Base+Wx", "(0,0) wQ · (1,0) bQ · (-1,0) bA1 · (0,1) wG1",
        "any", "wQ", (), (("stings_used", ("w",)),),
        note="she never moves by herself again, nor stings twice (the next row)",
    ),
    FanExample(
        "REF-Wx spent Queen stings", "fan-rules.md §9.6 WX-5", "Base+Wx", "(0,0) wQ · (1,0) bQ · (-1,0) bA1 · (0,1) wG1",
        "to hand", "wQ", (), (("stings_used", ("w",)),),
    ),
    #      .     .     .
    #   .     wQ   bFx    .
    #      .     bQ    .
    FanExample(
        "REF-Fx Queen", "fan-rules.md §9.7 FX-2 [Fx3]", "Base+Fx+Wx", FX_QUEEN,
        "throw", "bFx", ("(1,-1) wQ \\bFx @bFx", "(-1,1) wQ -bQ @bFx"), (("to_move", "b"),),
        note="the enemy Queen may be commanded, by her own slides",
    ),
    FanExample(
        "REF-Fx spent Queen", "fan-rules.md §9.6 WX-5, §9.7 FX-2", "Base+Fx+Wx", FX_QUEEN,
        "throw", "bFx", (), (("to_move", "b"), ("stings_used", ("w",))),
        note="our reading: the command plays her own movement, which she no longer has once she has stung",
    ),
    FanExample(
        "REF-Vx Tick on top, no Moth", "fan-rules.md §6.0 VN-3", "Base+M+Venom",
        "(0,0) wQ · (1,0) bQ · (0,1) bA1+wT", "flip", "wT", ("wT ~",),
    ),
]


def position_of(example):
    """The example's position, built directly (fan-rules.md §1.1)."""
    return Position.from_example(example.game_type, example.board, **dict(example.statuses))


def expected_moves(position, example):
    """The example's expected moves in the reference's form, each string resolved in the
    position (its `(q,r)@L` prefix checked against where the mover lands)."""
    return {position.parse(text) for text in example.expected}


def selected(position, kind, piece):
    """The reference's moves of one kind for one piece (module docstring)."""
    if kind == "any":
        return {m for m in position.legal_moves() if m != "pass" and m[0] == piece and isinstance(m[1], tuple)}
    if kind == "all":
        return position.legal_moves()
    if kind == "control":
        cell = position.cell_of(piece)
        return {a.move for a in position.controlled(cell)} if piece[1] == "T" else set()
    return {a.move for a in position.actions() if a.kind == kind and (a.actor == piece or kind == "flip" and not piece)}


def assert_same(position, got, expected, label):
    if got != expected:
        missing = sorted(f"{move_string(position, m)} {m}" for m in expected - got)
        extra = sorted(f"{move_string(position, m)} {m}" for m in got - expected)
        pytest.fail(f"{label}\n{draw(position.stacks)}\n missing {missing}\n extra {extra}")


SET_KINDS = ("place", "move", "throw", "any", "flip", "sting", "swap", "remove", "control", "all", "wasp sting",
             "to hand")
SET_ROWS = [e for e in FAN_EXAMPLES + MORE_FAN_POSITIONS if e.kind in SET_KINDS]


@pytest.mark.parametrize("example", SET_ROWS, ids=[e.name for e in SET_ROWS])
def test_example_gives_exactly_the_spec_set(example):
    position = position_of(example)
    expected = expected_moves(position, example)
    assert len(expected) == len(example.expected), f"{example.name}: two expected strings name one move"
    assert_same(position, selected(position, example.kind, example.piece), expected, example.name)
    assert expected <= position.legal_moves()


RESULT_ROWS = [e for e in FAN_EXAMPLES + MORE_FAN_POSITIONS if e.kind == "result"]


@pytest.mark.parametrize("example", RESULT_ROWS, ids=[e.name for e in RESULT_ROWS])
def test_example_ends_the_game_as_the_spec_says(example):
    position = position_of(example)
    for text, result in example.expected:
        if not text:
            assert (position.result or "InProgress") == result
            assert position.legal_moves(), "a game in progress has moves"
            continue
        move = position.parse(text)
        assert move in position.legal_moves(), text
        child = position.copy()
        child.play(move)
        assert (child.result or "InProgress") == result, text
        if child.result:
            assert child.legal_moves() == set(), "no move once the game is over (§3.8)"


PERFT_ROWS = [e for e in FAN_EXAMPLES if e.kind == "perft"]


@pytest.mark.parametrize(
    "example,depth",
    [(e, d) for e in PERFT_ROWS for d in (1, 2, 3)]
    + [pytest.param(e, 4, marks=pytest.mark.slow) for e in PERFT_ROWS],
    ids=lambda v: v.name if isinstance(v, FanExample) else str(v),
)
def test_example_perft(example, depth):
    assert perft(Position(example.game_type), depth) == example.expected[depth - 1]
