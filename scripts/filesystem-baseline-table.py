#!/usr/bin/env python3
"""Median table of the FileSystem core rows against their hand-made baselines.

Usage: scripts/filesystem-baseline-table.py RUN_DIR [RUN_DIR ...]
Each RUN_DIR is a BenchmarkDotNet --artifacts directory of
  DATASTORE_BENCH_BACKENDS=FileSystem dotnet run -c Release --project src/DataStore.Benchmarks -- \
    --filter '*CoreBenchmarks*' '*FileSystemBaseline*' --artifacts RUN_DIR
Prints, per row, each run's mean, the median of those means, the allocation, and the ratio to the baselines.
"""
import csv
import statistics
import sys
from pathlib import Path

UNITS = {"ns": 1e-3, "μs": 1.0, "us": 1.0, "ms": 1e3, "s": 1e6}


def micros(text):
    number, unit = text.replace(",", "").split()
    return float(number) * UNITS[unit]


def rows(run, name):
    result = {}
    for path in Path(run).glob(f"results/*{name}-report.csv"):
        with open(path, newline="", encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                result[row["Method"]] = (micros(row["Mean"]), row["Allocated"])
    return result


runs = sys.argv[1:]
core = [rows(r, "CoreBenchmarks") for r in runs]
base = [rows(r, "FileSystemBaselineBenchmarks") for r in runs]


def median(tables, method):
    values = [t[method][0] for t in tables if method in t]
    return (statistics.median(values), values, next(t[method][1] for t in tables if method in t)) if values else None


print("| operation | mean per run (μs) | median (μs) | allocated | / .NET baseline, per run | median | / libc baseline, per run | median |")
print("|---|---|---:|---:|---|---:|---|---:|")
pairs = [("Get", "BaselineGet", "BaselineGetLibc"), ("GetIntoBufferWriter", "BaselineGet", "BaselineGetLibc"),
         ("HaveKey", "BaselineHaveKey", "BaselineHaveKeyLibc"), ("Put", "BaselinePut", None), ("Batch1000", None, None)]


def ratios(method, baseline):
    if baseline is None:
        return "", ""
    values = [c[method][0] / b[baseline][0] for c, b in zip(core, base) if method in c and baseline in b]
    return ", ".join(f"{v:.2f}" for v in values), f"{statistics.median(values):.2f}x" if values else ""


for method, dotnet, libc in pairs:
    mine = median(core, method)
    if mine is None:
        continue
    d, dm = ratios(method, dotnet)
    l, lm = ratios(method, libc)
    print(f"| FileSystem {method} | {', '.join(f'{v:.2f}' for v in mine[1])} | {mine[0]:.2f} | {mine[2]} | {d} | {dm} | {l} | {lm} |")
for method in ["BaselineGet", "BaselineGetLibc", "BaselineHaveKey", "BaselineHaveKeyLibc", "BaselinePut"]:
    other = median(base, method)
    if other:
        print(f"| {method} | {', '.join(f'{v:.2f}' for v in other[1])} | {other[0]:.2f} | {other[2]} | | | | |")
