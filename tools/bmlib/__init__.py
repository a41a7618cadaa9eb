# SPDX-License-Identifier: Apache-2.0
"""bmlib, baremark's host side in layers: records/ (read and check records, format 2 of
docs/records.md), analysis/, history/ and lava/ above it, commands/ (tools/bm's subcommands, cli.py)
on top; errors, shared and layout are the base all may import (tests/tools/test_imports.py)."""

from .shared import FORMAT  # noqa: F401 (the record format this implements)
