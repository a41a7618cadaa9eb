# SPDX-License-Identifier: Apache-2.0
"""The statistics histogram's layout (core/stats/bm_stats_layout.c), for the host: which bins
exist for a given top octave and count width, and which values each holds. One design for both
sides: tools/gen-stats-tables writes the firmware's tables from design(), bm check reads with it."""

GRID_BITS = 9
COARSE = 23
LO = 1 << GRID_BITS
U16_MAX_N = 17 * 65536 - 1      # BM_STATS_U16_MAX_N: above it, 32-bit counts (BINS_PER_OCTAVE)
U64_MAX = 2**64 - 1


def design():
    """First grid step of each of the 46 fine bins of an octave, and 1024 closing it."""
    b1 = [round(LO * 2 ** (k / COARSE)) for k in range(COARSE + 1)]
    b0 = []
    for k in range(COARSE):
        a, c = b1[k], b1[k + 1]
        mid = min(range(a + 1, c), key=lambda m: max((m - a) / (m + a), (c - m) / (c + m)))
        b0 += [a, mid]
    b0.append(2 * LO)
    return b0


EDGE = design()
FINE = len(EDGE) - 1
_GROUP = [0] * LO   # fine bin of each grid step
for _g in range(FINE):
    for _t in range(EDGE[_g], EDGE[_g + 1]):
        _GROUP[_t - LO] = _g


def depth(wide, d):
    """(first bin, shift) of the octave d below the top, for 16-bit (wide 0) or 32-bit counts: 16-bit
    counts have 13 octaves x 46 bins from bin 84, 1 x 23 from 61, 2 x 6 from 49, one bin per octave
    below (bin 64 - d), and the zero bin: 682 bins; 32-bit counts 12 x 23 from 63, 2 x 6 from 51,
    one bin per octave below: 339 bins. The firmware's table bm_st_depth is generated from this
    (tools/gen-stats-tables)."""
    if not wide:
        if d <= 12:
            return 84 + (12 - d) * 46, 0
        if d == 13:
            return 61, 1
        if d <= 15:
            return 49 + (15 - d) * 6, 3
        return 64 - d, 6
    if d <= 11:
        return 63 + (11 - d) * 23, 1
    if d <= 13:
        return 51 + (13 - d) * 6, 3
    return 64 - d, 6


def per_octave(shift):
    return ((FINE - 1) >> shift) + 1


# The bins of a top octave: all the fine ones with 16-bit counts, every other one with 32-bit
BINS_PER_OCTAVE = (per_octave(0), per_octave(1))


def bins_per_octave(n):
    return BINS_PER_OCTAVE[n > U16_MAX_N]


def bins_per_octave_problem(bpo, n):
    """bm check's message for a record whose bins_per_octave is not what n samples give."""
    return (f"bins_per_octave = {bpo} but n = {n} gives {bins_per_octave(n)} "
            f"({BINS_PER_OCTAVE[0]} up to {U16_MAX_N} samples, {BINS_PER_OCTAVE[1]} above)")


def bin_of(wide, top, v):
    """Index of the bin holding v (v's octave at most top)."""
    if v == 0:
        return 0
    e = v.bit_length() - 1
    base, sh = depth(wide, top - e)
    t = ((v << (63 - e)) & U64_MAX) >> 54
    return base + (_GROUP[t - LO] >> sh)


def bin_range(wide, top, i):
    """(lo, hi) of bin i under top octave `top`, or None when that bin holds no value there."""
    if i == 0:
        return 0, 0
    for d in range(top + 1):
        base, sh = depth(wide, d)
        if not base <= i < base + per_octave(sh):
            continue
        e = top - d
        ga = (i - base) << sh
        gb = ga + (1 << sh)
        ta, tb = EDGE[ga], EDGE[min(gb, FINE)]
        if e >= GRID_BITS:
            lo, hi = ta << (e - GRID_BITS), (tb << (e - GRID_BITS)) - 1
        else:
            s = GRID_BITS - e
            lo, hi = (ta + (1 << s) - 1) >> s, ((tb + (1 << s) - 1) >> s) - 1
        return (lo, hi) if lo <= hi else None
    return None
