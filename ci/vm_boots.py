"""Booting a kernel through ci/vm-run until it gives a verdict: which
boot gave none, why, and booting it again. Shared by ci/kernel-matrix
and ci/kernel-bisect, so that both read a crashed boot the same way.

A boot gives no verdict when ci/vm-run says so: status 125 with
"vm-run: no verdict: REASON" on standard error (the guest panicked, hung
past the timeout, its init failed, nstest never ran). A status 125
without a readable report is read the same way. nstest's own 125
(`run --bisect`: this kernel cannot be judged, a scenario was skipped)
comes with its report and without vm-run's line: that is nstest's
answer, not a crash, and booting again would give it again.

NSTEST_VM_RUN names a program to run in place of ci/vm-run. It is for
tests (tests/bats/kernel-bisect.bats), which cannot boot kernels: a
stand-in that takes vm-run's command line and answers as it does."""

import os
import subprocess
import threading
import time

from transcripts import read_report

VM_RUN = os.environ.get("NSTEST_VM_RUN") or \
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "vm-run")
NO_VERDICT = "vm-run: no verdict: "


def progress_interval():
    """Seconds between progress lines: NSTEST_PROGRESS_INTERVAL (0 to
    3600), else 10, as nstest's own (nstest(1), ENVIRONMENT)."""
    try:
        v = float(os.environ.get("NSTEST_PROGRESS_INTERVAL", ""))
    except ValueError:
        return 10.0
    return v if 0 <= v <= 3600 else 10.0


class Heartbeat:
    """While a boot runs (with Heartbeat(say, text): ...), say text(T),
    T the seconds since it began, every progress_interval() seconds (never
    for 0): ci/vm-run's own lines go to a file, and a CI log must not sit
    silent through a boot of a minute."""

    def __init__(self, say, text):
        self.say, self.text = say, text
        self.stopped = threading.Event()
        self.thread = None

    def __enter__(self):
        interval = progress_interval()
        if interval > 0:
            t0 = time.monotonic()

            def run():
                while not self.stopped.wait(interval):
                    self.say(self.text(time.monotonic() - t0))
            self.thread = threading.Thread(target=run, daemon=True)
            self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stopped.set()
        if self.thread:
            self.thread.join()
        return False


def missing_tools():
    """None when this machine can boot kernels (ci/vm-run --check-tools:
    qemu and cpio are there), else vm-run's message naming what is
    missing and how to install it. A missing tool is a set-up error
    (status 2), asked once before the first boot: each boot would
    otherwise fail alike, and be booted again."""
    done = subprocess.run([VM_RUN, "--check-tools"], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL)
    if done.returncode == 0:
        return None
    return done.stderr.strip() or f"{VM_RUN} --check-tools: status {done.returncode}"


def tail(path, n):
    """The last n lines of a text file (standard error of a boot)."""
    try:
        with open(path, errors="replace") as f:
            return f.read().strip().splitlines()[-n:]
    except OSError:
        return []


def no_verdict(status, out, err):
    """Why the boot whose status, report (path out) and standard error
    (path err) are given gave no verdict; None if it gave one."""
    if status != 125:
        return None
    said = [line[len(NO_VERDICT):] for line in tail(err, 1000) if line.startswith(NO_VERDICT)]
    if said:
        return said[-1]
    if read_report(out) is None:
        return "status 125 and no report: " + (" / ".join(tail(err, 2)) or "nothing on standard error")
    return None


class Boots:
    """What booting one kernel until it gave a verdict came to: the last
    boot's status, report and standard error paths, and the reason of
    every boot that gave no verdict, in order. `crashed` is the reason
    when no boot gave a verdict."""

    def __init__(self, status, out, err, failures, crashed):
        self.status, self.out, self.err = status, out, err
        self.failures, self.crashed = failures, crashed

    @property
    def retried(self):
        """Boots without a verdict before the one kept."""
        return len(self.failures) - (1 if self.crashed else 0)


def boot_until_verdict(boot, retries, name, say):
    """Call boot(attempt) -> (status, out, err), attempt 0, 1, ..., until
    a boot gives a verdict, at most 1 + retries times; say each boot
    that gave none, with the end of its standard error."""
    failures = []
    attempt = 0
    while True:
        status, out, err = boot(attempt)
        reason = no_verdict(status, out, err)
        if reason is None:
            return Boots(status, out, err, failures, None)
        failures.append(reason)
        again = attempt < retries
        say(f"{name}: no verdict (status {status}): " + " / ".join(tail(err, 3)) +
            (" -- booting it again" if again else ""))
        if not again:
            return Boots(status, out, err, failures, reason)
        attempt += 1
