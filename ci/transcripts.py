"""What a kernel printed for a scenario, from nstest's JSON report: the
report read, step transcripts in nstest's canonical form, and whether two
transcripts differ only in line order. Shared by ci/kernel-matrix and
ci/kernel-bisect.

Nothing is renamed here. nstest writes each step's output in its
canonical form itself (nstest(1), JSON: "canonical"), with the judge's own
knowledge of which numbers to rename (mount IDs, devices, peer groups and
inodes, in mountinfo, findmnt in every form, stat and mountpoint), and
the same form with each step's lines sorted ("canonical_sorted"). A
report from an nstest that writes neither is refused (NoCanonical): its
raw output would call every two kernels different."""

import json


class NoCanonical(Exception):
    """A report without the canonical form; the message names it."""


def read_report(path):
    """The report at path, or None when it cannot be read as JSON.
    Raises NoCanonical when a step that ran has no canonical form."""
    try:
        with open(path) as f:
            report = json.load(f)
    except (OSError, ValueError):
        return None
    for scenario in report.get("scenarios", []) if isinstance(report, dict) else []:
        for step in scenario.get("steps", []):
            if step.get("ran") and not ("canonical" in step and "canonical_sorted" in step):
                raise NoCanonical(f"{path}: report has no canonical output; rebuild nstest")
    return report


def canonical(step, key="canonical"):
    """A step's output in nstest's canonical form ("" when it printed nothing)."""
    if key not in step:
        raise NoCanonical("report has no canonical output; rebuild nstest")
    return step[key] or ""


def transcript(scenario):
    """What a kernel printed for one scenario, in nstest's canonical form."""
    if scenario is None:
        return ["(no verdict from this kernel)"]
    lines = [f"result: {scenario['status']}"
             + (f" ({scenario['reason']})" if scenario.get("reason") else "")]
    if scenario["status"] == "skip":
        return lines
    for step in scenario.get("steps", []):
        lines.append(f"{step['terminal']}{'#'} {step['command']}")
        if not step.get("ran"):
            lines.append("    (not run)")
            continue
        err = step.get("error")
        if err:
            lines.append(f"    [{err.get('syscall')}: {err.get('name')}]")
        for out in canonical(step).splitlines():
            lines.append("    " + out)
    return lines


def order_only(a, b):
    """True if every step printed the same lines on both kernels, up to
    the judge's renaming and the order of the lines (mountinfo lists
    mounts in creation order since Linux 6.8, in attach order before):
    nstest's canonical form of each step's lines sorted."""
    steps_a, steps_b = a.get("steps", []), b.get("steps", [])
    return len(steps_a) == len(steps_b) and all(
        x.get("ran") == y.get("ran") and x.get("error") == y.get("error")
        and (not x.get("ran") or
             canonical(x, "canonical_sorted") == canonical(y, "canonical_sorted"))
        for x, y in zip(steps_a, steps_b))
