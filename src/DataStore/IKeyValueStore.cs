using System.Buffers;

namespace DataStore;

/// <summary>An embedded key-value store: byte-string keys and values, ordered by unsigned bytes (memcmp order).</summary>
/// <remarks>
/// One open store may be used from many threads at once without outside locking. Keys are 1 byte to
/// at least 1 MiB; values 0 bytes to at least 256 MiB. Every method of a disposed store throws
/// <see cref="ObjectDisposedException"/>. Engine failures surface as <see cref="DataStoreException"/>,
/// naming the store path, backend and cause. <see cref="IAsyncDisposable.DisposeAsync"/> closes the store as
/// <see cref="IDisposable.Dispose"/> does.
/// </remarks>
public interface IKeyValueStore : IDisposable, IAsyncDisposable
{
    /// <summary>The store's directory (empty for an in-memory store).</summary>
    string Path { get; }

    /// <summary>The engine behind this store.</summary>
    StoreBackend Backend { get; }

    /// <summary>What this backend supports.</summary>
    StoreCapabilities Capabilities { get; }

    /// <summary>The durability of writes made through this instance.</summary>
    Durability Durability { get; }

    /// <summary>Whether this process owns the engine or reaches it through another process (ADR 0015); for diagnostics.</summary>
    StoreSharing Sharing => StoreSharing.Direct;

    /// <summary>Inserts or overwrites <paramref name="key"/>.</summary>
    void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value);

    /// <summary>Writes the value of <paramref name="key"/> to <paramref name="destination"/>; false, writing nothing, when the key is absent.</summary>
    bool Get(ReadOnlySpan<byte> key, IBufferWriter<byte> destination);

    /// <summary>
    /// Copies the value of <paramref name="key"/> into <paramref name="destination"/> and returns its length,
    /// or returns -1 when the key is absent.
    /// </summary>
    /// <remarks>When the value is longer than <paramref name="destination"/>, nothing is copied and the
    /// returned length says how large a buffer to pass.</remarks>
    int Get(ReadOnlySpan<byte> key, Span<byte> destination);

    /// <summary>True when <paramref name="key"/> is present; reads no value.</summary>
    bool HaveKey(ReadOnlySpan<byte> key);

    /// <summary>Removes <paramref name="key"/>; no error when it is absent.</summary>
    void Delete(ReadOnlySpan<byte> key);

    /// <summary>Atomically removes every key that starts with <paramref name="prefix"/> (not empty) and returns how many were removed.</summary>
    long DeletePrefix(ReadOnlySpan<byte> prefix);

    /// <summary>Atomically removes every key in [<paramref name="start"/>, <paramref name="end"/>) and returns how many were removed.</summary>
    /// <remarks>An empty <paramref name="start"/> means from the first key; an empty <paramref name="end"/> means through the last key.</remarks>
    long DeleteRange(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end);

    /// <summary>Opens a cursor over every pair whose key starts with <paramref name="prefix"/>, ascending; the empty prefix scans everything.</summary>
    /// <param name="prefix">The key prefix; may be empty.</param>
    /// <param name="keysOnly">True to skip reading values.</param>
    /// <remarks>On backends with <see cref="StoreCapabilities.SnapshotScans"/> the scan sees the store as it was when this method returned.</remarks>
    IKeyValueCursor ScanPrefix(ReadOnlySpan<byte> prefix, bool keysOnly = false);

    /// <summary>Opens a cursor over every pair with a key in [<paramref name="start"/>, <paramref name="end"/>), ascending.</summary>
    /// <remarks>An empty <paramref name="start"/> means from the first key; an empty <paramref name="end"/> means through the last key.</remarks>
    IKeyValueCursor ScanRange(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end, bool keysOnly = false);

    /// <summary>Commits <paramref name="batch"/> atomically; throws <see cref="PreconditionFailedException"/>, writing nothing, when a precondition fails.</summary>
    void Write(WriteBatch batch);

    /// <summary>Commits <paramref name="batch"/> atomically when all its preconditions hold; otherwise writes nothing and returns false with the first failed precondition.</summary>
    bool TryWrite(WriteBatch batch, [System.Diagnostics.CodeAnalysis.NotNullWhen(false)] out PreconditionFailure? failure);

    /// <summary>Gives free space back to the file system (SQLite <c>VACUUM</c>).</summary>
    void Compact();
}
