"""Debian's packaged kernels, as ci/kernels lists and caches them: their
upstream versions in order, lines, and fetching one to a bzImage path.
Shared by ci/kernel-matrix and ci/kernel-bisect.

NSTEST_KERNELS names a program to run in place of ci/kernels. It is for
tests (tests/bats/kernel-bisect.bats), which must not reach the archive:
there, ci/kernels itself with --offline, over a cache of stand-in
kernels."""

import os
import re
import subprocess
import sys

KERNELS = os.environ.get("NSTEST_KERNELS") or \
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels")


def _say(msg):
    print(f"{os.path.basename(sys.argv[0])}: {msg}", file=sys.stderr, flush=True)


def version_of(text):
    """(major, minor, patch) at the start of a version or release, or None."""
    m = re.match(r"(\d+)\.(\d+)(?:\.(\d+))?", text or "")
    return (int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)) if m else None


class Usage(Exception):
    """A command-line error: exit 2."""


def debian_versions():
    """Upstream versions the archive offers (or the cache holds, offline),
    oldest first, from `ci/kernels list`."""
    p = subprocess.run([KERNELS, "list"], capture_output=True, text=True)
    if p.returncode != 0:
        raise Usage(p.stderr.strip() or f"ci/kernels list failed ({p.returncode})")
    out = []
    for line in p.stdout.splitlines()[1:]:
        if line.split() and line.split()[0] not in out:
            out.append(line.split()[0])
    return out


def line_of(version):
    return re.match(r"\d+\.\d+", version).group(0)


def expand_debian(specs):
    """--debian's words, as ci/kernels fetch specs: `lines` and LINE.*
    are expanded from the archive's list; the rest is passed on."""
    words = [w.strip() for spec in specs for w in spec.split(",") if w.strip()]
    versions = None
    out = []
    for w in words:
        if w == "lines" or re.fullmatch(r"\d+\.\d+\.\*", w):
            versions = versions if versions is not None else debian_versions()
            if w == "lines":
                for line in dict.fromkeys(line_of(v) for v in versions):
                    out.append(line)
            else:
                got = [v for v in versions if line_of(v) == w[:-2]]
                if not got:
                    raise Usage(f"--debian {w}: the archive has no kernel of line {w[:-2]}")
                out.extend(got)
        elif re.fullmatch(r"[A-Za-z0-9.+~_-]+", w):
            out.append(w)
        else:
            raise Usage(f"--debian: '{w}' is not a line, a version, latest, lines or LINE.*")
    return list(dict.fromkeys(out))


def fetch_debian(spec):
    """The cached image of Debian's kernel SPEC, fetched if need be; None
    (with the reason said) when it cannot be had. A kernel the archive
    does not have is a usage error."""
    p = subprocess.run([KERNELS, "--quiet", "fetch", spec], capture_output=True, text=True)
    if p.returncode == 2:
        raise Usage(p.stderr.strip())
    if p.returncode != 0 or not p.stdout.strip():
        _say(f"debian {spec}: not fetched (status {p.returncode}): {p.stderr.strip()}")
        return None
    return p.stdout.strip().splitlines()[-1]


def image_info(image):
    """ci/kernels' info file next to a cached image, as a dict."""
    info = {}
    try:
        with open(os.path.join(os.path.dirname(image), "info")) as f:
            for line in f:
                k, _, v = line.rstrip("\n").partition(": ")
                info[k] = v
    except OSError:
        pass
    return info
