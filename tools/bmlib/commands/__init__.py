# SPDX-License-Identifier: Apache-2.0
"""The subcommands of tools/bm, one module each (cli.py lists them), and what only they use: the
option types (options) and the tables they print (output). Commands may import every package;
no package imports a command."""
