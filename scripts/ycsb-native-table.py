#!/usr/bin/env python3
"""The native YCSB runs beside the suite's, as markdown (docs/benchmarks/ycsb-native.md). Not part of CI.

    scripts/ycsb-native-table.py REPORT.md[,REPORT.md...] NATIVE.tsv [NATIVE.tsv ...]

REPORT.md is BenchmarkDotNet's YcsbBenchmarks table from the same sitting (scripts/ycsb-comparison.sh copies it as
YcsbBenchmarks-report.md; several, comma-separated, give medians); each NATIVE.tsv is one `scripts/ycsb-native.sh run` output. Native operations per second
are the median over the runs given; the suite's are 1 / Mean. Prints four tables: the cost of a typical operation of
each mix from the medians (sum of share x p50, in us; ZoneTree over the engine: above 1.0 the engine is cheaper),
operations per second with each backend over its engine, each kind of operation's p50 / p99 (native: the medians over
the runs), and every native run with the process's CPU time per operation.
"""
import re
import statistics
import sys
from collections import defaultdict

PAIRS = [("Lmdb", "lmdb"), ("LmdbPeer", "lmdb_nosync"), ("RocksDb", "rocksdb"), ("RocksDbPeer", "rocksdb_defaults"),
         ("Sqlite", "sqlite"), ("SqlitePeer", None)]
SHARES = {"A": {"read": 0.5, "update": 0.5}, "B": {"read": 0.95, "update": 0.05}, "C": {"read": 1.0},
          "D": {"read": 0.95, "insert": 0.05}, "E": {"scan": 0.95, "insert": 0.05}, "F": {"read": 0.5, "rmw": 0.5}}
KINDS = {w: list(shares) for w, shares in SHARES.items()}
UNITS = {"ns": 1e-9, "us": 1e-6, "μs": 1e-6, "ms": 1e-3, "s": 1.0}


def suite(paths):
    """Each target's operations per second and p50 / p99 per kind, the medians over the reports given."""
    runs, kinds = defaultdict(list), defaultdict(list)
    for path in paths.split(","):
        header = None
        for line in open(path, encoding="utf-8"):
            cells = [c.strip().strip("*").strip() for c in line.strip().strip("|").split("|")]
            if cells[0] == "Method":
                header = cells
            elif header and len(cells) == len(header) and not cells[0].startswith("-"):
                row = dict(zip(header, cells))
                key = (row["Target"], row["Method"], int(row["Threads"]))
                runs[key].append(1 / seconds(row["Mean"]))
                for column, text in row.items():
                    if column.endswith("p50 / p99") and text != "-":
                        kind = column.split()[0].lower().replace("readmodifywrite", "rmw")
                        kinds[key + (kind,)].append([seconds(x) * 1e6 for x in text.split(" / ")])
    rows = {key: (statistics.median(values), {}) for key, values in runs.items()}
    for (target, method, threads, kind), values in kinds.items():
        rows[(target, method, threads)][1][kind] = (f"{fmt_us(statistics.median(v[0] for v in values))} / "
                                                    f"{fmt_us(statistics.median(v[1] for v in values))}")
    return rows


def native(paths):
    runs, latency, cpu = defaultdict(list), {}, defaultdict(list)
    for path in paths:
        for line in open(path, encoding="utf-8"):
            if line.startswith("#") or not line.strip():
                continue
            engine, workload, threads, ops, *kinds = line.rstrip("\n").split("\t")
            runs[(engine, workload, int(threads))].append(float(ops))
            for kind in kinds:
                name, p50_p99 = kind.split("=")
                if name == "cpu":
                    cpu[(engine, workload, int(threads))].append(float(p50_p99))
                    continue
                p50, p99 = (float(x) for x in p50_p99.split("/"))
                latency.setdefault((engine, workload, int(threads), name), []).append((p50, p99))
    return {k: statistics.median(v) for k, v in runs.items()}, runs, latency, {k: statistics.median(v) for k, v in cpu.items()}


def p50_p99(latency, case, kind):
    runs = latency.get(case + (kind,))
    if not runs:
        return "-"
    return f"{fmt_us(statistics.median(r[0] for r in runs))} / {fmt_us(statistics.median(r[1] for r in runs))}"


def seconds(text):
    number, unit = text.replace(",", "").split()
    return float(number) * UNITS[unit]


def p50_mix(shares, p50_of):
    """The cost of a typical operation of the mix, sum of share x p50 (us): what a loaded machine leaves comparable."""
    try:
        return sum(share * p50_of(kind) for kind, share in shares.items())
    except (KeyError, TypeError, ValueError):
        return None


def fmt_us(us):
    return f"{us * 1000:.0f} ns" if us < 1 else f"{us:.1f} us" if us < 10 else f"{us:,.0f} us" if us < 1000 else f"{us / 1000:.1f} ms"


def fmt_mix(us):
    return "-" if us is None else f"{us:.2f}"


def ops(value):
    return "-" if value is None else f"{value:,.0f}"


def ratio(a, b):
    return "-" if a is None or b is None else f"{a / b:.2f}x"


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    bdn = suite(sys.argv[1])
    medians, runs, latency, cpu = native(sys.argv[2:])
    backends = [b for b, n in PAIRS if n and any(k[0] == b for k in bdn)]
    cases = sorted({(w, t) for (_, w, t) in bdn}, key=lambda c: (c[1], c[0]))
    ours = [b for b in backends if not b.endswith("Peer")]
    print("| workload | " + " | ".join(f"{b} | {dict(PAIRS)[b]} (C)" + (f" | {b} / C" if b in ours else "") for b in backends)
          + " | ZoneTree | " + " | ".join(f"ZoneTree / {dict(PAIRS)[b]} (C)" for b in backends) + " |")
    print("|---|" + "---:|" * (3 * len(backends) + len(ours) + 1))
    for w, t in cases:
        def suite_mix(target):
            return p50_mix(SHARES[w], lambda k: seconds(bdn[(target, w, t)][1][k].split(" / ")[0]) * 1e6)

        def native_mix(engine):
            return p50_mix(SHARES[w], lambda k: statistics.median(r[0] for r in latency[(engine, w, t, k)]))
        cells = []
        for b in backends:
            cells += [fmt_mix(suite_mix(b)), fmt_mix(native_mix(dict(PAIRS)[b]))]
            cells += [ratio(suite_mix(b), native_mix(dict(PAIRS)[b]))] if b in ours else []
        zone = suite_mix("ZoneTree")
        cells.append(fmt_mix(zone))
        cells += [ratio(zone, native_mix(dict(PAIRS)[b])) for b in backends]
        print(f"| {w} {t}t | " + " | ".join(cells) + " |")
    print()
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
    print("| native engine | case | operations per second, each run | CPU time per operation, median (us) |")
    print("|---|---|---|---:|")
    for (e, w, t), values in sorted(runs.items(), key=lambda r: (r[0][0], r[0][2], r[0][1])):
        print(f"| {e} | {w} {t}t | " + ", ".join(ops(v) for v in values) + f" | {fmt_mix(cpu.get((e, w, t)))} |")

if __name__ == "__main__":
    main()
