"""What the test files of the variants share: the perft-from-the-start figures of every variant
(checked in one parametrised test, ``tests/test_engine_perft.py``), and the optional pydraughts
oracle (``draughts`` is ``None`` where it is not installed)."""

from __future__ import annotations

from typing import Any

draughts: Any
try:
    import draughts
except ImportError:  # the oracle is optional; the hand-made expectations stand alone
    draughts = None

# dctl (R. Halbersma), test/src/algo/traversal/initial/board_08x08.cpp and board_10x10.cpp, from
# the "Perft for all recognized draughts variants" thread (damforum.nl, t=2822). Its "duplicates
# kept" count takes a flying king's straight run of landing squares once, so only its merged
# count is quoted where a variant has flying kings (the Italian, Spanish and Czech rows equal
# ours through d9, where both columns are published as one).

#: variant -> depth -> (duplicates counted, duplicates merged) from the start position;
#: counted is ``None`` where only the merged count is published.
START_PERFT: dict[str, dict[int, tuple[int | None, int]]] = {
    # English: OEIS A133046 (shared/reference/data/perft.csv).
    "english": {
        1: (7, 7),
        2: (49, 49),
        3: (302, 302),
        4: (1469, 1469),
        5: (7361, 7361),
        6: (36768, 36768),
        7: (179740, 179740),
        8: (845931, 845931),
        9: (3963680, 3963680),
        10: (18391564, 18391564),
    },
    "russian": {
        1: (7, 7),
        2: (49, 49),
        3: (302, 302),
        4: (1469, 1469),
        5: (7482, 7482),
        6: (37986, 37986),
        7: (190146, 190146),
        8: (929905, 929899),
        9: (4570667, 4570586),
        10: (22450647, 22444032),
    },
    "international": {
        1: (9, 9),
        2: (81, 81),
        3: (658, 658),
        4: (4265, 4265),
        5: (27117, 27117),
        6: (167140, 167140),
        7: (1049442, 1049442),
        8: (6483971, 6483961),
        9: (41022614, 41022423),
    },
    # Merged only: dctl tables quoted in openings-and-rules.md section 2.2.
    "brazilian": {
        1: (None, 7),
        2: (None, 49),
        3: (None, 302),
        4: (None, 1469),
        5: (None, 7473),
        6: (None, 37628),
        7: (None, 187302),
        8: (None, 907830),
        9: (None, 4431766),
        10: (None, 21560022),
    },
    "pool": {8: (None, 929896), 9: (None, 4570534), 10: (None, 22435955)},
    # Non-flying kings have no stops to choose: counted = merged. d1-7 are pydraughts 0.6.7's
    # counts too; all are dctl's.
    "italian": {
        1: (7, 7),
        2: (49, 49),
        3: (302, 302),
        4: (1469, 1469),
        5: (7361, 7361),
        6: (36473, 36473),
        7: (177532, 177532),
        8: (828783, 828783),
        9: (3860875, 3860875),
        10: (17761384, 17761384),
        11: (None, 81647058),
    },
    # Until a king can move Spanish and Italian are the same game (same board, men forward only,
    # most pieces first; the other Italian rules are about kings), so d1-8 equal the Italian
    # figures; d9 (the first with king moves) and on are dctl's.
    "spanish": {
        1: (7, 7),
        2: (49, 49),
        3: (302, 302),
        4: (1469, 1469),
        5: (7361, 7361),
        6: (36473, 36473),
        7: (177532, 177532),
        8: (828783, 828783),
        9: (3860866, 3860866),
        10: (None, 17743464),
        11: (None, 81383200),
    },
    # Until a king can move (d9) Czech is English exactly (same men, no majority rule, crowning
    # ends a capture), so d1-8 are the English figures; d9 and on are dctl's Czech figures.
    "czech": {
        1: (7, 7),
        2: (49, 49),
        3: (302, 302),
        4: (1469, 1469),
        5: (7361, 7361),
        6: (36768, 36768),
        7: (179740, 179740),
        8: (845931, 845931),
        9: (3963671, 3963671),
        10: (None, 18368918),
        11: (None, 84967210),
    },
    # dctl's Frisian table (a man's captures in eight directions give two paths to one result);
    # counted d1-5 are pydraughts 0.6.7's figures too (d1-3 in tests/test_engine_oracle.py).
    "frisian": {
        1: (9, 9),
        2: (81, 81),
        3: (658, 658),
        4: (3880, 3874),
        5: (21345, 21265),
        6: (103584, 102431),
        7: (550314, 540126),
    },
    # Counted = merged. d1-4 are pydraughts 0.6.7's counts too (d1-3 in
    # tests/test_engine_oracle.py); 5-6 are ours alone (no published table was found).
    "turkish": {
        1: (8, 8),
        2: (64, 64),
        3: (708, 708),
        4: (7538, 7538),
        5: (85090, 85090),
        6: (931312, 931312),
    },
    # Counted = merged: a king's capture has one landing square. d1-6 are also the reference
    # generator's counts (tests/test_engine_thai.py).
    "thai": {
        1: (7, 7),
        2: (49, 49),
        3: (392, 392),
        4: (3136, 3136),
        5: (26592, 26592),
        6: (218695, 218695),
        7: (1820189, 1820189),
        8: (14533014, 14533014),
    },
}

#: The deepest depth of each variant in the fast tier; deeper ones are marked slow.
FAST_DEPTH = {
    "english": 8,
    "russian": 8,
    "international": 7,
    "brazilian": 7,
    "pool": 8,
    "italian": 7,
    "spanish": 7,
    "czech": 7,
    "frisian": 5,
    "turkish": 5,
    "thai": 6,
}

#: Where counted and merged are equal, the merged count is checked only up to this depth (it
#: costs a second perft); elsewhere at every depth.
MERGE_UP_TO = {"english": 6, "russian": 6, "international": 5, "italian": 6}
