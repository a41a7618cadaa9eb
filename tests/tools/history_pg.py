# SPDX-License-Identifier: Apache-2.0
"""A throwaway PostgreSQL server for the history store's tests: Debian's postgresql binaries
(initdb, pg_ctl) run a cluster in a temporary folder, listening only on a Unix socket there, as the
current user (as `nobody` when that is root: PostgreSQL refuses to run as root). No system
service, no TCP port; stopped and removed at the end. BM_REQUIRE_POSTGRES=1 (set by ctest) turns
"not installed" from a skip into a failure."""
import glob
import os
import pwd
import shutil
import subprocess
import tempfile

import pytest


def bindir():
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    return os.path.dirname(found[-1]) if found else None


def unavailable(why):
    if os.environ.get("BM_REQUIRE_POSTGRES") == "1":
        pytest.fail(f"{why} (tools/setup --all installs postgresql and python3-psycopg2)")
    pytest.skip(why)


class Cluster:
    def __init__(self):
        self.bin = bindir()
        if self.bin is None:
            unavailable("PostgreSQL is not installed (Debian's postgresql package)")
        try:
            import psycopg2  # noqa: F401
        except ImportError:
            unavailable("python3-psycopg2 is not installed")
        # (a short path: a Unix socket's name is limited to about 100 bytes)
        self.dir = tempfile.mkdtemp(prefix="bmpg", dir="/tmp")
        self.as_user = []
        if os.getuid() == 0:
            nobody = pwd.getpwnam("nobody")
            os.chown(self.dir, nobody.pw_uid, nobody.pw_gid)
            self.as_user = ["runuser", "-u", "nobody", "--"]
        self.data = os.path.join(self.dir, "data")
        self.run("initdb", "-D", self.data, "--auth=trust", "-U", "bm", "-E", "UTF8", "--no-sync")
        self.run("pg_ctl", "-D", self.data, "-l", os.path.join(self.dir, "log"), "-w", "-t", "60", "-o",
                 f"-k {self.dir} -c listen_addresses= -F", "start")
        self.count = 0

    def run(self, tool, *args):
        p = subprocess.run(self.as_user + [os.path.join(self.bin, tool)] + list(args), cwd=self.dir,
                           capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            log = os.path.join(self.dir, "log")
            tail = open(log).read()[-2000:] if os.path.exists(log) else ""
            raise RuntimeError(f"{tool} failed: {p.stdout}{p.stderr}{tail}")

    def url(self, db="postgres"):
        return f"postgresql://bm@/{db}?host={self.dir}"

    def new_database(self):
        """A fresh, empty database's URL (one per test)."""
        import psycopg2
        self.count += 1
        name = f"bm_test_{self.count}"
        conn = psycopg2.connect(self.url())
        conn.autocommit = True
        conn.cursor().execute(f"CREATE DATABASE {name}")
        conn.close()
        return self.url(name)

    def stop(self):
        try:
            self.run("pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_cluster():
    c = Cluster()
    yield c
    c.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, tmp_path):
    """A store to test on: an SQLite file, and a database on the throwaway PostgreSQL server."""
    if request.param == "sqlite":
        return str(tmp_path / "history.db")
    return request.getfixturevalue("pg_cluster").new_database()
