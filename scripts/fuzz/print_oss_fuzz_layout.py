#!/usr/bin/env python3
"""Prints, for each target in an OSS-Fuzz $OUT, its size, the seeds of its
corpus zip and the entries of its dictionary (scripts/fuzz/oss_fuzz_local.sh).

    print_oss_fuzz_layout.py OUT TARGET...
"""
import os, sys, zipfile
out = sys.argv[1]
for target in sys.argv[2:]:
    with zipfile.ZipFile(os.path.join(out, target + "_seed_corpus.zip")) as z:
        seeds = len(z.namelist())
    entries = sum(1 for line in open(os.path.join(out, target + ".dict")) if line.strip() and not line.startswith("#"))
    print("%-14s %6.1f MB  %5d seeds  %4d dictionary entries" % (
        target, os.path.getsize(os.path.join(out, target)) / 1e6, seeds, entries))
