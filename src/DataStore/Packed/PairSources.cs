using DataStore.Transfer;

namespace DataStore.Packed;

/// <summary>The <see cref="IPairSource"/> adapters a build reads from.</summary>
internal static class PairSources
{
    public static IPairSource Of(IEnumerator<KeyValuePair<byte[], byte[]>> pairs) => new EnumeratorSource(pairs);

    public static IPairSource Of(IKeyValueCursor cursor) => new CursorSource(cursor);

    public static IPairSource Of(DumpReader dump) => new DumpSource(dump);

    private sealed class EnumeratorSource(IEnumerator<KeyValuePair<byte[], byte[]>> pairs) : IPairSource
    {
        public bool TryRead(out ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value)
        {
            if (!pairs.MoveNext())
            {
                key = value = default;
                return false;
            }

            var pair = pairs.Current;
            ArgumentNullException.ThrowIfNull(pair.Key, "key");
            ArgumentNullException.ThrowIfNull(pair.Value, "value");
            key = pair.Key;
            value = pair.Value;
            return true;
        }
    }

    private sealed class CursorSource(IKeyValueCursor cursor) : IPairSource
    {
        public bool TryRead(out ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value)
        {
            if (!cursor.MoveNext())
            {
                key = value = default;
                return false;
            }

            key = cursor.Key;
            value = cursor.Value;
            return true;
        }
    }

    private sealed class DumpSource(DumpReader dump) : IPairSource
    {
        public bool TryRead(out ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value) => dump.TryRead(out key, out value);
    }
}
