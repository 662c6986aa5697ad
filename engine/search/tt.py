"""Transposition table in one preallocated numpy array, shared between threads.

The table is an int64 array of shape (entries, 2): each row is an entry, its key
word then its data word. One array, because a kernel pays an atomic reference
count for every array it receives (a namedtuple of arrays: one per field, and
again on every field access); and an entry's two words then share a cache line. The key word is stored xor-ed with
the data word (Hyatt and Mann's lockless hashing), so that an entry torn by two
threads writing at once fails its key check instead of giving wrong data.
Entries come in buckets of two: a depth-preferred slot and an always-replace slot.
The age of the entries (the number of searches since the table was cleared) is
kept by the caller and passed to `store`: the table holds entries only, so that
its bytes are exactly what its size option allows.

Data word, low bits first: move (moves.MOVE_BITS, 31), depth (8), bound (2),
age (6), score (18, signed: mate scores are within +-32000).
"""

import mmap

import numpy as np
from numba import njit

from ..rules.moves import MOVE_BITS, NO_MOVE

BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT = 0, 1, 2, 3
KEY, DATA = 0, 1  # the columns of an entry
ENTRY_BYTES = 16
MOVE_MASK = (1 << MOVE_BITS) - 1
DEPTH_SHIFT = MOVE_BITS
BOUND_SHIFT = DEPTH_SHIFT + 8
AGE_SHIFT = BOUND_SHIFT + 2
SCORE_SHIFT = AGE_SHIFT + 6
SCORE_BITS = 64 - SCORE_SHIFT
assert SCORE_BITS >= 17, "the data word holds scores of +-32000"

def new_table(megabytes):
    """A table of at most `megabytes` MiB (a power-of-two number of entries, at
    least one bucket)."""
    entries = max(2, (int(megabytes * 2**20) // ENTRY_BYTES))
    entries = 1 << (entries.bit_length() - 1)
    # Zeroed pages straight from the system, each mapped (and zeroed) at its
    # first use: nothing is written here, so a table of 4096 MiB costs no more
    # to make than one of 1 (writing it over took 10 s). In small pages: a
    # huge page is zeroed 2 MiB at a time, and a search's stores, spread over
    # the whole table, would touch every huge page, and so zero the whole
    # table, within the first search (np.zeros asks for huge pages).
    buffer = mmap.mmap(-1, entries * ENTRY_BYTES)
    if hasattr(mmap, "MADV_NOHUGEPAGE"):
        buffer.madvise(mmap.MADV_NOHUGEPAGE)
    table = np.frombuffer(buffer, dtype=np.int64).reshape(entries, 2)
    assert table.nbytes == entries * ENTRY_BYTES and table.flags.writeable
    return table


def table_bytes(table):
    return table.nbytes


def clear_table(table):
    table[:] = 0


@njit(cache=True, nogil=True)
def pack(move, depth, bound, age, score):
    return (
        (move & MOVE_MASK)
        | ((depth & 0xFF) << DEPTH_SHIFT)
        | ((bound & 0x3) << BOUND_SHIFT)
        | ((age & 0x3F) << AGE_SHIFT)
        | (np.int64(score) << SCORE_SHIFT)
    )


@njit(cache=True, nogil=True)
def entry_move(data):
    return data & MOVE_MASK


@njit(cache=True, nogil=True)
def entry_depth(data):
    return (data >> DEPTH_SHIFT) & 0xFF


@njit(cache=True, nogil=True)
def entry_bound(data):
    return (data >> BOUND_SHIFT) & 0x3


@njit(cache=True, nogil=True)
def entry_age(data):
    return (data >> AGE_SHIFT) & 0x3F


@njit(cache=True, nogil=True)
def entry_score(data):
    return data >> SCORE_SHIFT


@njit(cache=True, nogil=True)
def probe(table, key):
    """The data word stored for `key`, or 0 (bound none) if absent."""
    mask = table.shape[0] - 1
    base = key & mask & ~1
    for slot in range(base, base + 2):
        data = table[slot, DATA]
        if (table[slot, KEY] ^ data) == key:
            return data
    return 0


@njit(cache=True, nogil=True)
def store(table, age, key, move, depth, bound, score):
    """Keep the entry, written in search number `age`: in the first slot if it is
    as deep as what is there (or that is stale or the same position), otherwise
    in the second slot."""
    mask = table.shape[0] - 1
    base = key & mask & ~1
    age = age & 0x3F
    data = table[base, DATA]
    same = (table[base, KEY] ^ data) == key
    if same or depth >= entry_depth(data) or entry_age(data) != age:
        slot = base
        if same and move == NO_MOVE:
            move = entry_move(data)  # keep the move we knew
    else:
        slot = base + 1
    new = pack(move, depth, bound, age, score)
    table[slot, DATA] = new
    table[slot, KEY] = key ^ new
