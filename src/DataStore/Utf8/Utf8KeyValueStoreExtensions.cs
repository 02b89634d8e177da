using System.Diagnostics.CodeAnalysis;
using System.Text;

namespace DataStore.Utf8;

/// <summary>
/// UTF-8 string conveniences over the byte API (<c>using DataStore.Utf8;</c>): a string key or value is stored as its
/// UTF-8 bytes, so stores written either way read the same. Each call encodes and allocates; the span API stays primary.
/// </summary>
public static class Utf8KeyValueStoreExtensions
{
    private static readonly UTF8Encoding Strict = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    /// <summary>Inserts or overwrites <paramref name="key"/> with <paramref name="value"/>, both as UTF-8.</summary>
    public static void Put(this IKeyValueStore store, string key, string value)
    {
        ArgumentNullException.ThrowIfNull(store);
        ArgumentNullException.ThrowIfNull(key);
        ArgumentNullException.ThrowIfNull(value);
        store.Put(Strict.GetBytes(key), Strict.GetBytes(value));
    }

    /// <summary>The value of <paramref name="key"/> decoded from UTF-8, or null when the key is absent.</summary>
    /// <exception cref="DecoderFallbackException">The stored value is not valid UTF-8.</exception>
    public static string? GetString(this IKeyValueStore store, string key) =>
        store.TryGetString(key, out var value) ? value : null;

    /// <summary>The value of <paramref name="key"/> decoded from UTF-8; false, with <paramref name="value"/> null, when the key is absent.</summary>
    /// <exception cref="DecoderFallbackException">The stored value is not valid UTF-8.</exception>
    public static bool TryGetString(this IKeyValueStore store, string key, [NotNullWhen(true)] out string? value)
    {
        ArgumentNullException.ThrowIfNull(store);
        ArgumentNullException.ThrowIfNull(key);
        value = store.TryGet(Strict.GetBytes(key), out var bytes) ? Strict.GetString(bytes) : null;
        return value is not null;
    }

    /// <summary>True when <paramref name="key"/> (as UTF-8) is present.</summary>
    public static bool HaveKey(this IKeyValueStore store, string key)
    {
        ArgumentNullException.ThrowIfNull(store);
        ArgumentNullException.ThrowIfNull(key);
        return store.HaveKey(Strict.GetBytes(key));
    }

    /// <summary>Removes <paramref name="key"/> (as UTF-8); no error when it is absent.</summary>
    public static void Delete(this IKeyValueStore store, string key)
    {
        ArgumentNullException.ThrowIfNull(store);
        ArgumentNullException.ThrowIfNull(key);
        store.Delete(Strict.GetBytes(key));
    }

    /// <summary>Every pair whose key starts with <paramref name="prefix"/> (as UTF-8), ascending, decoded from UTF-8.</summary>
    /// <exception cref="DecoderFallbackException">A key or value in the range is not valid UTF-8.</exception>
    public static IEnumerable<KeyValuePair<string, string>> EnumeratePrefix(this IKeyValueStore store, string prefix)
    {
        ArgumentNullException.ThrowIfNull(store);
        ArgumentNullException.ThrowIfNull(prefix);
        return store.EnumeratePrefix(Strict.GetBytes(prefix)).Select(pair => new KeyValuePair<string, string>(Strict.GetString(pair.Key), Strict.GetString(pair.Value)));
    }
}
