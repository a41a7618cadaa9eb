"""bmlib: the host side of baremark. One record library (records, rules, log) that every
subcommand of tools/bm reads through, and one small module per subcommand.
The record format this implements is docs/records.md (format 2)."""

FORMAT = 2
