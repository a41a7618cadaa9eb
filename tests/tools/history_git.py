# SPDX-License-Identifier: Apache-2.0
"""git for the history tests: a command in a repository, as a fixed author (names, emails and
dates from the environment), returning its output."""
import os
import subprocess


def git(repo, *args):
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t")
    return subprocess.run(["git", "-C", str(repo)] + list(args), check=True, capture_output=True, text=True,
                          env=env).stdout.strip()
