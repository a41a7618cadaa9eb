"""The kinds of build a meta record's built_for names, and the one test of a deterministic one:
which runs repeat their figures exactly (bm check, compare, history and bisect all ask it here)."""

BUILT_FOR = ("qemu-icount", "qemu", "hardware", "hosted")


def deterministic(built_for):
    """Does a run built for this (the meta record's built_for) repeat its figures exactly? Only
    under QEMU -icount shift=0: every figure is an instruction count, so one run is the figure
    and any change of it is a change. Everywhere else the figures are timings, and noisy."""
    return built_for == "qemu-icount"
