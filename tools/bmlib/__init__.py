"""bmlib: the host side of baremark, in layers: records/ (read and check the kit's records, the
library every command reads through), analysis/ (compare runs), history/ (results over
revisions), lava/ (board farms), and commands/ (one module per subcommand of tools/bm, cli.py)
above them all. errors, shared and layout are the base any of them may import. The record
format this implements is docs/records.md (format 2)."""

from .shared import FORMAT  # noqa: F401 (the record format this implements)
