namespace DataStore.LiteDb;

/// <summary>
/// The threads LiteDb scans run on (<see cref="LiteDbScan"/>), kept between scans: starting a thread for each scan
/// cost more than a short scan's reading. A thread runs one scan at a time, from start to end, so LiteDB's
/// transaction stays bound to the one thread; an idle thread waits for the next scan and ends after
/// <see cref="IdleLifetime"/> without one.
/// </summary>
internal static class LiteDbScanThreads
{
    /// <summary>How long an idle scan thread waits for work before it ends.</summary>
    public static readonly TimeSpan IdleLifetime = TimeSpan.FromSeconds(20);

    private static readonly Lock Gate = new();
    private static readonly Stack<Worker> Idle = new();

    /// <summary>Runs <paramref name="scan"/> on an idle scan thread, or a new one; it must not throw.</summary>
    /// <exception cref="IOException">No thread could start for it (see <see cref="Platform.LibraryThreads"/>).</exception>
    public static void Start(Action scan)
    {
        lock (Gate)
        {
            while (Idle.TryPop(out var idle))
            {
                if (idle.TryGive(scan))
                {
                    return;
                }
            }
        }

        var worker = new Worker(scan);
        Platform.LibraryThreads.Start(new Thread(worker.Run) { IsBackground = true, Name = "DataStore LiteDb scan" });
    }

    private sealed class Worker(Action first)
    {
        private readonly object _signal = new();
        private Action? _next = first;
        private bool _ended;

        // Under Gate: hands a scan to this idle worker; false once it has ended for idleness.
        public bool TryGive(Action scan)
        {
            lock (_signal)
            {
                if (_ended)
                {
                    return false;
                }

                _next = scan;
                Monitor.Pulse(_signal);
                return true;
            }
        }

        public void Run()
        {
            while (Take() is { } scan)
            {
                try
                {
                    scan();
                }
                catch (Exception)
                {
                    // A scan hands its own failures to its cursor; nothing may escape a thread (it would end the process).
                }

                lock (Gate)
                {
                    Idle.Push(this);
                }
            }
        }

        private Action? Take()
        {
            lock (_signal)
            {
                while (_next is null)
                {
                    if (!Monitor.Wait(_signal, IdleLifetime) && _next is null)
                    {
                        _ended = true;
                        return null;
                    }
                }

                var scan = _next;
                _next = null;
                return scan;
            }
        }
    }
}
