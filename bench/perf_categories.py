#!/usr/bin/env python3
"""perf_categories.py - where nstest's CPU time goes, by activity.

    perf script -F comm,pid,tid,time,ip,sym,dso | bench/perf_categories.py HZ RUNS

Reads `perf script` output of a `perf record -e cpu-clock -F HZ
--call-graph dwarf` of RUNS runs of nstest, and puts each sample of a
process named "nstest" in the first category (in the order below) one of
whose names appears in its call chain. Prints the share of each category
and its CPU milliseconds per run. Used by bench/profile.
"""
import collections
import sys

CATEGORIES = [
    ("exec + dynamic linking (ld.so: map, relocate, lazy binding)",
     ["execve", "_dl_", "dl_main", "do_lookup_x", "check_match",
      "init_cpu_features", "handle_amd", "handle_intel", "get_common_indices"]),
    ("fork (copy_process, dup_mmap)", ["kernel_clone", "_Fork", "ret_from_fork"]),
    ("process exit + reaping", ["do_exit", "do_group_exit", "exit_mmap",
                                "release_task", "kernel_wait4"]),
    ("page faults (copy-on-write after fork, first touch)", ["exc_page_fault"]),
    ("sandbox: unshare + rprivate, pivot_root, detach old root",
     ["ns_sandbox_enter", "pivot_root", "umount"]),
    ("stand-in devices: fsopen/fsconfig/fsmount/open_tree/move_mount",
     ["fsconfig", "fsopen", "fsmount", "open_tree", "move_mount", "ns_devices"]),
    ("mountinfo: kernel side (show_mountinfo, seq_read)",
     ["show_mountinfo", "seq_read_iter"]),
    ("mountinfo: libmount parse + render",
     ["mnt_table_parse", "mnt_parse", "ns_snapshot", "mnt_table", "mnt_fs_",
      "blkid_", "render_mount"]),
    ("matcher + diff", ["ns_matcher", "ns_match_", "ns_mi_parse", "ns_renaming",
                        "ns_judge", "ns_diff"]),
    ("scenario parse", ["ns_scenario_parse", "ns_scenario_load", "ns_shellword"]),
    ("unshare/setns of steps (copy_mnt_ns)", ["unshare", "setns", "copy_mnt_ns"]),
    ("other syscalls of steps (mount, mkdir, ls, ...)",
     ["__x64_sys_mount", "mkdir", "getdents", "openat", "newfstatat", "chdir",
      "chroot"]),
    ("IPC: sockets, pipes, poll, context switches",
     ["sock_", "unix_", "pipe_", "poll", "ns_wire", "schedule",
      "finish_task_switch"]),
    ("malloc/free", ["malloc", "free", "_int_"]),
    ("report", ["ns_report", "report_", "printf", "fwrite"]),
]


def samples(stream):
    """Yield (comm, pid, [symbols]) per sample."""
    comm, pid, frames = None, None, []
    for line in stream:
        if not line.strip():
            if comm is not None:
                yield comm, pid, frames
            comm, pid, frames = None, None, []
        elif not line[0].isspace():
            fields = line.split()
            comm, pid, frames = fields[0], fields[1].split("/")[0], []
        else:
            parts = line.strip().split(None, 1)
            if len(parts) == 2:
                frames.append(parts[1].rsplit(" (", 1)[0])
    if comm is not None:
        yield comm, pid, frames


def main():
    hz = float(sys.argv[1]) if len(sys.argv) > 1 else 0.0
    runs = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    counts = collections.Counter()
    pids = set()
    total = 0
    for comm, pid, frames in samples(sys.stdin):
        if comm != "nstest" or not frames:
            continue
        pids.add(pid)
        total += 1
        for name, keys in CATEGORIES:
            if any(k in f for f in frames for k in keys):
                counts[name] += 1
                break
        else:
            counts["other"] += 1
    if not total:
        sys.exit("perf_categories: no nstest samples")
    print("%d samples of nstest, %d processes (%.1f per run)" %
          (total, len(pids), len(pids) / runs))
    print("| share | CPU ms per run | activity |")
    print("|---:|---:|---|")
    for name, c in counts.most_common():
        ms = c / hz * 1000 / runs if hz else float("nan")
        print("| %.1f%% | %.2f | %s |" % (100.0 * c / total, ms, name))
    if hz:
        print("| 100%% | %.2f | total |" % (total / hz * 1000 / runs))


if __name__ == "__main__":
    main()
