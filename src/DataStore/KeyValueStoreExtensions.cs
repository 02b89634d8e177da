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
    /// <remarks>The scan opens (and takes its snapshot) when this method is called, not when enumeration starts.</remarks>
    public static IEnumerable<KeyValuePair<byte[], byte[]>> EnumeratePrefix(this IKeyValueStore store, ReadOnlySpan<byte> prefix)
    {
        ArgumentNullException.ThrowIfNull(store);
        return Enumerate(store.ScanPrefix(prefix));
    }

    /// <summary>Every pair with a key in [<paramref name="start"/>, <paramref name="end"/>), ascending, each copied into new arrays.</summary>
    public static IEnumerable<KeyValuePair<byte[], byte[]>> EnumerateRange(this IKeyValueStore store, ReadOnlySpan<byte> start, ReadOnlySpan<byte> end)
    {
        ArgumentNullException.ThrowIfNull(store);
        return Enumerate(store.ScanRange(start, end));
    }

    /// <summary>Every key that starts with <paramref name="prefix"/>, ascending, each copied into a new array; values are not read.</summary>
    public static IEnumerable<byte[]> EnumerateKeys(this IKeyValueStore store, ReadOnlySpan<byte> prefix)
    {
        ArgumentNullException.ThrowIfNull(store);
        return EnumerateKeys(store.ScanPrefix(prefix, keysOnly: true));
    }

    private static IEnumerable<KeyValuePair<byte[], byte[]>> Enumerate(IKeyValueCursor cursor)
    {
        using (cursor)
        {
            while (cursor.MoveNext())
            {
                yield return new(cursor.Key.ToArray(), cursor.Value.ToArray());
            }
        }
    }

    private static IEnumerable<byte[]> EnumerateKeys(IKeyValueCursor cursor)
    {
        using (cursor)
        {
            while (cursor.MoveNext())
            {
                yield return cursor.Key.ToArray();
            }
        }
    }
}
