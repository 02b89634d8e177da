namespace DataStore;

/// <summary>The one key order of every backend: unsigned bytes, lexicographic, a proper prefix first (memcmp order).</summary>
public sealed class KeyOrder : IComparer<byte[]>
{
    /// <summary>The shared comparer.</summary>
    public static KeyOrder Instance { get; } = new();

    private KeyOrder()
    {
    }

    /// <summary>Compares two keys in memcmp order.</summary>
    public int Compare(byte[]? x, byte[]? y) => x.AsSpan().SequenceCompareTo(y);

    /// <summary>
    /// The smallest key greater than every key that starts with <paramref name="prefix"/>: the prefix with
    /// trailing 0xFF bytes dropped and its last byte incremented. False when there is none (the prefix is empty
    /// or all 0xFF), meaning the scan runs to the end of the store.
    /// </summary>
    public static bool TryGetPrefixEnd(ReadOnlySpan<byte> prefix, out byte[] end)
    {
        var last = prefix.Length - 1;
        while (last >= 0 && prefix[last] == 0xFF)
        {
            last--;
        }

        if (last < 0)
        {
            end = [];
            return false;
        }

        end = prefix[..(last + 1)].ToArray();
        end[last]++;
        return true;
    }
}
