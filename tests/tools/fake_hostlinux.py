#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""A stand-in for host-linux's `baremark.elf --format json`: prints one format-2 boot of
noisy records (corpus.hosted_runs), `--shift` times slower, a fresh random run each time."""
import argparse
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--shift", type=float, default=1.0)
ap.add_argument("--format", default="both")
ap.add_argument("--filter")
ap.add_argument("--samples", type=int, default=200)
ap.add_argument("--cpu")
a = ap.parse_args()
names = [n for n in ("crc32", "memcpy_4k") if not a.filter or re.search(a.filter, n)]
lines = corpus.hosted_runs(a.shift, seed=random.randrange(1 << 30), samples=a.samples, names=names)
sys.stdout.write("\n".join(lines) + "\n")
