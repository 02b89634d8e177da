using System.Net.Sockets;
using Microsoft.Extensions.Logging;

namespace DataStore.Sharing;

/// <summary>
/// The owner's listener: accepts clients on the store's socket and runs a <see cref="BrokerSession"/> for each on a
/// session thread (<see cref="SessionThreads"/>), at most <see cref="MaxSessions"/> at once (so at most that many open
/// client scans pin engine snapshots, each with at most one chunk read ahead).
/// </summary>
/// <remarks>
/// <see cref="Dispose"/> stops accepting, lets each session finish the request it is running and tell its client the
/// owner is closing (a request not yet started is not applied, and the client sends it to the next owner), waits for
/// the sessions, and removes the socket file while this process still holds the owner lock.
/// </remarks>
internal sealed class BrokerServer : IDisposable
{
    public const int MaxSessions = 128;

    private readonly string _socketPath;
    private readonly IKeyValueStore _engine;
    private readonly ILogger _logger;
    private readonly Socket _listener;
    private readonly Thread _acceptor;
    private readonly SessionThreads _sessions;
    private volatile bool _closing;

    private BrokerServer(string socketPath, IKeyValueStore engine, bool compactBlocksWriters, ILogger logger)
    {
        Compaction = new CompactGate(compactBlocksWriters, Peers);
        _socketPath = socketPath;
        _engine = engine;
        _logger = logger;
        _listener = BrokerEndpoint.Listen(socketPath);
        _acceptor = new Thread(AcceptLoop) { IsBackground = true, Name = "DataStore broker" };
        _sessions = new SessionThreads(socket => new BrokerSession(socket, this, _engine, _logger).Run());
    }

    /// <summary>The processes connected as clients.</summary>
    public PeerProcesses Peers { get; } = new();

    /// <summary>Refuses a compaction that would hold other processes' writes for the whole rewrite.</summary>
    public CompactGate Compaction { get; }

    /// <summary>The client scans open in this owner.</summary>
    public ScanCount Scans { get; } = new();

    /// <summary>The clients connected now.</summary>
    public int Sessions => _sessions.Active;

    /// <summary>True once the owner has begun to close.</summary>
    public bool IsClosing => _closing;

    /// <summary>Listens on <paramref name="socketPath"/> (replacing a stale socket: the caller holds the owner lock) and serves <paramref name="engine"/>.</summary>
    public static BrokerServer Start(string socketPath, IKeyValueStore engine, bool compactBlocksWriters, ILogger logger)
    {
        var server = new BrokerServer(socketPath, engine, compactBlocksWriters, logger);
        try
        {
            Platform.LibraryThreads.Start(server._acceptor);
        }
        catch (IOException)
        {
            server._closing = true;
            server.StopListening();
            throw;
        }

        return server;
    }

    public void Dispose()
    {
        _closing = true;
        WakeAcceptor();
        _acceptor.Join();
        StopListening();
    }

    private void StopListening()
    {
        _listener.Dispose();
        _sessions.Close();

        try
        {
            File.Delete(_socketPath);
        }
        catch (IOException)
        {
            // The next owner replaces a stale socket file.
        }
    }

    // The acceptor polls in 50 ms steps; a connection of this process's own wakes it at once, so a close (every brokered
    // Dispose, and so every tool command on a RocksDb or LiteDb store) does not wait out the step.
    private void WakeAcceptor()
    {
        try
        {
            BrokerEndpoint.TryConnect(_socketPath)?.Dispose();
        }
        catch (SocketException)
        {
            // The poll's step ends the loop all the same.
        }
    }

    private void AcceptLoop()
    {
        while (!_closing)
        {
            try
            {
                if (!_listener.Poll(50_000, SelectMode.SelectRead))
                {
                    continue;
                }

                if (_closing)
                {
                    break; // woken by Dispose (or a client arriving as the owner closes: it goes to the next owner)
                }

                var socket = _listener.Accept();
                if (Serve(socket) is { } refusal)
                {
                    BrokerLog.PeerRefused(_logger, _engine.Path, refusal);
                    socket.Dispose();
                }
            }
            catch (Exception e) when (e is SocketException or ObjectDisposedException or OutOfMemoryException or ThreadStateException)
            {
                BrokerLog.PeerRefused(_logger, _engine.Path, $"accepting a client failed: {e.Message}");
            }
        }
    }

    // Null once a session thread serves the client; else why it is refused.
    private string? Serve(Socket socket)
    {
        try
        {
            return _sessions.TryServe(socket, MaxSessions) ? null : _closing ? "the owner is closing" : $"{MaxSessions} clients are connected already";
        }
        catch (IOException e)
        {
            return $"no session thread could start: {e.Message}";
        }
    }
}
