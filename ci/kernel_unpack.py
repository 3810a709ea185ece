#!/usr/bin/env python3
"""ci/kernel_unpack.py - take from Debian's kernel packages only what
ci/kernels caches: the bzImage, and the loop module with what it depends on.

    kernel_unpack.py RELEASE OUTDIR DEB...

Writes OUTDIR/vmlinuz-RELEASE and, when the packages hold modules,
OUTDIR/modules/: the loop module and the modules it depends on (read from
their .modinfo "depends=" field, as depmod does), at their paths relative
to /lib/modules/RELEASE, with a modules.dep that names just them, in
depmod's format (a module's dependencies, the last to load first), and
modules.builtin when the packages were read that far. Prints loop's state
on standard output: "module", "built-in", "absent" (modules, but no loop
among them) or "none" (the packages hold no modules at all).

Each package's data is read as a stream (dpkg-deb --fsys-tarfile) and
only the files named above are written; reading stops as soon as the
image and every module needed are in hand. The loop module of a
linux-image package comes early in its archive, so most of the
decompression, and all of the writing that dpkg-deb -x and depmod used to
do, are left out. A dependency met before it was known to be needed is
taken in a second pass over the packages.

Exit status: 0 done; 1 an error (said on standard error: a package that
cannot be read, no room left, a module whose dependency is missing); 3 the
packages hold no kernel image, or it is not a bzImage.
"""

import errno
import gzip
import lzma
import os
import re
import struct
import subprocess
import sys
import tarfile

MODULE = re.compile(r"\.ko(\.xz|\.zst|\.gz)?$")


class Fail(Exception):
    def __init__(self, msg, status=1):
        super().__init__(msg)
        self.status = status


def module_name(path):
    """The kernel's name of a module file: loop for .../loop.ko.xz; the
    kernel writes - as _ (dm-mod.ko is dm_mod)."""
    return MODULE.sub("", os.path.basename(path)).replace("-", "_")


def decompress(path, data):
    if path.endswith(".xz"):
        return lzma.decompress(data)
    if path.endswith(".gz"):
        return gzip.decompress(data)
    if path.endswith(".zst"):
        p = subprocess.run(["zstd", "-qdc"], input=data, capture_output=True)
        if p.returncode != 0:
            raise Fail(f"cannot decompress {path}: {p.stderr.decode(errors='replace').strip()}")
        return p.stdout
    return data


def modinfo_section(elf):
    """The bytes of an ELF object's .modinfo section, or None."""
    if elf[:4] != b"\x7fELF" or len(elf) < 64:
        return None
    bits, order = elf[4], {1: "<", 2: ">"}.get(elf[5])
    if order is None or bits not in (1, 2):
        return None
    try:
        if bits == 2:
            shoff, = struct.unpack_from(order + "Q", elf, 0x28)
            shentsize, shnum, shstrndx = struct.unpack_from(order + "HHH", elf, 0x3A)
            fmt = order + "IIQQQQ"
        else:
            shoff, = struct.unpack_from(order + "I", elf, 0x20)
            shentsize, shnum, shstrndx = struct.unpack_from(order + "HHH", elf, 0x2E)
            fmt = order + "IIIIII"

        def section(i):
            name, _type, _flags, _addr, off, size = struct.unpack_from(fmt, elf, shoff + i * shentsize)
            return name, off, size

        _, stroff, _ = section(shstrndx)
        for i in range(shnum):
            name, off, size = section(i)
            end = elf.index(b"\0", stroff + name)
            if elf[stroff + name:end] == b".modinfo":
                return elf[off:off + size]
    except (struct.error, ValueError):
        return None
    return None


def depends_of(path, data):
    """The module names a module's depends= field lists."""
    body = decompress(path, data)
    info = modinfo_section(body)
    if info is None:
        # not an ELF object we can read: the field as it stands in the file
        m = re.search(rb"(?:^|\0)depends=([^\0]*)\0", body)
        fields = [b"depends=" + m.group(1)] if m else []
    else:
        fields = info.split(b"\0")
    for f in fields:
        if f.startswith(b"depends="):
            return [d.replace("-", "_") for d in f[8:].decode(errors="replace").split(",") if d]
    return []


class Unpack:
    def __init__(self, release, out, debs):
        self.release, self.out, self.debs = release, out, debs
        self.image_paths = {f"boot/vmlinuz-{release}", f"usr/lib/modules/{release}/vmlinuz",
                            f"lib/modules/{release}/vmlinuz"}
        self.roots = (f"usr/lib/modules/{release}/", f"lib/modules/{release}/")
        self.image = None
        self.wanted = {"loop"}      # module names needed
        self.found = {}             # name -> path under modules/
        self.deps = {}              # name -> its direct dependencies
        self.passed = set()         # module names seen but not taken
        self.have_modules = False
        self.builtin = None

    def done(self):
        return self.image is not None and self.wanted <= set(self.found)

    def write(self, rel, data):
        dst = os.path.join(self.out, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "wb") as f:
            f.write(data)

    def member(self, tf, m):
        """Take archive member M if it is needed."""
        name = m.name[2:] if m.name.startswith("./") else m.name
        if not m.isreg():
            return
        if name in self.image_paths and self.image is None:
            data = tf.extractfile(m).read()
            if data[514:518] != b"HdrS":
                raise Fail(f"/{name} is not a bzImage", 3)
            self.write(f"vmlinuz-{self.release}", data)
            self.image = "/" + name
            return
        root = next((r for r in self.roots if name.startswith(r)), None)
        if root is None:
            return
        rel = name[len(root):]
        if rel == "modules.builtin":
            data = tf.extractfile(m).read()
            self.write("modules/modules.builtin", data)
            self.builtin = data.decode(errors="replace")
            return
        if not rel.startswith("kernel/") or not MODULE.search(rel):
            return
        self.have_modules = True
        mod = module_name(rel)
        if mod not in self.wanted or mod in self.found:
            self.passed.add(mod)
            return
        data = tf.extractfile(m).read()
        self.write(os.path.join("modules", rel), data)
        self.found[mod] = rel
        self.deps[mod] = depends_of(rel, data)
        self.wanted.update(self.deps[mod])

    def read(self, deb):
        """One pass over DEB's data; False if it stopped early."""
        p = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", deb],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        early = False
        try:
            with tarfile.open(fileobj=p.stdout, mode="r|", bufsize=1 << 20) as tf:
                for m in tf:
                    self.member(tf, m)
                    if self.done():
                        early = True
                        break
        except tarfile.TarError as e:
            p.kill()
            p.wait()
            err = p.stderr.read().decode(errors="replace").strip()
            raise Fail(f"cannot read {os.path.basename(deb)}: {err or e}")
        finally:
            p.stdout.close()
        if early:
            p.kill()
            p.wait()
            return False
        err = p.stderr.read().decode(errors="replace").strip()
        if p.wait() != 0:
            raise Fail(f"cannot read {os.path.basename(deb)}: {err}")
        return True

    def run(self):
        for deb in self.debs:
            if self.done():
                break
            self.read(deb)
        # dependencies that came before they were known to be needed
        for _ in range(8):
            missing = self.wanted - set(self.found)
            if "loop" not in self.found or not missing or not missing & self.passed:
                break
            self.passed -= missing
            for deb in self.debs:
                if self.done():
                    break
                self.read(deb)
        if self.image is None:
            raise Fail(f"no kernel image (neither /boot/vmlinuz-{self.release} nor "
                       f"/usr/lib/modules/{self.release}/vmlinuz)", 3)
        if "loop" in self.found:
            missing = sorted(self.wanted - set(self.found))
            if missing:
                raise Fail(f"the loop module needs {', '.join(missing)}, which the packages lack")
            self.write("modules/modules.dep", self.modules_dep().encode())
            return "module"
        if self.builtin is not None and re.search(r"/loop\.ko(\.[a-z]+)?$", self.builtin, re.M):
            return "built-in"
        return "absent" if self.have_modules else "none"

    def modules_dep(self):
        """depmod's modules.dep for the modules taken: each one's
        dependencies, all of them, the one to load first last."""
        lines = []
        for mod in sorted(self.found, key=lambda n: (n != "loop", n)):
            order, seen = [], set()

            def visit(n):
                if n in seen:
                    return
                seen.add(n)
                for d in self.deps.get(n, []):
                    visit(d)
                order.append(n)

            visit(mod)
            deps = [self.found[n] for n in reversed(order) if n != mod]
            lines.append(f"{self.found[mod]}:" + "".join(" " + d for d in deps) + "\n")
        return "".join(lines)


def main(argv):
    if len(argv) < 3:
        print("usage: kernel_unpack.py RELEASE OUTDIR DEB...", file=sys.stderr)
        return 2
    release, out, debs = argv[0], argv[1], argv[2:]
    try:
        os.makedirs(out, exist_ok=True)
        print(Unpack(release, out, debs).run())
    except Fail as e:
        print(f"kernel_unpack: {e}", file=sys.stderr)
        return e.status
    except OSError as e:
        what = "no room left" if e.errno in (errno.ENOSPC, errno.EDQUOT) else "cannot write"
        print(f"kernel_unpack: {what} in {out}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
