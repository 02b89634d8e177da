using DataStore.Platform;
using Microsoft.Win32.SafeHandles;

namespace DataStore.Sqlite.Files;

/// <summary>
/// Before SQLite recovers a write-ahead log: damage in the middle of the log is an error naming it, not a store that
/// silently lost the commits after the damage. SQLite's recovery stops at the first frame whose checksum fails and drops
/// every later frame, which is right for a torn tail (a commit cut short) and silently wrong for a damaged frame with
/// whole committed transactions after it. This walk follows SQLite's checksum chain itself and, past a frame that fails,
/// picks the chain up again from each later frame's stored checksum: committed transactions that check there were
/// written after the bad frame, so the log is damaged, not torn (ADR 0023, "Write-ahead log").
/// </summary>
/// <remarks>
/// Only a log that <see cref="SqliteWalBegun"/> says began in this boot of the machine is judged: after a restart (a power
/// loss, an OS crash) unsynced frames may be lost or written back out of order, so a bad frame followed by good ones is
/// then what an ordinary power loss leaves in either durability level, and SQLite's recovery stands. Two bad patterns
/// are not damage even in one boot and are let through: a bad frame whose own transaction is the log's last (SQLite
/// rewrites the last transaction's checksums in place when it wrote a page twice, and a process killed in between
/// leaves exactly that), and a walk that met a writer of another process starting the log over (walked twice).
/// </remarks>
internal static class SqliteWalCheck
{
    /// <summary>Throws a Corrupt <see cref="StoreFormatException"/> naming the log when it is damaged before committed transactions.</summary>
    public static void Run(string directory, string databaseFile)
    {
        if (FindDamage(databaseFile + "-wal") is { } damage)
        {
            throw new StoreFormatException(StoreFailure.Corrupt, directory, StoreBackend.Sqlite, damage);
        }
    }

    /// <summary>What is damaged in the log at <paramref name="walFile"/>, described, or null when nothing is known to be.</summary>
    public static string? FindDamage(string walFile)
    {
        // Walked twice: a writer of another process may be appending a frame or starting the log over during one walk.
        return Walk(walFile) is { } first && Walk(walFile) is { } second && first.Frame == second.Frame && first.Salts == second.Salts
            ? first.Describe(walFile)
            : null;
    }

    private static Damage? Walk(string walFile)
    {
        if (BootIdentity.Current == 0 || SqliteWalBegun.Read(walFile) is not { } begun || begun.Boot != BootIdentity.Current)
        {
            return null;
        }

        SafeFileHandle handle;
        try
        {
            handle = File.OpenHandle(walFile, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null; // no log, or one SQLite reports itself
        }

        using (handle)
        {
            return Walk(handle, begun.Header);
        }
    }

    private static Damage? Walk(SafeFileHandle handle, byte[] begun)
    {
        var length = RandomAccess.GetLength(handle);
        Span<byte> header = stackalloc byte[SqliteWalFormat.HeaderSize];
        if (length < SqliteWalFormat.HeaderSize || RandomAccess.Read(handle, header, 0) < SqliteWalFormat.HeaderSize)
        {
            return null;
        }

        // A damaged header makes SQLite ignore the whole log: its frames are then checked from the header recorded when it began.
        var headerIntact = SqliteWalFormat.IsHeader(header);
        if (headerIntact && !header.SequenceEqual(begun))
        {
            return null; // a log other than the one recorded: not known to be from this boot
        }

        var log = new Log(handle, begun, length);
        var chain = SqliteWalFormat.Stored(begun.AsSpan(24));
        var bad = 0;
        var committed = 0;
        for (; bad < log.Frames && log.Read(bad) is { } frame && SqliteWalFormat.FrameMatches(frame, log.Salts, chain, log.BigEndian, out chain); bad++)
        {
            committed += SqliteWalFormat.IsCommit(frame) ? 1 : 0;
        }

        if (headerIntact && bad == log.Frames)
        {
            return null;
        }

        var badIsCommit = bad < log.Frames && log.Read(bad) is { } first && SqliteWalFormat.Salts(first, frame: true) == log.Salts && SqliteWalFormat.IsCommit(first);
        var later = CommitsAfter(log, bad);
        var damaged = headerIntact ? later >= 2 || (badIsCommit && later >= 1) : committed + later >= 1;
        return damaged ? new Damage(headerIntact ? bad + 1 : 0, log.Salts, headerIntact ? later : committed + later, log.FrameSize) : null;
    }

    // Commit frames after frame `bad` that check on a chain picked up from a later frame's stored checksum.
    private static int CommitsAfter(Log log, int bad)
    {
        var commits = 0;
        var start = bad;
        while (start < log.Frames)
        {
            if (log.ReadHeader(start) is not { } frame)
            {
                break;
            }

            var next = start + 1;
            if (SqliteWalFormat.Salts(frame, frame: true) == log.Salts)
            {
                var chain = SqliteWalFormat.Stored(frame.AsSpan(16));
                for (; next < log.Frames && log.Read(next) is { } following && SqliteWalFormat.FrameMatches(following, log.Salts, chain, log.BigEndian, out chain); next++)
                {
                    commits += SqliteWalFormat.IsCommit(following) ? 1 : 0;
                }
            }

            start = Math.Max(next, start + 1);
        }

        return commits;
    }

    private sealed class Log(SafeFileHandle handle, byte[] header, long length)
    {
        private readonly byte[] _frame = new byte[SqliteWalFormat.FrameHeaderSize + SqliteWalFormat.PageSize(header)];

        public int FrameSize => _frame.Length;

        public long Frames => (length - SqliteWalFormat.HeaderSize) / _frame.Length;

        public ulong Salts { get; } = SqliteWalFormat.Salts(header, frame: false);

        public bool BigEndian { get; } = SqliteWalFormat.BigEndianSums(header);

        // Frame `index` (0-based), in a buffer reused by the next read; null when the file ends before it.
        public byte[]? Read(long index) =>
            RandomAccess.Read(handle, _frame, SqliteWalFormat.HeaderSize + (index * _frame.Length)) == _frame.Length ? _frame : null;

        // Only the header of frame `index`, in the first bytes of the same buffer (a stale frame of an older log costs no page read).
        public byte[]? ReadHeader(long index) =>
            RandomAccess.Read(handle, _frame.AsSpan(0, SqliteWalFormat.FrameHeaderSize), SqliteWalFormat.HeaderSize + (index * _frame.Length)) ==
                SqliteWalFormat.FrameHeaderSize ? _frame : null;
    }

    private sealed record Damage(long Frame, ulong Salts, long Lost, int FrameSize)
    {
        public string Describe(string walFile)
        {
            var where = Frame == 0
                ? "its header does not match its checksum, so SQLite would ignore the whole log"
                : $"frame {Frame} (at byte {SqliteWalFormat.HeaderSize + ((Frame - 1) * FrameSize)}) does not match its checksum, and SQLite's recovery stops there";
            return $"its write-ahead log '{walFile}' is damaged: {where}, but {Lost} committed transaction(s) after it still check and would be " +
                "lost without an error. The files were left as they are. Restore the store from a backup.";
        }
    }
}
