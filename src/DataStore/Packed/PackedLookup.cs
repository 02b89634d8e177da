namespace DataStore.Packed;

/// <summary>
/// A point lookup in a packed file: one probe sequence in the hash table (a miss usually ends at the first empty
/// slot), then the pair the slot points at is compared with the key: its suffix, and its shared part with the
/// block's first key, which the block's first pair holds whole.
/// </summary>
internal static class PackedLookup
{
    /// <summary>The value of <paramref name="key"/>, a span of the mapping; false when the file does not hold the key.</summary>
    /// <exception cref="StoreFormatException">A page, block or slot the lookup reads is damaged.</exception>
    public static bool TryFind(PackedFile file, ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value)
    {
        var slots = file.Footer.HashSlots;
        if (slots > 0)
        {
            var hash = PackedHash.Of(key);
            var position = PackedHash.Home(hash, slots);
            for (var probes = 0L; probes < slots; probes++)
            {
                var slot = file.Slot(position);
                if (slot == 0)
                {
                    break;
                }

                if (PackedHash.SameTag(slot, hash) && Matches(file, position, slot, key, out value))
                {
                    return true;
                }

                position = position + 1 == slots ? 0 : position + 1;
            }
        }

        value = default;
        return false;
    }

    private static bool Matches(PackedFile file, long position, ulong slot, ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value)
    {
        value = default;
        var index = PackedHash.BlockOf(slot);
        var offset = PackedHash.OffsetOf(slot);
        var block = index < file.BlockCount ? file.Block((int)index) : default;
        if (offset >= block.Length)
        {
            throw PackedDamage.Error(file.StorePath, file.FilePath, $"hash slot {position} points at offset {offset} of block {index}, outside every block");
        }

        var entry = PackedEntry.Read(block, offset);
        if (entry.Shared + entry.SuffixLength != key.Length || !key[entry.Shared..].SequenceEqual(block.Slice(entry.SuffixStart, entry.SuffixLength)))
        {
            return false;
        }

        if (entry.Shared > 0)
        {
            var head = PackedEntry.Read(block, 0); // the block's first pair holds its first key whole, on the block's first line
            var first = block.Slice(head.SuffixStart, head.SuffixLength);
            if (entry.Shared > first.Length)
            {
                throw PackedDamage.Error(file.StorePath, file.FilePath, $"the pair at offset {offset} of block {index} shares more bytes than the block's first key has");
            }

            if (!key[..entry.Shared].SequenceEqual(first[..entry.Shared]))
            {
                return false;
            }
        }

        value = block.Slice(entry.ValueStart, entry.ValueLength);
        return true;
    }
}
