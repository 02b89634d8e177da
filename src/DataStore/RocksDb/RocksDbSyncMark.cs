using System.Buffers.Binary;
using DataStore.Integrity;
using DataStore.Platform;
using Microsoft.Extensions.Logging;
using Rocks = DataStore.RocksDb.Interop.RocksDbNative;

namespace DataStore.RocksDb;

/// <summary>
/// The store's own record of how far RocksDB's WAL is known to be on disk, which RocksDB does not keep for its live
/// WAL: the last sequence number a WAL sync covered, the boot it was written in, and whether the store was open
/// Durable (every acknowledged write synced). <see cref="RocksDbWalHole"/> reads it when recovery finds a hole.
/// </summary>
/// <remarks>
/// Written power-safe (<see cref="SyncedFile"/>) when the store opens and after every background WAL sync; 28 bytes:
/// "DSWS", a version byte, the Durable flag, two zero bytes, the sequence and the boot (little-endian), and a CRC-32C
/// of the 24 bytes before it. A missing or damaged record reads as none, which leaves recovery strict.
/// </remarks>
internal readonly record struct RocksDbSyncMark(ulong Sequence, ulong Boot, bool Durable)
{
    /// <summary>The record's file name in the store directory (not a name RocksDB owns or deletes).</summary>
    public const string FileName = "datastore-wal-synced";

    private const int Length = 28;
    private const byte Version = 1;

    private static ReadOnlySpan<byte> Magic => "DSWS"u8;

    /// <summary>
    /// Syncs the WAL of the store just opened and records it; a store opened Durable is recorded as such. Returns the
    /// sequence number recorded. Nothing is synced or written when the record already says exactly this (the store was
    /// closed cleanly in this boot, with the same durability): every write it covers reached the disk then.
    /// </summary>
    public static ulong RecordAtOpen(string directory, IntPtr db, bool durable, ILogger logger)
    {
        RemoveStagingLeftovers(directory);
        var sequence = Rocks.rocksdb_get_latest_sequence_number(db);
        if (Read(directory) is { } mark && mark.Sequence == sequence && mark.Durable == durable && mark.Boot == BootIdentity.Current)
        {
            return sequence;
        }

        var error = IntPtr.Zero;
        Rocks.rocksdb_flush_wal(db, 1, out error);
        if (error != IntPtr.Zero)
        {
            RocksDbLog.OpenWalSyncFailed(logger, directory, RocksDbErrors.TakeMessage(error));
            return sequence;
        }

        TryWrite(directory, sequence, durable, logger);
        return sequence;
    }

    /// <summary>Records that every write up to <paramref name="sequence"/> is synced; a failure is logged, and the older record stays.</summary>
    public static void TryWrite(string directory, ulong sequence, bool durable, ILogger logger)
    {
        try
        {
            Write(directory, sequence, durable);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            RocksDbLog.SyncMarkFailed(logger, e, directory);
        }
    }

    // A process killed while replacing the record leaves its staging file; only the store's one open instance writes the record.
    private static void RemoveStagingLeftovers(string directory)
    {
        try
        {
            foreach (var staging in Directory.EnumerateFiles(directory, FileName + ".*.tmp"))
            {
                File.Delete(staging);
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // Harmless litter; the next open tries again.
        }
    }

    private static void Write(string directory, ulong sequence, bool durable)
    {
        Span<byte> record = stackalloc byte[Length];
        record.Clear();
        Magic.CopyTo(record);
        record[4] = Version;
        record[5] = durable ? (byte)1 : (byte)0;
        BinaryPrimitives.WriteUInt64LittleEndian(record[8..], sequence);
        BinaryPrimitives.WriteUInt64LittleEndian(record[16..], BootIdentity.Current);
        BinaryPrimitives.WriteUInt32LittleEndian(record[24..], Checksum(record[..24]));
        SyncedFile.Replace(Path.Combine(directory, FileName), record);
    }

    /// <summary>The record in <paramref name="directory"/>, or null when it is missing, unreadable or damaged.</summary>
    public static RocksDbSyncMark? Read(string directory)
    {
        byte[] record;
        try
        {
            record = File.ReadAllBytes(Path.Combine(directory, FileName));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }

        if (record.Length != Length || !record.AsSpan(0, 4).SequenceEqual(Magic) || record[4] != Version ||
            BinaryPrimitives.ReadUInt32LittleEndian(record.AsSpan(24)) != Checksum(record.AsSpan(0, 24)))
        {
            return null;
        }

        return new RocksDbSyncMark(
            BinaryPrimitives.ReadUInt64LittleEndian(record.AsSpan(8)), BinaryPrimitives.ReadUInt64LittleEndian(record.AsSpan(16)), record[5] == 1);
    }

    private static uint Checksum(ReadOnlySpan<byte> bytes) => Crc32C.Finish(Crc32C.Append(Crc32C.Seed, bytes));
}
