using System.Buffers.Binary;

namespace DataStore.Packed;

/// <summary>The checks made when a packed file opens: header, footer, index CRC and every index entry's bounds.</summary>
internal static unsafe class PackedLayoutCheck
{
    /// <summary>Checks the mapped file and returns its footer.</summary>
    /// <exception cref="StoreFormatException">Something does not hold; the message says what.</exception>
    public static PackedFooter Run(byte* file, long length, string storePath, string filePath)
    {
        var header = new ReadOnlySpan<byte>(file, PackedFormat.HeaderLength);
        if (!header[..8].SequenceEqual(PackedFormat.Magic) || BinaryPrimitives.ReadUInt32LittleEndian(header[12..]) != PackedFormat.Crc(header[..12]))
        {
            throw PackedDamage.Error(storePath, filePath, "its header is not a packed-file header");
        }

        var version = BinaryPrimitives.ReadUInt32LittleEndian(header[8..]);
        if (version > PackedFormat.Version)
        {
            throw new StoreFormatException(StoreFailure.NewerFormat, storePath, StoreBackend.Packed,
                $"the packed file '{filePath}' has format version {version}, newer than version {PackedFormat.Version} that this DataStore reads. Update DataStore.");
        }

        var footer = PackedFooter.Read(new ReadOnlySpan<byte>(file + length - PackedFormat.FooterLength, PackedFormat.FooterLength))
            ?? throw PackedDamage.Error(storePath, filePath, "its footer fails its check (the file was truncated, appended to or damaged at the end)");
        var indexEnd = length - PackedFormat.FooterLength;
        if (footer.IndexOffset < PackedFormat.HeaderLength || footer.IndexLength < 0 || footer.IndexOffset + footer.IndexLength != indexEnd
            || footer.BlockCount < 0 || footer.BlockCount > int.MaxValue || footer.BlockCount * PackedFormat.IndexEntryLength > footer.IndexLength)
        {
            throw PackedDamage.Error(storePath, filePath, "its footer places the index outside the file");
        }

        if (Crc(file + footer.IndexOffset, footer.IndexLength) != footer.IndexCrc)
        {
            throw PackedDamage.Error(storePath, filePath, $"its index ({footer.IndexLength} bytes at offset {footer.IndexOffset}) fails its CRC-32C check");
        }

        CheckEntries(file, footer, storePath, filePath);
        return footer;
    }

    private static void CheckEntries(byte* file, PackedFooter footer, string storePath, string filePath)
    {
        long expected = PackedFormat.HeaderLength, pairs = 0;
        var keyArea = footer.IndexOffset + (footer.BlockCount * PackedFormat.IndexEntryLength);
        var indexEnd = footer.IndexOffset + footer.IndexLength;
        for (var i = 0L; i < footer.BlockCount; i++)
        {
            var entry = PackedBlockEntry.Read(new ReadOnlySpan<byte>(file + footer.IndexOffset + (i * PackedFormat.IndexEntryLength), PackedFormat.IndexEntryLength));
            if (entry.Offset != expected || entry.Length == 0 || entry.Length > int.MaxValue || entry.Pairs <= 0
                || entry.KeyOffset < keyArea || entry.KeyLength <= 0 || entry.KeyOffset + entry.KeyLength > indexEnd)
            {
                throw PackedDamage.Error(storePath, filePath, $"index entry {i} does not describe a block inside the file");
            }

            expected += entry.Length;
            pairs += entry.Pairs;
        }

        if (expected != footer.IndexOffset || pairs != footer.PairCount)
        {
            throw PackedDamage.Error(storePath, filePath, "its index does not account for every block and pair the footer counts");
        }
    }

    private static uint Crc(byte* start, long length)
    {
        var crc = Integrity.Crc32C.Seed;
        for (long done = 0; done < length;)
        {
            var piece = (int)Math.Min(length - done, 1 << 30);
            crc = Integrity.Crc32C.Append(crc, new ReadOnlySpan<byte>(start + done, piece));
            done += piece;
        }

        return Integrity.Crc32C.Finish(crc);
    }
}
