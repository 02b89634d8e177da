#!/usr/bin/env python3
"""Broker throughput from real processes (issue 14, ADR 0015): results go in docs/benchmarks/broker.md.

1. Scan: a store of N keys (9-byte keys, 128-byte values; `fill-bench`), an owner process (`hold-open`) and a client
   process that scans it all (`scan-rate`), three times, while the owner's VmRSS is sampled every 50 ms; then the
   same scan by a process that owns the store itself (direct).
2. Batches: on a fresh store, one process writes B batches of 1,000 keys alone (it owns the store); then two
   processes write B batches each at once (the first to open owns the store, the other is its client), started
   together once both have opened the store. Aggregate keys/s = all keys / the slower process's time.

    dotnet build tests/DataStore.TestHost -c Release
    python3 scripts/measure-broker.py [--keys 1000000] [--scans 3] [--batches 100] [--rounds 3] [--only scan|batches] RocksDb LiteDb

`--scans N` runs N client scans, each from a new process (the owner's memory across them); `--rounds` is how many
alone/together batch pairs are run. DATASTORE_TESTHOST=path/to/DataStore.TestHost.dll runs another build (a before/after
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


def writers(backend, batches, count):
    store = tempfile.mkdtemp(prefix="broker-batches-")
    subprocess.run(["dotnet", HOST, "open", store, backend, "-"], check=True, stdout=subprocess.DEVNULL)
    procs = []
    for i in range(count):
        p = host("batch-rate", store, backend, "-", "abcdef"[i], str(batches), "1000")
        assert p.stdout.readline().strip() == "READY"
        procs.append(p)
    for p in procs:
        p.stdin.write("GO\n"); p.stdin.flush()
    results = [p.stdout.readline().split() for p in procs]
    for p in procs:
        p.wait()
    subprocess.run(["rm", "-rf", store])
    total = sum(int(r[1]) for r in results)
    slowest = max(float(r[2]) for r in results)
    detail = ", ".join(f"{r[3]} {int(r[1]) / float(r[2]):,.0f} keys/s" for r in results)
    return total / slowest, detail


def main():
    args = sys.argv[1:]
    def option(name, default):
        if name not in args:
            return default
        i = args.index(name); value = args[i + 1]; del args[i:i + 2]
        return value
    keys, scans = int(option("--keys", 1_000_000)), int(option("--scans", 3))
    batches, rounds, only = int(option("--batches", 100)), int(option("--rounds", 3)), option("--only", "")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {HOST}", flush=True)
    for backend in args:
        if only != "batches":
            scan(backend, keys, scans)
        for _ in range(rounds if only != "scan" else 0):
            alone, d1 = writers(backend, batches, 1)
            both, d2 = writers(backend, batches, 2)
            print(f"{backend} 1,000-key batches: one process alone {alone:,.0f} keys/s ({d1}); two at once {both:,.0f} keys/s aggregate ({d2}); ratio {both / alone:.2f}", flush=True)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)


if __name__ == "__main__":
    main()
