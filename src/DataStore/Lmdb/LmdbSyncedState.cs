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

    // Both slots as read before a write, then the slot written (one write at a time).
    private readonly byte[] _slots = new byte[SlotStride + SlotLength];
    private readonly byte[] _pathZ = System.Text.Encoding.UTF8.GetBytes(path + "\0");

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
    /// <remarks>Reuses one buffer and allocates nothing (bare <c>open(2)</c> calls): a checkpoint writes one record, and writers checkpoint often.</remarks>
    public void Write(Record record)
    {
        lock (_slots)
        {
            var read = ReadSlots(out var existed);
            var (first, second) = (SlotTransaction(_slots.AsSpan(0, read), 0), SlotTransaction(_slots.AsSpan(0, read), 1));
            var target = first is null ? 0 : second is null ? 1 : first > second ? 1 : 0;
            var slot = _slots.AsSpan(0, SlotLength);
            BinaryPrimitives.WriteUInt64LittleEndian(slot, Magic);
            BinaryPrimitives.WriteUInt64LittleEndian(slot[8..], record.Transaction);
            BinaryPrimitives.WriteUInt64LittleEndian(slot[16..], record.Boot);
            BinaryPrimitives.WriteUInt32LittleEndian(slot[24..], record.PageSize);
            record.Metas.AsSpan(0, 2 * MetaBytes).CopyTo(slot[Header..]);
            BinaryPrimitives.WriteUInt32LittleEndian(slot[(SlotLength - 4)..], Checksum(slot[..(SlotLength - 4)]));
            var file = Platform.PosixWrites.OpenWriteAt(Platform.PosixWrites.CurrentDirectory, _pathZ);
            if (file < 0)
            {
                throw new DirectoryNotFoundException($"The store directory of '{path}' is gone.");
            }

            try
            {
                Platform.PosixWrites.WriteAt(file, slot, target * SlotStride);
                Platform.FileDataSync.Flush(file);
            }
            finally
            {
                Platform.PosixFile.CloseFile(file);
            }

            if (!existed)
            {
                Platform.DirectorySync.Sync(System.IO.Path.GetDirectoryName(path)!);
            }
        }
    }

    // Both slots into _slots; bare open(2) calls (the side file exists only on Linux): .NET's open runs fstat, and on a kernel
    // with fine-grained timestamps a file whose times were read gets new ones at its next write, so each record dirtied the
    // inode, whose block the data file's inode shares; O_NOATIME keeps the read from dirtying it too.
    private int ReadSlots(out bool existed)
    {
        var file = Platform.PosixFile.OpenRead(_pathZ);
        existed = file >= 0;
        if (!existed)
        {
            return 0;
        }

        try
        {
            return Platform.PosixFile.ReadAt(file, _slots, 0);
        }
        finally
        {
            Platform.PosixFile.CloseFile(file);
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
        if (!IsIntact(bytes, slot, out var span))
        {
            return null;
        }

        return new Record(
            BinaryPrimitives.ReadUInt64LittleEndian(span[8..]),
            BinaryPrimitives.ReadUInt64LittleEndian(span[16..]),
            BinaryPrimitives.ReadUInt32LittleEndian(span[24..]),
            span.Slice(Header, 2 * MetaBytes).ToArray());
    }

    // The transaction an intact slot records, or null.
    private static ulong? SlotTransaction(ReadOnlySpan<byte> bytes, int slot) =>
        IsIntact(bytes, slot, out var span) ? BinaryPrimitives.ReadUInt64LittleEndian(span[8..]) : null;

    private static bool IsIntact(ReadOnlySpan<byte> bytes, int slot, out ReadOnlySpan<byte> span)
    {
        var start = slot * SlotStride;
        span = bytes.Length < start + SlotLength ? default : bytes.Slice(start, SlotLength);
        return !span.IsEmpty && BinaryPrimitives.ReadUInt64LittleEndian(span) == Magic &&
            BinaryPrimitives.ReadUInt32LittleEndian(span[(SlotLength - 4)..]) == Checksum(span[..(SlotLength - 4)]);
    }

    private static uint Checksum(ReadOnlySpan<byte> data) => Crc32C.Finish(Crc32C.Append(Crc32C.Seed, data));

    /// <summary>One synced state: its transaction, the boot it was recorded in, the page size and both meta pages' first <see cref="MetaBytes"/> bytes.</summary>
    public sealed record Record(ulong Transaction, ulong Boot, uint PageSize, byte[] Metas);
}
