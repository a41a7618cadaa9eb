"""bmlib: the host side of baremark. One record library (records, rules, log) that every
subcommand of tools/bm reads through, and one small module per subcommand.
The record format this implements is docs/records.md (format 2)."""

from .shared import FORMAT  # noqa: F401 (the record format this implements)
