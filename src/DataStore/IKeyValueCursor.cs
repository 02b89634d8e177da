namespace DataStore;

/// <summary>A forward cursor over key-value pairs in ascending memcmp key order.</summary>
/// <remarks>
/// <see cref="Key"/> and <see cref="Value"/> are valid only until the next call to <see cref="MoveNext"/>
/// or <see cref="IDisposable.Dispose"/>; copy them to keep them. A cursor belongs to one thread at a time.
/// Dispose it promptly: an open cursor holds the store's snapshot (and, on SQLite, a connection).
/// </remarks>
public interface IKeyValueCursor : IDisposable
{
    /// <summary>Advances to the next pair; false when the scan is done.</summary>
    bool MoveNext();

    /// <summary>The current key.</summary>
    ReadOnlySpan<byte> Key { get; }

    /// <summary>The current value; empty for a keys-only scan.</summary>
    ReadOnlySpan<byte> Value { get; }
}
