#!/usr/bin/env python3
"""Summarises a replay by scripts/fuzz/fuzz.sh: the slowest input of the
targets' "slowest input" lines in LOG, named by finding the file among the
replayed PATHs with its size and FNV-1a hash, and the count of inputs over
their bound.

    summarize_replay.py LOG PATH...
"""
import os, re, sys
lines = [re.match(r"slowest input: ([0-9.]+) ms, (\d+) bytes, fnv1a (\w+); inputs: (\d+); over (\d+ ms(?: per \d+ KiB)?): (\d+)", l)
         for l in open(sys.argv[1], errors="replace")]
lines = [m for m in lines if m]
if not lines:
    print("slowest on replay: no inputs"); sys.exit(0)
worst = max(lines, key=lambda m: float(m.group(1)))
def fnv1a(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h
name = "?"
for root in sys.argv[2:]:
    paths = [root] if os.path.isfile(root) else [os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs]
    for path in paths:
        if os.path.getsize(path) == int(worst.group(2)) and fnv1a(open(path, "rb").read()) == worst.group(3):
            name = path
print("slowest on replay: %s ms (%s bytes, %s); inputs: %d; over %s: %d" % (
    worst.group(1), worst.group(2), name, sum(int(m.group(4)) for m in lines), worst.group(5),
    sum(int(m.group(6)) for m in lines)))
