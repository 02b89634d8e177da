using System.Buffers;
using System.Diagnostics.CodeAnalysis;

namespace DataStore;

/// <summary><c>byte[]</c> and enumerable conveniences over the span-first <see cref="IKeyValueStore"/> API; each copies.</summary>
public static class KeyValueStoreExtensions
{
    /// <summary>The value of <paramref name="key"/> as a new array, or null when the key is absent.</summary>
    public static byte[]? Get(this IKeyValueStore store, ReadOnlySpan<byte> key)
    {
        ArgumentNullException.ThrowIfNull(store);
        var buffer = new ArrayBufferWriter<byte>();
        return store.Get(key, buffer) ? buffer.WrittenSpan.ToArray() : null;
    }

    /// <summary>The value of <paramref name="key"/> as a new array; false, with <paramref name="value"/> null, when the key is absent.</summary>
    public static bool TryGet(this IKeyValueStore store, ReadOnlySpan<byte> key, [NotNullWhen(true)] out byte[]? value)
    {
        value = store.Get(key);
        return value is not null;
    }

    /// <summary>Every pair whose key starts with <paramref name="prefix"/>, ascending, each copied into new arrays.</summary>
    /// <remarks>
    /// Each enumeration opens its own scan (taking its snapshot) when it starts and closes it when it ends or is
    /// disposed, so an enumerable that is never enumerated holds nothing open, and one enumerated twice reads the store twice.
    /// </remarks>
    public static IEnumerable<KeyValuePair<byte[], byte[]>> EnumeratePrefix(this IKeyValueStore store, ReadOnlySpan<byte> prefix)
    {
        ArgumentNullException.ThrowIfNull(store);
        var start = prefix.ToArray();
        return Enumerate(() => store.ScanPrefix(start));
    }

    /// <summary>Every pair with a key in [<paramref name="start"/>, <paramref name="end"/>), ascending, each copied into new arrays.</summary>
    /// <remarks>A reversed range is refused here; the scan opens when enumeration starts, as for <see cref="EnumeratePrefix"/>.</remarks>
    public static IEnumerable<KeyValuePair<byte[], byte[]>> EnumerateRange(this IKeyValueStore store, ReadOnlySpan<byte> start, ReadOnlySpan<byte> end)
    {
        ArgumentNullException.ThrowIfNull(store);
        KeyGuard.ThrowIfInvalidRange(start, end);
        var (from, to) = (start.ToArray(), end.ToArray());
        return Enumerate(() => store.ScanRange(from, to));
    }

    /// <summary>Every key that starts with <paramref name="prefix"/>, ascending, each copied into a new array; values are not read.</summary>
    /// <remarks>The scan opens when enumeration starts, as for <see cref="EnumeratePrefix"/>.</remarks>
    public static IEnumerable<byte[]> EnumerateKeys(this IKeyValueStore store, ReadOnlySpan<byte> prefix)
    {
        ArgumentNullException.ThrowIfNull(store);
        var start = prefix.ToArray();
        return EnumerateKeys(() => store.ScanPrefix(start, keysOnly: true));
    }

    /// <summary>How many keys start with <paramref name="prefix"/> (the empty prefix: every key), counted by one keys-only scan.</summary>
    /// <remarks>
    /// The count is of one state of the store where the backend declares <see cref="StoreCapabilities.SnapshotScans"/> (every
    /// backend DataStore ships), and writers of every thread and process go on while it counts: on FileSystem each waits at
    /// most one chunk of the scan (ADR 0022). It costs what the scan costs: a long count on LiteDb holds the pages it read in
    /// LiteDB's cache until it ends (ADR 0024).
    /// </remarks>
    public static long CountKeys(this IKeyValueStore store, ReadOnlySpan<byte> prefix)
    {
        ArgumentNullException.ThrowIfNull(store);
        using var cursor = store.ScanPrefix(prefix, keysOnly: true);
        long count = 0;
        while (cursor.MoveNext())
        {
            count++;
        }

        return count;
    }

    private static IEnumerable<KeyValuePair<byte[], byte[]>> Enumerate(Func<IKeyValueCursor> open)
    {
        using var cursor = open();
        while (cursor.MoveNext())
        {
            yield return new(cursor.Key.ToArray(), cursor.Value.ToArray());
        }
    }

    private static IEnumerable<byte[]> EnumerateKeys(Func<IKeyValueCursor> open)
    {
        using var cursor = open();
        while (cursor.MoveNext())
        {
            yield return cursor.Key.ToArray();
        }
    }
}
