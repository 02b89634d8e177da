#!/usr/bin/env python3
"""Hand-over time after kill -9 of a broker owner (issue 14, ADR 0015).

For each run: a fresh store of the backend, an owner process (`hold-open`), two client processes writing in a loop
(`write-through-handovers`, 1 ms apart); once both have 300 acknowledged writes the owner is killed with SIGKILL, and
the time from the kill to each client's first write acknowledged by the new owner is recorded.
Prints each run and the median per backend.

    dotnet build tests/DataStore.TestHost -c Release
    python3 scripts/measure-handover.py [--runs 7] [--strace] LiteDb RocksDb

--strace runs the clients under `strace -f -tt` (flock, open, connect, bind, fsync, rename) into
/tmp/handover-<backend>-<first|second>.strace, to see where the time goes (the run's time is then not representative).
"""
import os, signal, statistics, subprocess, sys, tempfile, threading, time

HOST = os.path.join(os.path.dirname(__file__), "..", "tests", "DataStore.TestHost", "bin", "Release", "net10.0", "DataStore.TestHost.dll")


class Child:
    def __init__(self, args, prefix=()):
        self.lines = []
        self.cond = threading.Condition()
        self.proc = subprocess.Popen([*prefix, "dotnet", HOST, *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            with self.cond:
                self.lines.append((time.monotonic(), line.rstrip("\n")))
                self.cond.notify_all()

    def wait_for(self, match, timeout=120):
        end = time.monotonic() + timeout
        with self.cond:
            while True:
                for stamp, line in self.lines:
                    if match(line):
                        return stamp, line
                left = end - time.monotonic()
                if left <= 0:
                    raise TimeoutError("\n".join(l for _, l in self.lines[-20:]))
                self.cond.wait(left)

    def acks(self):
        with self.cond:
            return [(s, int(l[4:])) for s, l in self.lines if l.startswith("ACK ")]


def resumed(child, killed):
    """The time from the kill to the client's first acknowledged write after the hand-over: lines still in the pipe at
    the kill arrive at the ~1 ms pace of the writes, then nothing comes until a new owner serves, so the first ACK after
    the first gap of over 50 ms that ends after the kill is the first write the new owner acknowledged."""
    with child.cond:
        lines = [(s, l) for s, l in child.lines if s >= killed - 1 and (l.startswith("ACK ") or l.startswith("UNKNOWN "))]
    gap = next(i for i in range(1, len(lines)) if lines[i][0] > killed and lines[i][0] - lines[i - 1][0] > 0.05)
    return next(s for s, l in lines[gap:] if l.startswith("ACK ")) - killed


def run(backend, use_strace):
    store = tempfile.mkdtemp(prefix="handover-")
    subprocess.run(["dotnet", HOST, "fill", store, backend, "-", "seed", "1000", "1"], check=True, stdout=subprocess.DEVNULL)
    owner = Child(["hold-open", store, backend, "-", "120000"])
    owner.wait_for(lambda l: l.startswith("HOLDING "))
    prefix = ("strace", "-f", "-tt", "-e", "trace=flock,openat,connect,bind,listen,fsync,fdatasync,rename,unlink,kill", "-o") if use_strace else ()
    clients = [Child(["write-through-handovers", store, backend, "-", tag, "100000", "1"], (*prefix, f"/tmp/handover-{backend}-{tag}.strace") if prefix else ()) for tag in ("first", "second")]
    for c in clients:
        c.wait_for(lambda l: l == "ACK 300")
    at_kill = [len(c.acks()) for c in clients]
    killed = time.monotonic()
    print(f"  kill -9 at {time.strftime('%H:%M:%S')}.{int(time.time() * 1000) % 1000:03d}", flush=True)
    os.kill(owner.proc.pid, signal.SIGKILL)
    firsts = []
    for c, n in zip(clients, at_kill):
        c.wait_for(lambda l: l.startswith("ACK ") and int(l[4:]) > n + 50)
        firsts.append(resumed(c, killed))
    for c in clients:
        c.proc.kill()
        c.proc.wait()
    owner.proc.wait()
    subprocess.run(["rm", "-rf", store])
    return min(firsts), max(firsts)


def main():
    args = sys.argv[1:]
    runs, use_strace = 7, False
    if "--runs" in args:
        i = args.index("--runs"); runs = int(args[i + 1]); del args[i:i + 2]
    if "--strace" in args:
        args.remove("--strace"); use_strace = True; runs = 1
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    for backend in args:
        results = [run(backend, use_strace) for _ in range(runs)]
        for first, last in results:
            print(f"{backend}: first client's write after the kill {first * 1000:.0f} ms, both clients {last * 1000:.0f} ms", flush=True)
        print(f"{backend}: median over {runs} runs: first client {statistics.median(r[0] for r in results) * 1000:.0f} ms, both {statistics.median(r[1] for r in results) * 1000:.0f} ms")
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")


if __name__ == "__main__":
    main()
