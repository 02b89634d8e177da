namespace DataStore.Packed;

/// <summary>Finds a key inside one block without rebuilding any key: it tracks how much of the key the pairs so far share.</summary>
internal static class PackedBlockSearch
{
    /// <summary>The entry holding <paramref name="key"/>, or false when the block does not hold it.</summary>
    public static bool Find(ReadOnlySpan<byte> block, ReadOnlySpan<byte> key, out PackedEntry found)
    {
        // matched: how many leading bytes the previous key shares with key; that key is below key.
        var matched = 0;
        for (var position = 0; position < block.Length;)
        {
            var entry = PackedEntry.Read(block, position);
            position = entry.End;
            if (entry.Shared > matched)
            {
                continue; // equal to the previous key past `matched`, so still below key
            }

            if (entry.Shared < matched)
            {
                break; // differs from the previous key where that key matched: above key
            }

            var rest = key[matched..];
            var suffix = block.Slice(entry.SuffixStart, entry.SuffixLength);
            var common = rest.CommonPrefixLength(suffix);
            if (common == rest.Length)
            {
                found = entry;
                return common == suffix.Length; // else key is a proper prefix of this key, which is above it
            }

            if (common < suffix.Length && suffix[common] > rest[common])
            {
                break;
            }

            matched += common;
        }

        found = default;
        return false;
    }
}
