using System.Net.Sockets;

namespace DataStore.Sharing;

/// <summary>
/// The owner's session threads: one per connected client, and a thread whose client left waits (up to
/// <see cref="MaxIdle"/> of them) for the next client instead of ending. The engine allocates from the thread that
/// calls it, and glibc gives each new thread a malloc arena of its own whose freed memory other arenas do not reuse: a
/// new thread per client let the owner's memory grow with each of the first clients (a block cache filled again in
/// another arena); kept threads keep their arenas.
/// </summary>
internal sealed class SessionThreads(Action<Socket> serve)
{
    /// <summary>Threads kept waiting for a client.</summary>
    public const int MaxIdle = 4;

    private readonly object _gate = new();
    private readonly Queue<Socket> _handed = new();
    private readonly HashSet<Thread> _threads = [];
    private int _active;
    private int _idle;
    private bool _closing;

    /// <summary>The clients being served now.</summary>
    public int Active
    {
        get
        {
            lock (_gate)
            {
                return _active;
            }
        }
    }

    /// <summary>Serves <paramref name="socket"/> on a waiting thread or a new one; false (the socket untouched) when <paramref name="maxActive"/> clients are served already or the owner is closing.</summary>
    /// <exception cref="IOException">No thread could start for it (see <see cref="Platform.LibraryThreads"/>).</exception>
    public bool TryServe(Socket socket, int maxActive)
    {
        lock (_gate)
        {
            if (_closing || _active >= maxActive)
            {
                return false;
            }

            if (_idle > _handed.Count)
            {
                _handed.Enqueue(socket);
                _active++;
                Monitor.Pulse(_gate);
                return true;
            }

            var thread = new Thread(() => Loop(socket)) { IsBackground = true, Name = "DataStore broker session" };
            Platform.LibraryThreads.Start(thread);
            _threads.Add(thread);
            _active++;
            return true;
        }
    }

    /// <summary>Lets every thread end once its client is served, and waits for them.</summary>
    public void Close()
    {
        Thread[] running;
        lock (_gate)
        {
            _closing = true;
            Monitor.PulseAll(_gate);
            running = [.. _threads];
        }

        foreach (var thread in running)
        {
            thread.Join();
        }
    }

    // serve never throws (a session catches everything), so nothing escapes the thread.
    private void Loop(Socket? socket)
    {
        while (socket is not null)
        {
            serve(socket);
            socket = Next();
        }
    }

    // The next client handed to this thread, or null when the thread ends (closing, or enough threads wait already).
    private Socket? Next()
    {
        lock (_gate)
        {
            _active--;
            if (!_closing && _idle < MaxIdle)
            {
                _idle++;
                while (_handed.Count == 0 && !_closing)
                {
                    Monitor.Wait(_gate);
                }

                _idle--;
                if (_handed.TryDequeue(out var socket))
                {
                    return socket;
                }
            }

            _threads.Remove(Thread.CurrentThread);
            return null;
        }
    }
}
