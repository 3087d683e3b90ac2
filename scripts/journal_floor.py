#!/usr/bin/env python3
"""The storage floor a journal cannot beat, measured at a fixed rate.

  journal_floor.py fsync DIR [--rate 1000] [--seconds 20] [--size 4096] [--preallocated]
      appends SIZE bytes to a file in DIR and fdatasyncs it, RATE times a second
      (the SQLite journal's floor: one synced append per group); --preallocated writes into a
      file zero-filled and synced first, as the journal does in the segments it makes ahead
  journal_floor.py pg URL [--rate 1000] [--seconds 20] [--clients 2]
      one-row INSERT commits with pgbench -R RATE -c CLIENTS (the Postgres journal's floor)

Prints one JSON line: {"floor": ..., "n": ..., "p50_ms": ..., "p99_ms": ..., "max_ms": ...}.
Latency is measured from each operation's start to its end; a late start (the machine busy)
is not counted as latency, as in pgbench's per-transaction log.
"""

import argparse
import glob
import json
import os
import subprocess
import tempfile
import time


def percentiles(floor, lat_us):
    lat_us.sort()
    n = len(lat_us)

    def at(q):
        return round(lat_us[min(n - 1, int(q * n))] / 1000, 3)

    return {"floor": floor, "n": n, "p50_ms": at(0.50), "p99_ms": at(0.99), "max_ms": round(lat_us[-1] / 1000, 3)}


def fsync_floor(directory, rate, seconds, size, preallocated=False):
    block = os.urandom(size)
    path = os.path.join(directory, f"journal-floor-{os.getpid()}.bin")
    if preallocated:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        zeros = bytes(1 << 20)
        for _ in range(int(rate * seconds) * size // len(zeros) + 1):
            os.write(fd, zeros)
        os.fsync(fd)
        os.lseek(fd, 0, os.SEEK_SET)
    else:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o600)
    lat = []
    try:
        period = 1.0 / rate
        start = time.perf_counter()
        for k in range(int(rate * seconds)):
            due = start + k * period
            now = time.perf_counter()
            if due > now:
                time.sleep(due - now)
            t0 = time.perf_counter()
            os.write(fd, block)
            os.fdatasync(fd)
            lat.append((time.perf_counter() - t0) * 1e6)
    finally:
        os.close(fd)
        os.unlink(path)
    kind = "write into a zero-filled file" if preallocated else "append"
    return percentiles(f"fdatasync of a {size} B {kind} at {rate}/s", lat)


def pg_floor(url, rate, seconds, clients):
    psql = ["psql", url, "-qc"]
    subprocess.run(psql + ["DROP TABLE IF EXISTS journal_floor; CREATE TABLE journal_floor "
                           "(table_id uuid, n bigint, at_ms bigint, entry text, PRIMARY KEY (table_id, n))"],
                   check=True, capture_output=True)
    with tempfile.TemporaryDirectory() as d:
        script = os.path.join(d, "insert.sql")
        with open(script, "w") as f:
            # A journal row's shape and size: a table id, its input number, a time and ~200 B of entry.
            f.write("INSERT INTO journal_floor VALUES (gen_random_uuid(), 1, 0, repeat('x', 200));\n")
        subprocess.run(["pgbench", "-n", "-f", script, "-R", str(rate), "-c", str(clients), "-j", str(clients),
                        "-T", str(int(seconds)), "-l", "--log-prefix", os.path.join(d, "log"), url],
                       check=True, capture_output=True)
        lat = []
        for log in glob.glob(os.path.join(d, "log*")):
            with open(log) as f:
                for line in f:
                    cols = line.split()
                    # client, transaction, time, script, epoch, µs, schedule lag: with --rate the
                    # time counts from the scheduled start, so the lag comes off.
                    if len(cols) >= 7 and cols[2].isdigit():
                        lat.append(float(cols[2]) - float(cols[6]))
    subprocess.run(psql + ["DROP TABLE journal_floor"], check=True, capture_output=True)
    return percentiles(f"one-row INSERT commits, pgbench -R {rate} -c {clients}", lat)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("kind", choices=["fsync", "pg"])
    p.add_argument("where", help="a directory (fsync) or a postgres:// URL (pg)")
    p.add_argument("--rate", type=int, default=1000)
    p.add_argument("--seconds", type=float, default=20)
    p.add_argument("--size", type=int, default=4096)
    p.add_argument("--clients", type=int, default=2)
    p.add_argument("--preallocated", action="store_true")
    a = p.parse_args()
    if a.kind == "fsync":
        r = fsync_floor(a.where, a.rate, a.seconds, a.size, a.preallocated)
    else:
        r = pg_floor(a.where, a.rate, a.seconds, a.clients)
    print(json.dumps(r))


if __name__ == "__main__":
    main()
