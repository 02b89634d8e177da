#!/usr/bin/env python3
"""Medians of the alternating runs made by compare-native.sh (SQLite) or compare-native-lmdb.sh: DataStore against the engine from C.

Usage: compare-native-table.py OUT [sqlite|lmdb]"""
import glob, os, re, statistics, sys

out = sys.argv[1]
engine = sys.argv[2] if len(sys.argv) > 2 else "sqlite"  # the anchor engine: sqlite or lmdb
backend = {"sqlite": "Sqlite", "lmdb": "Lmdb"}[engine]
native = {}
for path in sorted(glob.glob(os.path.join(out, "native-*", engine + ".txt"))):
    for line in open(path):
        parts = line.split()
        if len(parts) == 5 and parts[0] == engine:
            native.setdefault(parts[1], []).append(float(parts[3]) / 1000)  # us per op

def to_us(text):
    value, unit = text.replace(",", "").split()
    return float(value) * {"ns": 1e-3, "us": 1, "μs": 1, "ms": 1e3, "s": 1e6}[unit]

ours = {}
for path in sorted(glob.glob(os.path.join(out, "bdn-*", "results", "*Benchmarks-report-github.md"))):
    header = None
    for line in open(path):
        cells = [c.strip().strip("*") for c in line.strip().strip("|").split("|")]
        if "Method" in cells:
            header = cells
        elif header and len(cells) == len(header) and not set(cells[0]) <= {"-", ":"}:
            row = dict(zip(header, cells))
            if row.get("Backend") == backend and row.get("Mean") not in (None, "NA"):
                ours.setdefault(row["Method"], []).append(to_us(row["Mean"]))

pairs = [("Get", "get_random", 1), ("HaveKey", "havekey_random", 1), ("Put", "put_single_nosync", 1), ("Batch1000", "bulk_load", 1000),
         ("PrefixScan1000", "prefix_scan", 1), ("FullScan", "full_scan", 1)]
print("| operation | DataStore median (us) | runs | native median (us) | runs | DataStore / native |")
print("|---|---|---|---|---|---|")
for method, workload, per in pairs:
    if method in ours and workload in native:
        d = statistics.median(ours[method])
        n = statistics.median(native[workload]) * per
        runs_d = ", ".join(f"{v:.2f}" for v in ours[method])
        runs_n = ", ".join(f"{v * per:.2f}" for v in native[workload])
        print(f"| {method} | {d:.2f} | {runs_d} | {n:.2f} | {runs_n} | {d / n:.2f}x |")
