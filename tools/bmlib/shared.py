"""What the firmware and the host tools must agree on, written once: the record format's version,
the result statuses and phases, the warm-up's window and defaults, the 95% t table of ci95.
tools/gen-shared writes core/include/bm/shared.h from this module, and ctest host.shared_current
fails when the checked-in header differs, so neither side can change one alone. (The histogram's
layout is generated the same way, from layout.py by tools/gen-stats-tables.)"""

# Records (docs/records.md): "format" of every record. A reader takes only this version.
FORMAT = 2

# A result's "status", in the order of the firmware's enum bm_status, and the word the table
# shows for each. Only "ok" carries figures.
STATUSES = ("ok",               # ran and verified
            "fail",             # setup failed, or a wrong result, or impossible counters
            "trap",             # an exception, recovered
            "timeout",          # over its time budget: the watchdog fired
            "stack_overflow",   # ran past the bottom of the stack
            "scratch_overrun")  # wrote outside its scratch allocations
TABLE_WORDS = ("ok", "FAIL", "TRAP", "TIMEOUT", "STACK", "SCRATCH")

# A failed result's "phase": where the benchmark was when it went wrong.
PHASES = ("setup", "calibrate", "warmup", "verify", "samples", "teardown")

# Warm-up (core/bm_harness.c): batches at the calibrated size until the last WARMUP_WINDOW agree
# within WARMUP_CV_PPM (a rolling coefficient of variation), tested every WARMUP_STEP batches once
# at least WARMUP_MIN ran, and never more than WARMUP_MAX.
WARMUP_WINDOW = 8
WARMUP_STEP = 4
WARMUP_MIN = 8
WARMUP_MAX = 256
WARMUP_CV_PPM = 20000

# A result is short_interval (the table's ok*) when its median batch, the read overhead included,
# is under SHORT_INTERVAL_FACTOR x the overhead or x one tick of the counter, whichever is larger:
# then the figure rests on the subtraction or on the counter's resolution.
SHORT_INTERVAL_FACTOR = 100


def short_interval(median_batch, overhead):
    """The firmware's rule (summarize() in core/bm_harness.c), on a raw median batch."""
    return median_batch + overhead < SHORT_INTERVAL_FACTOR * max(overhead, 1)


# Two-sided 95% Student t critical values x 10^4 by degrees of freedom: between rows the lower
# df's (larger, conservative) value applies; above the last row, T95_LIMIT.
T95 = ((1, 127062), (2, 43027), (3, 31824), (4, 27764), (5, 25706), (6, 24469), (7, 23646),
       (8, 23060), (9, 22622), (10, 22281), (11, 22010), (12, 21788), (13, 21604), (14, 21448),
       (15, 21314), (16, 21199), (17, 21098), (18, 21009), (19, 20930), (20, 20860), (21, 20796),
       (22, 20739), (23, 20687), (24, 20639), (25, 20595), (26, 20555), (27, 20518), (28, 20484),
       (29, 20452), (30, 20423), (40, 20211), (50, 20086), (60, 20003), (80, 19901), (100, 19840),
       (120, 19799), (200, 19719), (500, 19647), (1000, 19623))
T95_LIMIT = 19600


def t95_e4(df):
    """t x 10^4 for df degrees of freedom, as the firmware takes it."""
    t = T95_LIMIT
    for d, v in T95:
        if d > df:
            break
        t = v
    return T95_LIMIT if df > T95[-1][0] else t
