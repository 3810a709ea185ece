"""What a kernel printed for a scenario, from nstest's JSON report: the
report read, step transcripts with the kernel's numbers renamed, and
whether two transcripts differ only in line order. Shared by
ci/kernel-matrix and ci/kernel-bisect."""

import json
import re


def read_report(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


class Renamer:
    """Kernel numbers renamed by order of first appearance in a scenario."""

    MOUNTINFO = re.compile(r"^(\d+) (\d+) (\d+:\d+) (.*)$")
    PEER = re.compile(r"\b(shared|master|propagate_from):(\d+)\b")

    def __init__(self):
        self.names = {}

    def name(self, kind, value):
        key = (kind, value)
        if key not in self.names:
            self.names[key] = f"{kind}{sum(1 for k in self.names if k[0] == kind) + 1}"
        return self.names[key]

    def line(self, text):
        m = self.MOUNTINFO.match(text)
        if not m:
            return text
        rest = self.PEER.sub(lambda p: f"{p.group(1)}:{self.name('P', p.group(2))}", m.group(4))
        return " ".join([self.name("M", m.group(1)), self.name("M", m.group(2)),
                         self.name("D", m.group(3)), rest])


def transcript(scenario):
    """What a kernel printed for one scenario, numbers renamed."""
    if scenario is None:
        return ["(no verdict from this kernel)"]
    lines = [f"result: {scenario['status']}"
             + (f" ({scenario['reason']})" if scenario.get("reason") else "")]
    if scenario["status"] == "skip":
        return lines
    ren = Renamer()
    for step in scenario.get("steps", []):
        lines.append(f"{step['terminal']}{'#'} {step['command']}")
        if not step.get("ran"):
            lines.append("    (not run)")
            continue
        err = step.get("error")
        if err:
            lines.append(f"    [{err.get('syscall')}: {err.get('name')}]")
        for out in (step.get("output") or "").splitlines():
            lines.append("    " + ren.line(out))
    return lines


def order_only(a, b):
    """True if every step printed the same lines on both kernels, up to
    the kernels' numbers and the order of the lines (mountinfo lists
    mounts in creation order since Linux 6.8, in attach order before)."""
    def lines(step):
        out = []
        for text in (step.get("output") or "").splitlines():
            m = Renamer.MOUNTINFO.match(text)
            out.append(text if not m else
                       "M M D " + Renamer.PEER.sub(r"\1:N", m.group(4)))
        return sorted(out)
    steps_a, steps_b = a.get("steps", []), b.get("steps", [])
    return len(steps_a) == len(steps_b) and all(
        lines(x) == lines(y) and x.get("error") == y.get("error")
        for x, y in zip(steps_a, steps_b))
