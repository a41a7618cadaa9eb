# SPDX-License-Identifier: Apache-2.0
"""What the figures of several runs say: two sides compared benchmark by benchmark (compare), the
regression gate (gate), the tests they rest on (stats) and a distribution rebuilt from its hist
record (dist). Imports records and the base modules, nothing of history, lava or the commands."""
