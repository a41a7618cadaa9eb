# SPDX-License-Identifier: Apache-2.0
"""The <name>.board.json cmake writes beside an image: the board, what the image was built for,
and how to run it (its QEMU line) or flash it. Read here for bm run and bm lava alike."""
import json

from ..errors import UsageError


def load_board(path):
    """The board.json at path as a dict, its keys of known kinds; anything else is the user's to fix."""
    if not path:
        raise UsageError("give --board-json F: the <name>.board.json beside a built image")
    try:
        with open(path, encoding="utf-8") as f:
            board = json.load(f)
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror or e} (cmake writes <name>.board.json "
                         f"beside <name>.elf when it builds the image)")
    except ValueError as e:
        raise UsageError(f"{path}: not JSON ({e})")
    if not isinstance(board, dict) or not isinstance(board.get("board"), str):
        raise UsageError(f"{path}: not a board.json (no \"board\" name)")
    for key, kind in (("qemu", list), ("flash", list), ("image", str), ("built_for", str)):
        if not isinstance(board.get(key, kind()), kind):
            raise UsageError(f"{path}: \"{key}\" is not a {kind.__name__}")
    return board
