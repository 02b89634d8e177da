using System.Buffers.Binary;

namespace DataStore.Packed;

/// <summary>
/// The checks made when a packed file opens: header and version, footer, the regions the footer describes, and the
/// page table's CRC-32C. Nothing else is read: index pages and blocks are checked the first time they are read.
/// </summary>
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

        CheckVersion(BinaryPrimitives.ReadUInt32LittleEndian(header[8..]), storePath, filePath);
        var footer = PackedFooter.Read(new ReadOnlySpan<byte>(file + length - PackedFormat.FooterLength, PackedFormat.FooterLength))
            ?? throw PackedDamage.Error(storePath, filePath, "its footer fails its check (the file was truncated, appended to or damaged at the end)");
        if (!Fits(footer, length))
        {
            throw PackedDamage.Error(storePath, filePath, "its footer places the index, hash table or page table outside the file");
        }

        var table = new ReadOnlySpan<byte>(file + footer.PageTableOffset, checked((int)PageTableLength(footer)));
        if (PackedFormat.Crc(table) != footer.PageTableCrc)
        {
            throw PackedDamage.Error(storePath, filePath, $"its index page table ({table.Length} bytes at offset {footer.PageTableOffset}) fails its CRC-32C check");
        }

        return footer;
    }

    /// <summary>The page table's length: one CRC-32C per page of the index region.</summary>
    public static long PageTableLength(PackedFooter footer) =>
        (footer.PageTableOffset - footer.IndexOffset + footer.PageLength - 1) / footer.PageLength * sizeof(uint);

    private static void CheckVersion(uint version, string storePath, string filePath)
    {
        if (version > PackedFormat.Version)
        {
            throw new StoreFormatException(StoreFailure.NewerFormat, storePath, StoreBackend.Packed,
                $"the packed file '{filePath}' has format version {version}, newer than version {PackedFormat.Version} that this DataStore reads. Update DataStore.");
        }

        if (version < PackedFormat.Version)
        {
            throw new StoreFormatException(StoreFailure.Unavailable, storePath, StoreBackend.Packed,
                $"the packed file '{filePath}' has format version {version}, which this DataStore no longer reads (it reads version {PackedFormat.Version}: "
                + "a hash table for point lookups, blocks compressed against their first key). Nothing was changed; build the store again "
                + "(PackedStore.Build or datastore pack) from its source, or from a dump exported with the DataStore that wrote it.");
        }
    }

    private static bool Fits(PackedFooter footer, long length)
    {
        const long MaxPageLength = 1 << 20;
        if (footer.PageLength < 64 || footer.PageLength > MaxPageLength || (footer.PageLength & (footer.PageLength - 1)) != 0
            || footer.IndexOffset < PackedFormat.HeaderLength || footer.BlockCount < 0 || footer.BlockCount > int.MaxValue
            || footer.HashSlots < 0 || footer.HashSlots > uint.MaxValue || footer.PairCount < 0
            || footer.HashOffset < footer.IndexOffset + (footer.BlockCount * PackedFormat.IndexEntryLength)
            || footer.PageTableOffset != footer.HashOffset + (footer.HashSlots * sizeof(ulong))
            || footer.PageTableOffset > length)
        {
            return false;
        }

        // Every pair has a slot (a table is never full), and a file with pairs has blocks.
        var pairsFit = footer.PairCount == 0 ? footer.BlockCount == 0 : footer.BlockCount > 0 && footer.HashSlots > footer.PairCount;
        return pairsFit && footer.PageTableOffset + PageTableLength(footer) + PackedFormat.FooterLength == length;
    }
}
