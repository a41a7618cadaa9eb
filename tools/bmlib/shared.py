# SPDX-License-Identifier: Apache-2.0
"""What the firmware, the build and the host tools must agree on, written once: the record format's
version, the result statuses and phases, the warm-up's window and defaults, the drift limit, the
95% t table of ci95, the quantiles, the built_for values, the event names, the build options'
defaults and the cache model's marker area. tools/gen-shared writes from this module
core/include/bm/shared.h (the firmware and the cache model's QEMU plugin include it) and
cmake/BaremarkShared.cmake (the build reads it), and ctest host.shared_current fails when either
checked-in file differs, so no side can change one alone. (The histogram's layout is generated
the same way, from layout.py by tools/gen-stats-tables.)"""

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

# Warm-up (core/run/bm_measure.c): batches at the calibrated size until the last WARMUP_WINDOW agree
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
    """The firmware's rule (summarize() in core/run/bm_measure.c), on a raw median batch."""
    return median_batch + overhead < SHORT_INTERVAL_FACTOR * max(overhead, 1)


# A result is unstable (the table's ok~) when its drift_ppm, the spread of the fastest batch of
# each quarter of its samples, is over this: the figures mix two speeds of the machine (5%).
DRIFT_UNSTABLE_PPM = 50000

# A result is noisy (the table's ok%, the record's "noisy":true) when its samples' coefficient
# of variation (cv_ppm) is over this: they spread so widely that no one figure stands for them
# (10%; the warm-up asks 2% of its last batches).
CV_NOISY_PPM = 100000


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


# The reported quantiles besides min and max, each at its nearest rank as a fraction of n
# (core/stats/bm_stats_report.c), in ascending order; and the quartiles the Tukey fences take,
# which are not reported.
RANKS = {"p50": (1, 2), "p90": (9, 10), "p99": (99, 100), "p999": (999, 1000)}
QUARTILES = {"q1": (1, 4), "q3": (3, 4)}

# What an image is built for, as its meta record's "built_for" says (the build picks one,
# cmake/Baremark.cmake). Only qemu-icount repeats its figures exactly (records/figures.py).
BUILT_FOR = ("qemu-icount", "qemu", "hardware", "hosted")

# The portable event names (docs/events.md): -DBM_EVENTS takes them, the records carry them.
# name -> what one count is (per iteration in a result).
EVENTS = {
    "instructions": "instructions retired",
    "cycles": "core clock cycles (the PMU's own counter, beside the kit's cycle figure)",
    "sw_incr": "software increments (AArch64 PMSWINC writes)",
    "l1d_access": "level-1 data cache accesses",
    "l1d_miss": "level-1 data cache misses (refills)",
    "l1i_access": "level-1 instruction cache accesses",
    "l1i_miss": "level-1 instruction cache misses (refills)",
    "l2_access": "level-2 (unified) cache accesses",
    "l2_miss": "level-2 cache misses (refills)",
    "branch": "branches retired",
    "branch_miss": "branches mispredicted",
    "stall_frontend": "cycles the front end delivered no instruction",
    "stall_backend": "cycles the back end accepted no instruction",
    "dtlb_miss": "data TLB misses (refills)",
    "itlb_miss": "instruction TLB misses (refills)",
    "page_faults": "page faults (Linux, perf software event)",
    "minor_faults": "minor page faults: no disk read (Linux)",
    "major_faults": "major page faults: a disk read (Linux)",
    "context_switches": "context switches (Linux)",
    "cpu_migrations": "moves to another CPU (Linux)",
    "task_clock_ns": "nanoseconds the task ran on a CPU (Linux)",
}
# The operating system's events: bare metal has none to count (core says so before the arch is asked).
OS_EVENTS = ("page_faults", "minor_faults", "major_faults", "context_switches", "cpu_migrations", "task_clock_ns")
# Most names -DBM_EVENTS may list, counted or not (the firmware keeps a slot of state for each).
EVENTS_MAX = 8

# The build options' defaults (cmake/BaremarkOptions.cmake documents each; the firmware falls back
# on the same where no build defines them; bm run takes QEMU_TIMEOUT_S).
DEFAULTS = {
    "SAMPLES": 1000,              # timed batches per benchmark
    "MIN_BATCH_CYCLES": 2000,     # calibration: a timed batch lasts at least this many cycles
    "BENCH_TIMEOUT_MS": 10000,    # the watchdog's budget of one benchmark, setup to teardown
    "HIST": True,                 # a hist record after each ok result
    "QEMU_TIMEOUT_S": 120,        # seconds a QEMU run may go without a new record before the runner ends it
}

# The QEMU cache model (docs/cache-model.md): the kit marks its timed windows by stores to a marker
# area (core/run/bm_model.c) whose offsets the plugin (tools/qemu-plugins/bmcache.c) decodes: a
# window opens, closes, counts one sample; a benchmark's registry index follows, begun, one store
# per set bit at MODEL_MARK_INDEX_BIT + k, ended.
MODEL_MARK_OPEN = 0
MODEL_MARK_CLOSE = 1
MODEL_MARK_SAMPLE = 2
MODEL_MARK_INDEX_BEGIN = 3
MODEL_MARK_INDEX_BIT = 4
MODEL_INDEX_BITS = 32
MODEL_MARK_INDEX_END = MODEL_MARK_INDEX_BIT + MODEL_INDEX_BITS
MODEL_AREA_BYTES = MODEL_MARK_INDEX_END + 1
# Empty windows the kit measures before each benchmark's samples (what a window costs besides it).
MODEL_PROBES = 2
# The plugin's counts file: its first line "bmcache <MODEL_FILE_FORMAT> l1d=... l1i=... l2=...",
# each count in this order.
MODEL_FILE_FORMAT = 1
MODEL_COUNTS = ("l1d_access", "l1d_miss", "l1i_access", "l1i_miss", "l2_access", "l2_miss")
# A level's geometry where neither the board nor the user gives one (size, ways, line in bytes),
# and the most the plugin models.
MODEL_GENERIC_CACHE = (32768, 4, 64)
MODEL_MAX_WAYS = 64
MODEL_MAX_BYTES = 1 << 30


def cache_spec(geo):
    """(size, ways, line) -> "SIZE:WAYS:LINE", as the build, bm run and the plugin write it."""
    return ":".join(map(str, geo))
