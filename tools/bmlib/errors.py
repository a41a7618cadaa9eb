# SPDX-License-Identifier: Apache-2.0
"""The error every bm command reports in one line and exit status 2 (tools/bm's cli.py): bad
input that is the user's to fix. Its own module so that any other can raise it without
importing more than this."""


class UsageError(Exception):
    """Bad input that is the user's to fix (unreadable file, nothing usable): exit status 2."""
