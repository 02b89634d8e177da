using System.Buffers.Binary;
using DataStore.Integrity;
using DataStore.Platform;

namespace DataStore.Sqlite.Files;

/// <summary>
/// The store's record of the write-ahead log's current generation: the header SQLite wrote when it began the log (its
/// salts and checksum seed) and the boot of the machine it was written in. <see cref="SqliteWalCheck"/> checks the log
/// only while both still hold: the log is the one the record names and the machine has not restarted since, so no power
/// loss can have dropped or reordered its unsynced writes and the file reads exactly as SQLite wrote it.
/// </summary>
/// <remarks>
/// Written in place, not synced, by the page-checksum VFS each time SQLite writes a log header (a new log, or one that
/// starts over after a checkpoint), in whichever process does it. Neither its loss nor its survival without the log's
/// header can make a log look damaged: a record of another log or another boot is not used. 52 bytes: "DSWB", a
/// version byte, three zero bytes, the boot (little-endian), the 32-byte log header, and a CRC-32C of the 48 bytes
/// before it. A missing or damaged record reads as none, which leaves the log to SQLite's own recovery.
/// </remarks>
internal readonly record struct SqliteWalBegun(ulong Boot, byte[] Header)
{
    /// <summary>The record's file name in the store directory (not a name SQLite owns or deletes).</summary>
    public const string FileName = "datastore-wal-begun";

    private const int Length = 52;
    private const byte Version = 1;

    private static ReadOnlySpan<byte> Magic => "DSWB"u8;

    /// <summary>
    /// Records that the log beside <paramref name="walFile"/> began with <paramref name="header"/> in this boot. Only a
    /// header SQLite would accept is recorded; nothing is recorded when the boot cannot be known. When
    /// <paramref name="previous"/> (the header the file held before) has the same salts, the log did not begin anew: SQLite
    /// kept the generation of a log whose frames its recovery did not take (after a power loss, its unsynced frames may be
    /// there in any order), so it is recorded with no boot, which the check never takes for this one.
    /// </summary>
    /// <exception cref="IOException">The record could not be written.</exception>
    public static void Write(string walFile, ReadOnlySpan<byte> header, byte[]? previous)
    {
        if (BootIdentity.Current == 0 || !SqliteWalFormat.IsHeader(header))
        {
            return;
        }

        var sameGeneration = previous is not null && SqliteWalFormat.IsHeader(previous)
            && SqliteWalFormat.Salts(previous, frame: false) == SqliteWalFormat.Salts(header, frame: false);

        Span<byte> record = stackalloc byte[Length];
        record.Clear();
        Magic.CopyTo(record);
        record[4] = Version;
        BinaryPrimitives.WriteUInt64LittleEndian(record[8..], sameGeneration ? 0 : BootIdentity.Current);
        header[..SqliteWalFormat.HeaderSize].CopyTo(record[16..]);
        BinaryPrimitives.WriteUInt32LittleEndian(record[48..], Checksum(record[..48]));
        using var handle = File.OpenHandle(PathBeside(walFile), FileMode.OpenOrCreate, FileAccess.Write, FileShare.ReadWrite | FileShare.Delete);
        RandomAccess.Write(handle, record, 0);
    }

    /// <summary>The record beside <paramref name="walFile"/>, or null when it is missing, unreadable or damaged.</summary>
    public static SqliteWalBegun? Read(string walFile)
    {
        Span<byte> record = stackalloc byte[Length];
        try
        {
            using var handle = File.OpenHandle(PathBeside(walFile), FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
            if (RandomAccess.Read(handle, record, 0) != Length)
            {
                return null;
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }

        if (!record[..4].SequenceEqual(Magic) || record[4] != Version || BinaryPrimitives.ReadUInt32LittleEndian(record[48..]) != Checksum(record[..48]))
        {
            return null;
        }

        return new SqliteWalBegun(BinaryPrimitives.ReadUInt64LittleEndian(record[8..]), record[16..48].ToArray());
    }

    /// <summary>
    /// The log header <paramref name="walFile"/> holds now, or null when it has none (missing, shorter, unreadable). Never
    /// throws: it is called from inside SQLite's write of the log.
    /// </summary>
    public static byte[]? HeaderIn(string walFile)
    {
        try
        {
            var header = new byte[SqliteWalFormat.HeaderSize];
            using var handle = File.OpenHandle(walFile, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
            return RandomAccess.Read(handle, header, 0) == header.Length ? header : null;
        }
        catch (Exception)
        {
            return null;
        }
    }

    private static string PathBeside(string walFile) => Path.Combine(Path.GetDirectoryName(walFile) ?? ".", FileName);

    private static uint Checksum(ReadOnlySpan<byte> bytes) => Crc32C.Finish(Crc32C.Append(Crc32C.Seed, bytes));
}
