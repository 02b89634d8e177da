using System.Buffers.Binary;
using DataStore.Integrity;

namespace DataStore.Lmdb;

/// <summary>
/// The side file <c>lmdb-synced.state</c>: the last synced state of the data file (both meta pages as they were on disk
/// right after an <c>mdb_env_sync</c>, the transaction they name and the boot of the machine), so that an open after a
/// power loss or an OS crash can put the data file back to that state (ADR 0006, Relaxed commits without a sync).
/// </summary>
/// <remarks>
/// Two checksummed slots written in place, each followed by <c>fdatasync</c>; a write goes to the slot that does not
/// hold the newest record, so a power loss during it leaves the newest record intact. Callers write it holding the
/// record lock (<c>lmdb-synced.lock</c>, one writer across processes); records may come out of transaction order, and
/// the newest is the one with the highest transaction.
/// </remarks>
internal sealed class LmdbSyncedState(string path)
{
    /// <summary>The side file's name in the store directory.</summary>
    public const string FileName = "lmdb-synced.state";

    /// <summary>How many bytes of each meta page are recorded (LMDB's meta is under 160 bytes; the rest of the page is unused).</summary>
    public const int MetaBytes = 512;

    private const int SlotStride = 4096;
    private const int Header = 32;
    private const int SlotLength = Header + (2 * MetaBytes) + 4;
    private const ulong Magic = 0x314E5953_4D4C5344; // "DSLMSYN1"

    public string Path => path;

    /// <summary>The newest intact record, or null when there is no side file or no slot checks out.</summary>
    public Record? Read()
    {
        byte[] bytes;
        try
        {
            bytes = File.ReadAllBytes(path);
        }
        catch (FileNotFoundException)
        {
            return null;
        }

        Record? newest = null;
        for (var slot = 0; slot < 2; slot++)
        {
            if (Parse(bytes, slot) is { } record && (newest is null || record.Transaction >= newest.Transaction))
            {
                newest = record;
            }
        }

        return newest;
    }

    /// <summary>Writes <paramref name="record"/> into the slot that does not hold the newest record, and syncs it.</summary>
    public void Write(Record record)
    {
        var existed = File.Exists(path);
        var target = 0;
        if (existed)
        {
            var bytes = File.ReadAllBytes(path);
            var (first, second) = (Parse(bytes, 0), Parse(bytes, 1));
            target = first is null ? 0 : second is null ? 1 : first.Transaction > second.Transaction ? 1 : 0;
        }

        var slot = new byte[SlotLength];
        BinaryPrimitives.WriteUInt64LittleEndian(slot, Magic);
        BinaryPrimitives.WriteUInt64LittleEndian(slot.AsSpan(8), record.Transaction);
        BinaryPrimitives.WriteUInt64LittleEndian(slot.AsSpan(16), record.Boot);
        BinaryPrimitives.WriteUInt32LittleEndian(slot.AsSpan(24), record.PageSize);
        record.Metas.CopyTo(slot.AsSpan(Header));
        BinaryPrimitives.WriteUInt32LittleEndian(slot.AsSpan(SlotLength - 4), Checksum(slot.AsSpan(0, SlotLength - 4)));
        using (var file = new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.ReadWrite))
        {
            RandomAccess.Write(file.SafeFileHandle, slot, target * SlotStride);
            file.Flush(flushToDisk: true);
        }

        if (!existed)
        {
            Platform.DirectorySync.Sync(System.IO.Path.GetDirectoryName(path)!);
        }
    }

    /// <summary>Deletes the side file and syncs the directory (before the data file is replaced).</summary>
    public void Delete()
    {
        if (File.Exists(path))
        {
            File.Delete(path);
            Platform.DirectorySync.Sync(System.IO.Path.GetDirectoryName(path)!);
        }
    }

    private static Record? Parse(byte[] bytes, int slot)
    {
        var start = slot * SlotStride;
        if (bytes.Length < start + SlotLength)
        {
            return null;
        }

        var span = bytes.AsSpan(start, SlotLength);
        if (BinaryPrimitives.ReadUInt64LittleEndian(span) != Magic ||
            BinaryPrimitives.ReadUInt32LittleEndian(span[(SlotLength - 4)..]) != Checksum(span[..(SlotLength - 4)]))
        {
            return null;
        }

        return new Record(
            BinaryPrimitives.ReadUInt64LittleEndian(span[8..]),
            BinaryPrimitives.ReadUInt64LittleEndian(span[16..]),
            BinaryPrimitives.ReadUInt32LittleEndian(span[24..]),
            span.Slice(Header, 2 * MetaBytes).ToArray());
    }

    private static uint Checksum(ReadOnlySpan<byte> data) => Crc32C.Finish(Crc32C.Append(Crc32C.Seed, data));

    /// <summary>One synced state: its transaction, the boot it was recorded in, the page size and both meta pages' first <see cref="MetaBytes"/> bytes.</summary>
    public sealed record Record(ulong Transaction, ulong Boot, uint PageSize, byte[] Metas);
}
