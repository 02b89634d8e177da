using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using DataStore.Diagnostics;
using DataStore.Sync;

namespace DataStore;

/// <summary>
/// What every backend shares: argument checks, the disposed check and the batch-failure exception, so each
/// backend implements only the <c>*Core</c> operations and receives valid arguments.
/// </summary>
/// <remarks>
/// Every call runs inside a <see cref="StoreCallGate"/>: <see cref="Dispose()"/> closes it (once, atomically), waits
/// for the calls in flight and only then lets the backend release its resources, so a call racing <c>Dispose</c>
/// either completes or throws <see cref="ObjectDisposedException"/>.
/// </remarks>
internal abstract partial class KeyValueStoreBase : IKeyValueStore
{
    private readonly StoreCallGate _calls = new();

    /// <inheritdoc />
    public abstract string Path { get; }

    /// <inheritdoc />
    public abstract StoreBackend Backend { get; }

    /// <inheritdoc />
    public abstract StoreCapabilities Capabilities { get; }

    /// <inheritdoc />
    public abstract Durability Durability { get; }

    /// <summary>Where this store's operations are counted and timed; <see cref="KeyValueStore"/> sets it when it opens the store.</summary>
    internal StoreTelemetry Telemetry { get; set; } = StoreTelemetry.Shared;

    /// <summary>Disposes the store (the engines close synchronously); for hosts that dispose services asynchronously.</summary>
    public ValueTask DisposeAsync()
    {
        Dispose();
        return ValueTask.CompletedTask;
    }

    /// <summary>True once <see cref="Dispose()"/> has begun.</summary>
    protected bool IsDisposed => _calls.IsClosed;

    /// <inheritdoc />
    public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        var started = Telemetry.Start();
        KeyGuard.ThrowIfInvalidKey(key);
        using (Enter())
        {
            PutCore(key, value);
        }

        Telemetry.Record(StoreOperation.Put, Backend, started);
    }

    /// <inheritdoc />
    public bool Get(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        KeyGuard.ThrowIfInvalidKey(key);
        var started = Telemetry.Start();
        KeyGuard.ThrowIfNull(destination);
        using var call = Enter();
        var found = GetCore(key, destination);
        Telemetry.Record(StoreOperation.Get, Backend, started);
        return found;
    }

    /// <inheritdoc />
    public int Get(ReadOnlySpan<byte> key, Span<byte> destination)
    {
        KeyGuard.ThrowIfInvalidKey(key);
        using var call = Enter();
        var started = Telemetry.Start();
        var length = GetCore(key, destination);
        Telemetry.Record(StoreOperation.Get, Backend, started);
        return length;
    }

    /// <inheritdoc />
    public bool HaveKey(ReadOnlySpan<byte> key)
    {
        KeyGuard.ThrowIfInvalidKey(key);
        using var call = Enter();
        var started = Telemetry.Start();
        var present = HaveKeyCore(key);
        Telemetry.Record(StoreOperation.HaveKey, Backend, started);
        return present;
    }

    /// <inheritdoc />
    public void Delete(ReadOnlySpan<byte> key)
    {
        var started = Telemetry.Start();
        KeyGuard.ThrowIfInvalidKey(key);
        using (Enter())
        {
            DeleteCore(key);
        }

        Telemetry.Record(StoreOperation.Delete, Backend, started);
    }

    /// <inheritdoc />
    public long DeletePrefix(ReadOnlySpan<byte> prefix)
    {
        var started = Telemetry.Start();
        KeyGuard.ThrowIfInvalidPrefix(prefix);
        using var call = Enter();
        var removed = KeyOrder.TryGetPrefixEnd(prefix, out var end) ? DeleteRangeCore(prefix, end) : DeleteRangeCore(prefix, default);
        Telemetry.Record(StoreOperation.DeletePrefix, Backend, started);
        return removed;
    }

    /// <inheritdoc />
    public long DeleteRange(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end)
    {
        var started = Telemetry.Start();
        KeyGuard.ThrowIfInvalidRange(start, end);
        using var call = Enter();
        var removed = DeleteRangeCore(start, end);
        Telemetry.Record(StoreOperation.DeleteRange, Backend, started);
        return removed;
    }

    /// <inheritdoc />
    public IKeyValueCursor ScanPrefix(ReadOnlySpan<byte> prefix, bool keysOnly = false)
    {
        var started = Telemetry.Start();
        using var call = Enter();
        var cursor = KeyOrder.TryGetPrefixEnd(prefix, out var end) ? ScanCore(prefix, end, keysOnly) : ScanCore(prefix, default, keysOnly);
        Telemetry.Record(StoreOperation.Scan, Backend, started);
        return cursor;
    }

    /// <inheritdoc />
    public IKeyValueCursor ScanRange(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end, bool keysOnly = false)
    {
        var started = Telemetry.Start();
        KeyGuard.ThrowIfInvalidRange(start, end);
        using var call = Enter();
        var cursor = ScanCore(start, end, keysOnly);
        Telemetry.Record(StoreOperation.Scan, Backend, started);
        return cursor;
    }

    /// <inheritdoc />
    public void Write(WriteBatch batch)
    {
        if (!TryWrite(batch, out var failure))
        {
            throw new PreconditionFailedException(Path, Backend, failure);
        }
    }

    /// <inheritdoc />
    public bool TryWrite(WriteBatch batch, [NotNullWhen(false)] out PreconditionFailure? failure)
    {
        KeyGuard.ThrowIfNull(batch);
        using var call = Enter();
        failure = null;
        if (batch.OperationCount == 0 && batch.PreconditionCount == 0)
        {
            return true;
        }

        var started = Telemetry.Start();
        using var activity = Telemetry.StartActivity("write", Backend, Path);
        var failed = WriteCore(batch);
        Telemetry.Record(StoreOperation.Write, Backend, started, succeeded: failed < 0);
        if (failed < 0)
        {
            return true;
        }

        failure = batch.FailureAt(failed);
        activity?.SetTag("datastore.precondition_failed", failed);
        return false;
    }

    /// <inheritdoc />
    public void Compact()
    {
        using var call = Enter();
        LongOperation.Run(StoreOperation.Compact, Telemetry, Backend, Path, CompactTraced);
    }

    // With a listener, the span also carries the store's size before and after (a walk of its files each time).
    private bool CompactTraced(System.Diagnostics.Activity? activity)
    {
        var measure = activity is not null && Backend != StoreBackend.InMemory;
        activity?.SetTag("datastore.bytes_before", measure ? Backup.DirectorySize.Of(Path) : null);
        CompactCore();
        activity?.SetTag("datastore.bytes_after", measure ? Backup.DirectorySize.Of(Path) : null);
        return true;
    }

    /// <summary>Releases every file, lock and native handle of the store.</summary>
    /// <remarks>Safe from several threads at once: the first call waits for the calls in flight and releases; the others return.</remarks>
    public void Dispose()
    {
        if (!_calls.Close())
        {
            return;
        }

        Dispose(true);
        OpenLock?.Release(ChangeFeed.ChangeLogMarkTakeBack.After(this) ? ChangeFeed.ChangeLogMarkTakeBack.Run : null);
        GC.SuppressFinalize(this);
    }

    /// <summary>
    /// The store's open lock (ADR 0020), held from before the manifest was read until the backend is released: the open path
    /// sets it on the store every backend factory returns (<see cref="Backends.IBackendFactory.Open"/>), and <see cref="Dispose()"/> releases it,
    /// taking the change log's restart mark back first when this was the last process to have the store open and the backend
    /// says its close was clean (<see cref="ChangeFeed.IRestartMarkedStore"/>).
    /// </summary>
    internal Manifest.StoreOpenLock? OpenLock { get; set; }

    /// <summary>Releases the backend's resources; called once, after every call in flight has returned.</summary>
    protected abstract void Dispose(bool disposing);

    /// <summary>Throws <see cref="ObjectDisposedException"/> once the store is disposed.</summary>
    protected internal void ThrowIfDisposed()
    {
        if (_calls.IsClosed)
        {
            ThrowDisposed();
        }
    }

    /// <summary>Counts a call that runs outside the store's methods (a cursor step, maintenance) as in flight, so Dispose waits for it; false once disposed.</summary>
    /// <remarks>Pair each true with <see cref="ExitCall"/>.</remarks>
    protected internal bool TryEnterCall() => _calls.TryEnter();

    /// <summary>Ends a call counted by <see cref="TryEnterCall"/>.</summary>
    protected internal void ExitCall() => _calls.Exit();

    /// <summary>Inserts or overwrites a valid key.</summary>
    protected abstract void PutCore(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value);

    /// <summary>Writes the value to <paramref name="destination"/>; false when absent.</summary>
    protected abstract bool GetCore(ReadOnlySpan<byte> key, IBufferWriter<byte> destination);

    /// <summary>Copies the value when it fits and returns its length; -1 when absent.</summary>
    protected abstract int GetCore(ReadOnlySpan<byte> key, Span<byte> destination);

    /// <summary>True when the key is present.</summary>
    protected abstract bool HaveKeyCore(ReadOnlySpan<byte> key);

    /// <summary>Removes the key if present.</summary>
    protected abstract void DeleteCore(ReadOnlySpan<byte> key);

    /// <summary>Removes [start, end) atomically; empty bounds are open. Returns the count removed.</summary>
    protected abstract long DeleteRangeCore(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end);

    /// <summary>Opens a cursor over [start, end); empty bounds are open.</summary>
    protected abstract IKeyValueCursor ScanCore(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end, bool keysOnly);

    /// <summary>Checks the batch's preconditions and applies it atomically; returns -1, or the index of the first failed precondition (nothing written).</summary>
    protected abstract int WriteCore(WriteBatch batch);

    /// <summary>Gives free space back to the file system.</summary>
    protected abstract void CompactCore();

    // One interlocked increment per call; the throw stays out of line.
    private StoreCallGate.Call Enter()
    {
        if (!_calls.TryEnter())
        {
            ThrowDisposed();
        }

        return new StoreCallGate.Call(_calls);
    }

    [DoesNotReturn]
    private void ThrowDisposed() =>
        throw new ObjectDisposedException(GetType().Name, $"The {Backend} store at '{Path}' has been disposed.");
}
