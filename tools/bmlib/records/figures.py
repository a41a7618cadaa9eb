# SPDX-License-Identifier: Apache-2.0
"""The figures of a result record, named once, and when a run's figures are exact: the quantiles
in order (each inner one's nearest rank), the figures bm compare, bm history and bm run --exact
take, an event's figures, the built_for values and the one test of a deterministic build."""

from ..shared import BUILT_FOR, RANKS  # noqa: F401 (the firmware's, tools/gen-shared)

# RANKS: each inner quantile's nearest rank, as a fraction of n (core/stats/bm_stats_report.c).
QUANTILES = ("min",) + tuple(RANKS) + ("max",)
LEVELS = {"min": 0.0, **{k: num / den for k, (num, den) in RANKS.items()}, "max": 1.0}
# What a comparison, a history series and `bm run --exact` take of an ok result.
SUMMARY = QUANTILES + ("mean",)
# An event's per-iteration figures in an ok result (docs/records.md, "events").
EVENT_FIGURES = ("mean", "p50")


def deterministic(built_for):
    """Does a run built for this (the meta record's built_for) repeat its figures exactly? Only
    under QEMU -icount shift=0: every figure is an instruction count, so one run is the figure
    and any change of it is a change. Everywhere else the figures are timings, and noisy."""
    return built_for == "qemu-icount"
