using DataStore.Platform;
using Microsoft.Extensions.Logging;

namespace DataStore.Sharing;

/// <summary>
/// This process owns the store: it holds the owner lock (<c>broker.lock</c> in the store directory; <c>flock</c>, or
/// <c>LockFileEx</c> on Windows, which the OS drops when the process dies), the open engine, and the server.
/// </summary>
internal sealed class OwnerRole : IDisposable
{
    /// <summary>The owner lock's file name in the store directory.</summary>
    public const string LockFileName = "broker.lock";

    private readonly FileLock _lock;
    private readonly BrokerServer _server;

    private OwnerRole(FileLock ownerLock, IKeyValueStore engine, BrokerServer server)
    {
        _lock = ownerLock;
        Engine = engine;
        _server = server;
    }

    /// <summary>The engine's store, opened by the backend's factory.</summary>
    public IKeyValueStore Engine { get; }

    /// <summary>The server that serves the engine to clients.</summary>
    public BrokerServer Server => _server;

    /// <summary>Takes the owner lock without waiting, opens the engine and starts serving it; null when another process owns the store.</summary>
    public static OwnerRole? TryTake(string directory, string socketPath, Func<IKeyValueStore> openEngine, bool compactBlocksWriters, ILogger logger)
    {
        var ownerLock = FileLock.Open(System.IO.Path.Combine(directory, LockFileName));
        IKeyValueStore? engine = null;
        try
        {
            if (!ownerLock.TryEnter(exclusive: true))
            {
                ownerLock.Dispose();
                return null;
            }

            engine = openEngine();
            var server = BrokerServer.Start(socketPath, engine, compactBlocksWriters, logger);
            BrokerLog.Owning(logger, engine.Backend, engine.Path, socketPath);
            return new OwnerRole(ownerLock, engine, server);
        }
        catch
        {
            engine?.Dispose();
            ownerLock.Dispose();
            throw;
        }
    }

    /// <summary>Stops serving (clients are told, and hand the store over among themselves), closes the engine, then releases the lock.</summary>
    public void Dispose()
    {
        try
        {
            _server.Dispose();
            Engine.Dispose();
        }
        finally
        {
            _lock.Exit();
            _lock.Dispose();
        }
    }
}
