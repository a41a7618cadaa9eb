# SPDX-License-Identifier: Apache-2.0
"""Results over revisions: the store of runs (store), its series and their change points and
gate (changes), the trend page (page, page.js), and git as bm history and bm bisect ask it (git).
Imports analysis, records and the base modules, nothing of lava or the commands."""
