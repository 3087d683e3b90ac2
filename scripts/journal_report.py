#!/usr/bin/env python3
"""Prints a journal bench's figures side by side: the storage floor, the players' latency, and
the server's journal histograms over the measured window (end minus start of /metrics).

  journal_report.py FLOOR.json LOAD.json METRICS_START.txt METRICS_END.txt
"""

import json
import re
import sys

LINE = re.compile(r'^(\w+?)(_bucket)?(?:\{le="([^"]+)"\})?\s+(\S+)$')


def parse(path):
    buckets, scalars = {}, {}
    with open(path) as f:
        for line in f:
            m = LINE.match(line.strip())
            if not m:
                continue
            name, is_bucket, le, value = m.groups()
            if is_bucket:
                buckets.setdefault(name, []).append((float("inf") if le == "+Inf" else float(le), float(value)))
            else:
                scalars[name] = float(value)
    return buckets, scalars


def quantile(start, end, name, q):
    """The upper bound of the bucket that holds quantile q of the window (start..end)."""
    a = dict(start.get(name, []))
    rows = [(le, v - a.get(le, 0.0)) for le, v in end.get(name, [])]
    if not rows or rows[-1][1] <= 0:
        return None, 0
    total = rows[-1][1]
    for le, v in rows:
        if v >= q * total:
            return le, int(total)
    return float("inf"), int(total)


def share_over(start, end, name, bound):
    a = dict(start.get(name, []))
    rows = dict((le, v - a.get(le, 0.0)) for le, v in end.get(name, []))
    total = rows.get(float("inf"), 0)
    return 0 if total <= 0 else 100 * (1 - rows.get(bound, total) / total)


def ms(bound):
    if bound is None:
        return "-"
    return "> 500 ms" if bound == float("inf") else f"<= {bound * 1000:g} ms"


def main():
    floor = json.load(open(sys.argv[1]))
    load = json.loads(open(sys.argv[2]).read().strip().splitlines()[-1])
    b0, s0 = parse(sys.argv[3])
    b1, s1 = parse(sys.argv[4])
    lat = load["latency_ms"]
    print(f"floor   {floor['floor']}: p50 {floor['p50_ms']} ms, p99 {floor['p99_ms']} ms, max {floor['max_ms']} ms")
    print(f"server  action -> update (stud load): p50 {lat['p50']} ms, p99 {lat['p99']} ms, max {lat['max']} ms, "
          f"{load['actions_per_s']} actions/s, errors {load['errors']}")
    goal = max(5.0, floor["p99_ms"] + 3.0)
    print(f"goal    p99 <= max(5 ms, floor p99 + 3 ms) = {goal:.2f} ms: {'met' if lat['p99'] <= goal else 'NOT met'}")
    appends = s1.get("stud_journal_appends_total", 0) - s0.get("stud_journal_appends_total", 0)
    groups = s1.get("stud_journal_groups_total", 0) - s0.get("stud_journal_groups_total", 0)
    busy = s1.get("stud_journal_busy_seconds_total", 0) - s0.get("stud_journal_busy_seconds_total", 0)
    if groups:
        print(f"journal {int(appends)} appends in {int(groups)} groups (mean {appends / groups:.2f}), "
              f"committing {busy:.1f} s of the window")
    for name, what in [
        ("stud_journal_wait_seconds", "append -> durable (queue + commit)"),
        ("stud_journal_queue_seconds", "append -> its group's commit starts"),
        ("stud_journal_commit_seconds", "one group's commit"),
        ("stud_action_seconds", "server: action read -> update sent"),
    ]:
        p50, n = quantile(b0, b1, name, 0.5)
        if not n:
            continue
        p99, _ = quantile(b0, b1, name, 0.99)
        print(f"  {name:30} {what:40} n {n:7}  p50 {ms(p50):10} p99 {ms(p99):10} "
              f"over 5 ms {share_over(b0, b1, name, 0.005):5.2f} %  over 25 ms {share_over(b0, b1, name, 0.025):5.2f} %")


if __name__ == "__main__":
    main()
