#!/usr/bin/env python3
"""Broker throughput from real processes (issue 14, ADR 0015): results go in docs/benchmarks/broker.md.

1. Scan: a store of N keys (9-byte keys, 128-byte values; `fill-bench`), an owner process (`hold-open`) and a client
   process that scans it all (`scan-rate`), three times, while the owner's VmRSS is sampled every 50 ms; then the
   same scan by a process that owns the store itself (direct).
2. Batches: on a fresh store, one process writes B batches of 1,000 keys alone (it owns the store); then two
   processes write B batches each at once (the first to open owns the store, the other is its client), started
   together once both have opened the store. Aggregate keys/s = all keys / the slower process's time.

    dotnet build tests/DataStore.TestHost -c Release
    python3 scripts/measure-broker.py [--keys 1000000] [--scans 3] [--batches 100] [--rounds 3] [--only scan|batches] [--steps] RocksDb LiteDb

`--scans N` runs N client scans, each from a new process (the owner's memory across them); `--rounds` is how many
alone/together batch pairs are run. Every writer stays open until all are done (an owner that finished first would
otherwise hand the store over to its client mid-run). `--steps` prints, for each of the two writers, the broker's
per-step timers of that process (BrokerSteps: the client's encode, send and wait for the answer; the owner session's
idle wait, receive, decode, apply and answer for the client's batches, and the owner's own batches), with the bytes
each step allocated. A writers-only run of about a minute: `--only batches --batches 300 --rounds 5`. DATASTORE_TESTHOST=path/to/DataStore.TestHost.dll runs another build (a before/after
comparison in one sitting: alternate the two).
"""
import os, subprocess, sys, tempfile, threading, time

HOST = os.environ.get("DATASTORE_TESTHOST") or os.path.join(
    os.path.dirname(__file__), "..", "tests", "DataStore.TestHost", "bin", "Release", "net10.0", "DataStore.TestHost.dll")


def host(*args, **kw):
    return subprocess.Popen(["dotnet", HOST, *args], stdout=subprocess.PIPE, stdin=subprocess.PIPE, text=True, **kw)


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None


def scan(backend, keys, scans):
    store = tempfile.mkdtemp(prefix="broker-scan-")
    subprocess.run(["dotnet", HOST, "fill-bench", store, backend, "-", str(keys)], check=True, stdout=subprocess.DEVNULL)
    owner = host("hold-open", store, backend, "-", "600000")
    assert owner.stdout.readline().startswith("HOLDING")
    for _ in range(scans):
        before = rss_kib(owner.pid)
        samples, done = [], threading.Event()
        def sample():
            while not done.is_set():
                samples.append(rss_kib(owner.pid)); time.sleep(0.05)
        t = threading.Thread(target=sample); t.start()
        out = subprocess.run(["dotnet", HOST, "scan-rate", store, backend, "-"], check=True, capture_output=True, text=True).stdout.split()
        done.set(); t.join()
        n, secs, role = int(out[1]), float(out[2]), out[3]
        print(f"{backend} scan of {n} keys from a {role}: {secs:.2f} s, {n / secs:,.0f} keys/s; owner VmRSS before {before / 1024:.0f} MiB, "
              f"during min {min(samples) / 1024:.0f} / max {max(samples) / 1024:.0f} MiB, after {rss_kib(owner.pid) / 1024:.0f} MiB", flush=True)
    owner.kill(); owner.wait()
    out = subprocess.run(["dotnet", HOST, "scan-rate", store, backend, "-"], check=True, capture_output=True, text=True).stdout.split()
    print(f"{backend} scan of {out[1]} keys by the owning process itself: {float(out[2]):.2f} s, {int(out[1]) / float(out[2]):,.0f} keys/s", flush=True)
    subprocess.run(["rm", "-rf", store])


def writers(backend, batches, count, steps=False):
    store = tempfile.mkdtemp(prefix="broker-batches-")
    subprocess.run(["dotnet", HOST, "open", store, backend, "-"], check=True, stdout=subprocess.DEVNULL)
    procs = []
    for i in range(count):
        p = host("batch-rate", store, backend, "-", "abcdef"[i], str(batches), "1000", *(["steps"] if steps else []))
        assert p.stdout.readline().strip() == "READY"
        procs.append(p)
    for p in procs:
        p.stdin.write("GO\n"); p.stdin.flush()
    results = [p.stdout.readline().split() for p in procs]
    for p in procs:  # every writer is done: the owner may close now (not while its client still writes)
        p.stdin.write("DONE\n"); p.stdin.flush()
    for p, r in zip(procs, results):
        tail = p.stdout.read().splitlines()
        p.wait()
        if steps:
            print_steps(backend, r[3], int(r[1]) // 1000, tail)
    subprocess.run(["rm", "-rf", store])
    total = sum(int(r[1]) for r in results)
    slowest = max(float(r[2]) for r in results)
    detail = ", ".join(f"{r[3]} {int(r[1]) / float(r[2]):,.0f} keys/s" for r in results)
    return total / slowest, detail


def print_steps(backend, role, batches, lines):
    """The broker's per-step timers of one writer process (batch-rate ... steps), as a table."""
    print(f"{backend} {role} process, per-step timers (its own {batches} batches; a session's steps are its client's batches):")
    print("| step | calls | total ms | us per call | bytes allocated per call |")
    print("|---|---:|---:|---:|---:|")
    for line in lines:
        f = line.split()
        if f and f[0] == "STEP":
            print(f"| {f[1]} | {int(f[2]):,} | {float(f[3]):,.1f} | {float(f[4]):,.1f} | {int(f[5]):,} |")
        elif f and f[0] == "GC":
            print(f"process: {int(f[1]):,} bytes allocated, collections gen0 {f[2]}, gen1 {f[3]}, gen2 {f[4]}")
    print(flush=True)


def main():
    args = sys.argv[1:]
    def option(name, default):
        if name not in args:
            return default
        i = args.index(name); value = args[i + 1]; del args[i:i + 2]
        return value
    keys, scans = int(option("--keys", 1_000_000)), int(option("--scans", 3))
    batches, rounds, only = int(option("--batches", 100)), int(option("--rounds", 3)), option("--only", "")
    steps = "--steps" in args
    args = [a for a in args if a != "--steps"]
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {HOST}", flush=True)
    for backend in args:
        if only != "batches":
            scan(backend, keys, scans)
        for _ in range(rounds if only != "scan" else 0):
            alone, d1 = writers(backend, batches, 1)
            both, d2 = writers(backend, batches, 2, steps)
            print(f"{backend} 1,000-key batches: one process alone {alone:,.0f} keys/s ({d1}); two at once {both:,.0f} keys/s aggregate ({d2}); ratio {both / alone:.2f}", flush=True)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)


if __name__ == "__main__":
    main()
