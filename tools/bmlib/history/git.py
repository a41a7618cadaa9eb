# SPDX-License-Identifier: Apache-2.0
"""git as bm history and bm bisect ask it, one way: in a work tree, in the C locale, its failure
said in one line (exit status 2); a revision's commit id, its place in history (ancestors), its
committer time and subject."""
import os
import subprocess

from ..errors import UsageError
from .store import Revision


class Git:
    """`git -C top ...`; timeout: seconds one call may take (None: no limit)."""

    def __init__(self, top, timeout=None):
        self.top, self.timeout = top, timeout

    def __call__(self, *args, check=True):
        """The finished call; check: a failure is the user's to fix (UsageError)."""
        try:
            p = subprocess.run(["git", "-C", self.top] + list(args), capture_output=True, text=True,
                               env=dict(os.environ, LC_ALL="C", LANG="C"), timeout=self.timeout)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise UsageError(f"git {' '.join(args)}: {e}")
        if check and p.returncode != 0:
            raise UsageError(f"git {' '.join(args)}: {(p.stderr or p.stdout).strip().splitlines()[-1:]}")
        return p

    def out(self, *args, check=True):
        """Its output, stripped; None when it failed and check is False."""
        p = self(*args, check=check)
        return p.stdout.strip() if p.returncode == 0 else None

    def commit(self, rev):
        """The full commit id of rev; a rev that names no commit is the user's to fix."""
        sha = self.out("rev-parse", "--verify", "--quiet", rev + "^{commit}", check=False)
        if not sha:
            raise UsageError(f"{rev} is not a commit of {self.top}")
        return sha

    def describe(self, sha):
        return self.out("show", "-s", "--format=%h %s", sha)

    def revision(self, rev):
        """Revision(full commit id, ancestors, committer time, subject) of rev, or None when the
        work tree does not know it. A shallow clone gives no order: its counts are not the history's."""
        sha = self.out("rev-parse", "--verify", "--quiet", rev + "^{commit}", check=False)
        if not sha:
            return None
        shallow = self.out("rev-parse", "--is-shallow-repository", check=False) == "true"
        order = None if shallow else int(self.out("rev-list", "--count", sha))
        info = self.out("show", "-s", "--format=%cI%x00%s", sha, check=False) or "\0"
        when, _, subject = info.partition("\0")
        return Revision(sha, order, when or None, subject or None)


def work_tree(path, timeout=None):
    """Git at the top of the work tree holding the folder path, or None when there is none."""
    if not os.path.isdir(path):
        return None
    top = Git(path, timeout).out("rev-parse", "--show-toplevel", check=False)
    return Git(top, timeout) if top else None
