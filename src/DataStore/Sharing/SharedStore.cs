using Microsoft.Extensions.Logging;

namespace DataStore.Sharing;

/// <summary>
/// A store of a backend whose engine admits one process at a time (<see cref="IBackendSharing"/>), shared through an
/// owner process (ADR 0015). The first process to take the owner lock opens the engine and serves it on a local
/// socket; the others are its clients. When the owner goes away, gracefully or killed, a client takes the lock and
/// becomes the owner, and the others reconnect to it.
/// </summary>
/// <remarks>
/// A request that never reached the owner is sent again to the next owner; a read that reached it is read again; a
/// write that reached an owner which died before answering throws <see cref="OutcomeUnknownException"/> (applied at
/// most once: it is never sent twice). A scan open across a hand-over throws <see cref="StoreFailure.OwnerChanged"/>.
/// </remarks>
internal sealed partial class SharedStore : KeyValueStoreBase, IKeyValueStore
{
    // A dead owner is seen at once (the OS closes its socket), a stopped one after the store's timeout (AnswerWait); this
    // bounds only the wait for one that runs but does not answer.
    private static readonly TimeSpan HungOwner = TimeSpan.FromMinutes(10);
    private static readonly TimeSpan MinimumHelloWait = TimeSpan.FromMilliseconds(50);

    private readonly string _directory;
    private readonly StoreBackend _backend;
    private readonly TimeSpan _timeout;
    private readonly string _socketPath;
    private readonly Func<IKeyValueStore> _openEngine;
    private readonly bool _compactBlocksWriters;
    private readonly ILogger _logger;
    private readonly Lock _handOver = new();
    private readonly StoreCapabilities _capabilities;
    private readonly Durability _durability;
    private volatile object _role;

    private SharedStore(string directory, StoreBackend backend, DataStoreOptions options, ILogger logger, Func<IKeyValueStore> openEngine)
    {
        _directory = directory;
        _backend = backend;
        _timeout = options.Timeout;
        _socketPath = BrokerEndpoint.SocketPath(directory);
        _openEngine = openEngine;
        _compactBlocksWriters = Backends.BackendCatalog.Find(backend) is IBackendSharing { CompactBlocksWriters: true };
        _logger = logger;
        _role = Establish();
        (_capabilities, _durability) = _role is OwnerRole owner
            ? (owner.Engine.Capabilities | StoreCapabilities.SharedAcrossProcesses, owner.Engine.Durability)
            : (((BrokerClient)_role).Owner.Capabilities, ((BrokerClient)_role).Owner.Durability);
    }

    public override string Path => _directory;

    public override StoreBackend Backend => _backend;

    public override StoreCapabilities Capabilities => _capabilities;

    /// <summary>The owner's durability: writes from a client are made by the owner's engine.</summary>
    public override Durability Durability => _durability;

    public StoreSharing Sharing => _role switch
    {
        BrokerClient client => new StoreSharing(StoreRole.Client, client.Owner.ProcessId),
        _ => new StoreSharing(StoreRole.Owner, Environment.ProcessId),
    };

    /// <summary>The server, while this process owns the store (diagnostics and tests).</summary>
    internal BrokerServer? Server => (_role as OwnerRole)?.Server;

    /// <summary>Opens the store as its owner, or as a client of the process that owns it, waiting up to the timeout for an owner to answer.</summary>
    public static SharedStore Open(string directory, StoreBackend backend, DataStoreOptions options, ILogger logger, Func<IKeyValueStore> openEngine) =>
        new(directory, backend, options, logger, openEngine);

    /// <summary>Replaces the role <paramref name="failed"/> (an owner's client that lost its owner) unless another thread already did.</summary>
    internal void HandOver(object failed)
    {
        lock (_handOver)
        {
            if (!ReferenceEquals(_role, failed) || IsDisposed)
            {
                return;
            }

            var client = (BrokerClient)failed;
            BrokerLog.OwnerLost(_logger, client.Owner.ProcessId, _directory);
            client.Dispose();
            _role = Diagnostics.LongOperation.Run(Diagnostics.StoreOperation.HandOver, Telemetry, _backend, _directory, activity =>
            {
                activity?.SetTag("datastore.previous_owner.pid", client.Owner.ProcessId);
                var role = Establish();
                activity?.SetTag("datastore.role", role is OwnerRole ? "owner" : "client");
                return role;
            });
        }
    }

    /// <summary>The exception for a scan whose owner went away; the store has been handed over when it is thrown.</summary>
    internal DataStoreException ScanOwnerLost(BrokerClient client, Exception cause)
    {
        try
        {
            HandOver(client);
        }
        catch (DataStoreException)
        {
            // The next call reports why no owner answers.
        }

        return new DataStoreException(StoreFailure.OwnerChanged, _directory, _backend,
            $"the owner process {client.Owner.ProcessId} went away during this scan; open the scan again.", cause);
    }

    protected override void Dispose(bool disposing)
    {
        lock (_handOver)
        {
            (_role as IDisposable)?.Dispose();
        }

        WakeSubscribers();
    }

    // Owner if the lock is free, else a client of whoever holds it; retried until the timeout (an owner may be starting or closing).
    private object Establish()
    {
        var waited = System.Diagnostics.Stopwatch.StartNew();
        while (true)
        {
            if (StoreFiles.Guard(_directory, _backend, () => OwnerRole.TryTake(_directory, _socketPath, _openEngine, _compactBlocksWriters, _logger)) is { } owner)
            {
                return owner;
            }

            if (Connect(_timeout - waited.Elapsed) is { } client)
            {
                BrokerLog.Client(_logger, _backend, _directory, client.Owner.ProcessId);
                return client;
            }

            if (waited.Elapsed > _timeout)
            {
                throw new StoreTimeoutException(_directory, _backend, waited.Elapsed,
                    $"another process holds the store's owner lock ('{OwnerRole.LockFileName}'), but no owner answered at '{_socketPath}' " +
                    $"within {_timeout.TotalSeconds:0.###} s. An older DataStore version, which does not share this backend, may have it open: close it, or raise DataStoreOptions.Timeout.");
            }

            Thread.Sleep(10);
        }
    }

    // A stopped owner (SIGSTOP, a debugger) still accepts connections: its hello is waited for only until the open's timeout.
    private BrokerClient? Connect(TimeSpan left)
    {
        try
        {
            return BrokerClient.TryConnect(_socketPath, _timeout + HungOwner, _timeout, left > MinimumHelloWait ? left : MinimumHelloWait, Refused);
        }
        catch (System.Net.Sockets.SocketException e)
        {
            var failure = e.SocketErrorCode == System.Net.Sockets.SocketError.AccessDenied ? StoreFailure.AccessDenied : StoreFailure.Io;
            throw new DataStoreException(failure, _directory, _backend, $"connecting to the owner process at '{_socketPath}' failed: {e.Message}", e);
        }
    }

    private Exception Refused(Exception cause) => cause switch
    {
        UnauthorizedAccessException => new DataStoreException(StoreFailure.AccessDenied, _directory, _backend, $"this process refused the owner process: {cause.Message}", cause),
        DataStoreException { Cause: StoreFailure.AccessDenied } e => new DataStoreException(StoreFailure.AccessDenied, _directory, _backend, $"the process that owns the store refused this one: {BrokerErrors.Detail(e)}", cause),
        _ => new DataStoreException(StoreFailure.Unavailable, _directory, _backend,
            $"the process that owns the store refused this one: {(cause is DataStoreException e ? BrokerErrors.Detail(e) : cause.Message)}", cause),
    };
}
