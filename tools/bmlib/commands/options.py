# SPDX-License-Identifier: Apache-2.0
"""Values of the command-line options that several subcommands take: argparse types, each of
which turns the text into the value or refuses it with the message argparse prints (exit
status 2), and the --bench pattern, checked when a command starts."""
import argparse
import math
import re

from ..errors import UsageError


def _whole(text, msg):
    try:
        v = int(text)
    except ValueError:
        v = 0
    if v < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: {msg}")
    return v


def _number(text, ok, msg):
    try:
        v = float(text)
    except ValueError:
        v = math.nan
    if not ok(v):
        raise argparse.ArgumentTypeError(f"{text!r}: {msg}")
    return v


def count(text):
    return _whole(text, "must be a whole number >= 1")


def minutes(text):
    return _whole(text, "must be a whole number of minutes >= 1")


def baud(text):
    return _whole(text, "baud must be a positive integer")


def seconds(text):
    return _number(text, lambda v: math.isfinite(v) and v > 0, "must be a positive number of seconds")


def alpha(text):
    return _number(text, lambda v: 0 < v < 0.5, "alpha must be a number in (0, 0.5)")


def bench_pattern(text):
    """--bench REGEX compiled (None when not given: every benchmark); a bad one is the user's."""
    if not text:
        return None
    try:
        return re.compile(text)
    except re.error as e:
        raise UsageError(f"bad --bench regex {text!r}: {e}")
