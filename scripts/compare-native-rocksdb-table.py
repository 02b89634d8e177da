#!/usr/bin/env python3
"""Medians of the alternating runs made by compare-native-rocksdb.sh: DataStore (RocksDb) against RocksDB from C."""
import glob, os, statistics, sys

out = sys.argv[1]

def native(engine):
    runs = {}
    for path in sorted(glob.glob(os.path.join(out, "native-*", engine + ".txt"))):
        for line in open(path):
            parts = line.split()
            if len(parts) == 5 and parts[0] == engine:
                runs.setdefault(parts[1], []).append(float(parts[3]) / 1000)  # us per op
    return runs

def to_us(text):
    value, unit = text.replace(",", "").split()
    return float(value) * {"ns": 1e-3, "us": 1, "μs": 1, "ms": 1e3, "s": 1e6}[unit]

def ours(tuning):
    runs, allocated = {}, {}
    for path in sorted(glob.glob(os.path.join(out, f"bdn-{tuning}-*", "results", "*CoreBenchmarks-report-github.md"))):
        header = None
        for line in open(path):
            cells = [c.strip().strip("*") for c in line.strip().strip("|").split("|")]
            if "Method" in cells:
                header = cells
            elif header and len(cells) == len(header) and not set(cells[0]) <= {"-", ":"}:
                row = dict(zip(header, cells))
                if row.get("Backend") == "RocksDb" and row.get("Mean") not in (None, "NA"):
                    runs.setdefault(row["Method"], []).append(to_us(row["Mean"]))
                    allocated[row["Method"]] = row.get("Allocated", "?")
    return runs, allocated

pairs = [("Get", "get_random", 1), ("GetIntoBufferWriter", "get_random", 1), ("HaveKey", "havekey_random", 1),
         ("Put", "put_single_nosync", 1), ("Batch1000", "bulk_load", 1000)]
for tuning, engine in (("anchor", "rocksdb"), ("desktop", "rocksdb_bloom")):
    mine, allocated = ours(tuning)
    theirs = native(engine)
    print(f"\nDataStore with {tuning} settings against the C anchor's `{engine}`:\n")
    print("| operation | DataStore median (us) | runs | native median (us) | runs | DataStore / native | allocated |")
    print("|---|---|---|---|---|---|---|")
    for method, workload, per in pairs:
        if method in mine and workload in theirs:
            d = statistics.median(mine[method])
            n = statistics.median(theirs[workload]) * per
            runs_d = ", ".join(f"{v:.2f}" for v in mine[method])
            runs_n = ", ".join(f"{v * per:.2f}" for v in theirs[workload])
            print(f"| {method} | {d:.2f} | {runs_d} | {n:.2f} | {runs_n} | {d / n:.2f}x | {allocated.get(method, '?')} |")
