#!/usr/bin/env python3
"""Counts the messages NATS carries, by kind of subject, for a while (a spy on `>`).

usage: nats_subjects.py NATS_URL SECONDS [ACTIONS_PER_SECOND]

Prints messages per second per subject kind (the subject with table ids, node names and inbox
tokens folded: `stud.in.*`, `$JS.API...`, `$KV.stud_leases.*`, `_INBOX.*`) and, given the
actions per second the load generator measured over the same window, messages per action.
Needs nats-py (pip install nats-py). The spy sees what the server delivers to subscribers and
what publishers send; JetStream's acknowledgements travel on `_INBOX` subjects.
"""
import asyncio
import collections
import re
import sys

import nats

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def kind(subject: str) -> str:
    s = UUID.sub("*", subject)
    parts = s.split(".")
    if parts[0] == "_INBOX":
        return "_INBOX.*"
    if s.startswith("$JS.ACK."):
        return "$JS.ACK.*"
    if s.startswith("stud.out.") or s.startswith("stud.probe."):
        return ".".join(parts[:2]) + ".*"
    if s.startswith("$KV."):
        return ".".join(parts[:2]) + ".*"
    if s.startswith("$JS.API."):
        return ".".join(p for p in parts[:5] if p != "*")
    return s


async def main() -> None:
    url, seconds = sys.argv[1], float(sys.argv[2])
    actions = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
    counts: collections.Counter = collections.Counter()
    sizes: collections.Counter = collections.Counter()
    nc = await nats.connect(url, name="subject-spy")

    async def on(msg) -> None:
        k = kind(msg.subject)
        counts[k] += 1
        sizes[k] += len(msg.data)

    await nc.subscribe(">", cb=on, pending_msgs_limit=1_000_000, pending_bytes_limit=1 << 30)
    await asyncio.sleep(seconds)
    await nc.drain()
    total = sum(counts.values())
    print(f"{'subject':40} {'msgs/s':>10} {'bytes/msg':>10}" + (f" {'per action':>11}" if actions else ""))
    for k, n in counts.most_common():
        line = f"{k:40} {n / seconds:10.1f} {sizes[k] / n:10.0f}"
        if actions:
            line += f" {n / seconds / actions:11.2f}"
        print(line)
    line = f"{'total':40} {total / seconds:10.1f} {'':10}"
    if actions:
        line += f" {total / seconds / actions:11.2f}"
    print(line)


asyncio.run(main())
