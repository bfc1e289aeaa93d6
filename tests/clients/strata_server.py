"""strata_server.py — a throwaway Strata server for the Python client tests.

StrataServer() makes a fresh data directory with a self-signed certificate
(`openssl req`), a password file and a strata_hba.conf that accepts TCP only
over TLS with SCRAM-SHA-256 (plaintext TCP is rejected, so a client that
silently fell back to no TLS or to trust would fail), starts $STRATA_BIN on a
free port with ssl=on, and waits until it accepts connections. stop() sends
SIGTERM and fails when the server exited badly or its log holds a sanitizer
report (what tests/harness does for the C tests).

Check is the tiny reporting helper every Python client test uses: each check
prints "ok: ..." or "FAIL: <statement>: <difference>", and finish() exits 1
when any failed.
"""
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

PASSWORD = "s3cret-Strata"

HBA = """\
local      all  all                 trust
hostnossl  all  all  127.0.0.1/32   reject
hostssl    all  all  127.0.0.1/32   scram-sha-256
"""


def skip(reason):
    """Exit 77 (meson's SKIP) with the reason printed."""
    print("SKIP: " + reason)
    sys.exit(77)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class StrataServer:
    def __init__(self):
        # CLIENT_TEST_PGPORT=N: run against an already running server on
        # 127.0.0.1:N instead (PostgreSQL 15 with ssl=on and the password
        # PASSWORD for postgres, to check the test itself: README.md).
        self.external = os.environ.get("CLIENT_TEST_PGPORT")
        if self.external:
            self.port = int(self.external)
            return
        self.bin = os.environ.get("STRATA_BIN")
        if not self.bin:
            print("FAIL: STRATA_BIN is not set (meson sets it)")
            sys.exit(1)
        self.dir = tempfile.mkdtemp(prefix="strata-pyclient-")
        self.port = free_port()
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                        "-subj", "/CN=localhost", "-days", "2",
                        "-keyout", self.dir + "/server.key", "-out", self.dir + "/server.crt"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(self.dir + "/strata_hba.conf", "w") as f:
            f.write(HBA)
        with open(self.dir + "/pw", "w") as f:
            f.write(PASSWORD + "\n")
        self.log = open(self.dir + "/server.log", "w")
        self.proc = subprocess.Popen(
            [self.bin, "-D", self.dir, "-p", str(self.port), "-h", "127.0.0.1", "-k", self.dir,
             "-c", "ssl=on", "--password-file=" + self.dir + "/pw"],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 20
        while time.time() < deadline:
            if self.proc.poll() is not None:
                self._dump_log()
                print("FAIL: the server exited at start")
                sys.exit(1)
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        self._dump_log()
        print("FAIL: the server did not accept connections within 20 s")
        self.proc.kill()
        sys.exit(1)

    def dsn(self, **extra):
        """libpq conninfo: TLS required, SCRAM with the password."""
        parts = {"host": "127.0.0.1", "port": str(self.port), "user": "postgres",
                 "dbname": "postgres", "password": PASSWORD, "sslmode": "require"}
        parts.update(extra)
        return " ".join("%s=%s" % kv for kv in parts.items())

    def _dump_log(self):
        if not self.log.closed:
            self.log.flush()
        with open(self.dir + "/server.log", errors="replace") as f:
            sys.stdout.write("---- server log ----\n" + f.read() + "---- end of server log ----\n")

    def stop(self):
        """SIGTERM and wait; False (log printed) when the exit or the log is bad."""
        if self.external:
            return True
        self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rc = "killed after 30 s"
        self.log.close()
        with open(self.dir + "/server.log", errors="replace") as f:
            text = f.read()
        bad = rc not in (0, -signal.SIGTERM) or any(
            s in text for s in ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:"))
        if bad:
            print("FAIL: server exit status %s or a sanitizer report in its log" % rc)
            self._dump_log()
        shutil.rmtree(self.dir, ignore_errors=True)
        return not bad


class Check:
    """Prints every check; remembers failures."""

    def __init__(self, name, known_failures=None):
        """known_failures: {check-name prefix: reason} of Strata gaps listed as
        FAIL in tests/clients/README.md; such a check failing prints XFAIL
        with the reason, and passing prints XPASS and fails the test (strict:
        update the README and the list)."""
        self.name = name
        self.known = known_failures or {}
        self.failed = 0
        self.passed = 0
        self.xfail = 0

    def _known(self, what):
        for prefix, reason in self.known.items():
            if what.startswith(prefix):
                return reason
        return None

    def ok(self, what):
        reason = self._known(what)
        if reason is not None:
            self.failed += 1
            print("XPASS (listed as a known failure, now passes: update README.md and the list): "
                  "%s [%s]" % (what, reason))
            return
        self.passed += 1
        print("ok: " + what)

    def fail(self, what, why):
        reason = self._known(what)
        if reason is not None:
            self.xfail += 1
            print("XFAIL (known Strata gap: %s): %s: %s" % (reason, what, why))
            return
        self.failed += 1
        print("FAIL: %s: %s" % (what, why))

    def eq(self, what, got, want):
        if got == want and type(got) is type(want):
            shown = repr(got)
            self.ok("%s -> %s" % (what, shown if len(shown) <= 160 else shown[:160] + "... (%d chars)" % len(shown)))
        else:
            self.fail(what, "got %r (%s), want %r (%s)" % (got, type(got).__name__,
                                                            want, type(want).__name__))

    def true(self, what, cond, detail=""):
        if cond:
            self.ok(what)
        else:
            self.fail(what, detail or "condition false")

    def run(self, what, fn):
        """Run fn(); an exception is a failure naming what was being done."""
        try:
            fn()
        except Exception as e:  # report and go on with the next group
            import traceback
            tb = traceback.extract_tb(e.__traceback__)[-1]
            self.fail(what, "%s: %s (at %s line %d)" % (type(e).__name__, str(e).strip(),
                                                          os.path.basename(tb.filename), tb.lineno))

    def finish(self, server):
        server_ok = server.stop()
        print("%s: %d checks passed, %d failed, %d known failures (XFAIL)"
              % (self.name, self.passed, self.failed, self.xfail))
        sys.exit(0 if self.failed == 0 and server_ok else 1)
