# SPDX-License-Identifier: Apache-2.0
"""The kit's records as bm check reads them: framing and CRC (frame), the value rules (rules,
events, model, derive), boots and logs (boot, log, joblog), a live console (stream), and the
board.json beside an image. Imports nothing of bmlib but errors, shared and layout."""
