# SPDX-License-Identifier: Apache-2.0
"""LAVA board farms: the job and device dictionary of an image (job, qemu), and LAVA's test cases
read back and set against the kit's records (cases). A job log's console is read by
records.joblog. Imports records and the base modules, nothing of analysis, history or the commands."""
