#!/usr/bin/env python3
"""The allocation sites holding the most bytes at a dhat heap profile's peak.

Usage: scripts/dhat_top.py dhat-heap.json [N] [--at end]

Reads the JSON that a `--features dhat-heap` build of `stud` writes when it exits and prints
the N (default 25) sites with the most bytes live at the heap's peak (t-gmax; `--at end`: at
exit), each with its first frames inside this workspace (or the first frames past the
allocator), grouped by those frames so that one call path is one line.
"""
import json
import re
import sys
from collections import defaultdict

OURS = re.compile(r"\b(stud_\w+|stud::)")
NOISE = re.compile(r"\b(alloc::|core::|std::|dhat::|<alloc::|<core::|<std::|hashbrown::raw|__rust)")


def frame_name(text):
    # "0x55d1c3: stud_server::ws::serve_socket::{{closure}} (crates/server/src/ws.rs:52:9)"
    m = re.match(r"0x[0-9a-f]+: (.*)", text)
    return m.group(1) if m else text


def site(frames):
    names = [frame_name(f) for f in frames if f != "[root]"]
    ours = [n for n in names if OURS.search(n)]
    picked = ours[:3] if ours else [n for n in names if not NOISE.search(n)][:3]
    return " <- ".join(picked) or (names[0] if names else "?")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    at_end = "--at" in sys.argv and "end" in sys.argv
    path = args[0]
    top = int(args[1]) if len(args) > 1 else 25
    with open(path) as f:
        d = json.load(f)
    ftbl = d["ftbl"]
    key_b, key_k = ("eb", "ebk") if at_end else ("gb", "gbk")
    groups = defaultdict(lambda: [0, 0])
    for pp in d["pps"]:
        g = groups[site([ftbl[i] for i in pp["fs"]])]
        g[0] += pp.get(key_b, 0)
        g[1] += pp.get(key_k, 0)
    total = sum(b for b, _ in groups.values())
    print(f"{'at exit' if at_end else 'at the peak'}: {total / 1e6:.1f} MB live in {sum(k for _, k in groups.values())} blocks")
    for name, (b, k) in sorted(groups.items(), key=lambda kv: -kv[1][0])[:top]:
        print(f"{b / 1e6:8.2f} MB {k:8d} blocks  {name}")


if __name__ == "__main__":
    main()
