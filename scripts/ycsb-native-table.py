#!/usr/bin/env python3
"""The native YCSB runs beside the suite's, as markdown (docs/benchmarks/ycsb-native.md). Not part of CI.

    scripts/ycsb-native-table.py REPORT.md NATIVE.tsv [NATIVE.tsv ...]

REPORT.md is BenchmarkDotNet's YcsbBenchmarks table from the same sitting (scripts/ycsb-comparison.sh copies it as
YcsbBenchmarks-report.md); each NATIVE.tsv is one `scripts/ycsb-native.sh run` output. Native operations per second
are the median over the runs given; the suite's are 1 / Mean. Prints two tables: operations per second with the
ratios that say where the time goes, and each kind of operation's p50 / p99 (native: the medians over the runs).
"""
import re
import statistics
import sys
from collections import defaultdict

PAIRS = [("Lmdb", "lmdb"), ("LmdbPeer", "lmdb_nosync"), ("RocksDb", "rocksdb"), ("RocksDbPeer", "rocksdb_defaults"),
         ("Sqlite", "sqlite"), ("SqlitePeer", None)]
KINDS = {"A": ["read", "update"], "B": ["read", "update"], "C": ["read"], "D": ["read", "insert"], "E": ["scan", "insert"],
         "F": ["read", "rmw"]}
UNITS = {"ns": 1e-9, "us": 1e-6, "μs": 1e-6, "ms": 1e-3, "s": 1.0}


def suite(path):
    rows, header = {}, None
    for line in open(path, encoding="utf-8"):
        cells = [c.strip().strip("*").strip() for c in line.strip().strip("|").split("|")]
        if cells[0] == "Method":
            header = cells
        elif header and len(cells) == len(header) and not cells[0].startswith("-"):
            row = dict(zip(header, cells))
            number, unit = row["Mean"].replace(",", "").split()
            latency = {k.split()[0].lower().replace("readmodifywrite", "rmw"): v for k, v in row.items() if k.endswith("p50 / p99")}
            rows[(row["Target"], row["Method"], int(row["Threads"]))] = (1 / (float(number) * UNITS[unit]), latency)
    return rows


def native(paths):
    runs, latency = defaultdict(list), {}
    for path in paths:
        for line in open(path, encoding="utf-8"):
            if line.startswith("#") or not line.strip():
                continue
            engine, workload, threads, ops, *kinds = line.rstrip("\n").split("\t")
            runs[(engine, workload, int(threads))].append(float(ops))
            for kind in kinds:
                name, p50_p99 = kind.split("=")
                p50, p99 = (float(x) for x in p50_p99.split("/"))
                latency.setdefault((engine, workload, int(threads), name), []).append((p50, p99))
    return {k: statistics.median(v) for k, v in runs.items()}, runs, latency


def p50_p99(latency, case, kind):
    runs = latency.get(case + (kind,))
    if not runs:
        return "-"
    return f"{fmt_us(statistics.median(r[0] for r in runs))} / {fmt_us(statistics.median(r[1] for r in runs))}"


def fmt_us(us):
    return f"{us * 1000:.0f} ns" if us < 1 else f"{us:.1f} us" if us < 10 else f"{us:,.0f} us" if us < 1000 else f"{us / 1000:.1f} ms"


def ops(value):
    return "-" if value is None else f"{value:,.0f}"


def ratio(a, b):
    return "-" if a is None or b is None else f"{a / b:.2f}x"


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    bdn = suite(sys.argv[1])
    medians, runs, latency = native(sys.argv[2:])
    backends = [b for b, n in PAIRS if n and any(k[0] == b for k in bdn)]
    cases = sorted({(w, t) for (_, w, t) in bdn}, key=lambda c: (c[1], c[0]))
    print("| workload | " + " | ".join(f"{b} / {dict(PAIRS)[b]} (C)" for b in backends) + " | ZoneTree | "
          + " | ".join(f"{dict(PAIRS)[b]} (C) / ZoneTree" for b in backends) + " |")
    print("|---|" + "---:|" * (2 * len(backends) + 1))
    for w, t in cases:
        zone = bdn.get(("ZoneTree", w, t), (None,))[0]
        cells = [f"{ops(bdn.get((b, w, t), (None,))[0])} / {ops(medians.get((dict(PAIRS)[b], w, t)))} "
                 f"({ratio(bdn.get((b, w, t), (None,))[0], medians.get((dict(PAIRS)[b], w, t)))})" for b in backends]
        cells += [ratio(medians.get((dict(PAIRS)[b], w, t)), zone) for b in backends]
        print(f"| {w} {t}t | " + " | ".join(cells[:len(backends)]) + f" | {ops(zone)} | " + " | ".join(cells[len(backends):]) + " |")
    print()
    print("| workload | kind | " + " | ".join(f"{b} | {dict(PAIRS)[b]} (C)" for b in backends) + " | ZoneTree |")
    print("|---|---|" + "---|" * (2 * len(backends) + 1))
    for w, t in cases:
        for kind in KINDS[w]:
            cells = []
            for b in backends:
                cells.append(bdn.get((b, w, t), (None, {}))[1].get(kind, "-"))
                cells.append(p50_p99(latency, (dict(PAIRS)[b], w, t), kind))
            cells.append(bdn.get(("ZoneTree", w, t), (None, {}))[1].get(kind, "-"))
            print(f"| {w} {t}t | {kind} | " + " | ".join(cells) + " |")
    print()
    print("| native engine | case | operations per second, each run |")
    print("|---|---|---|")
    for (e, w, t), values in sorted(runs.items(), key=lambda r: (r[0][0], r[0][2], r[0][1])):
        print(f"| {e} | {w} {t}t | " + ", ".join(ops(v) for v in values) + " |")

if __name__ == "__main__":
    main()
