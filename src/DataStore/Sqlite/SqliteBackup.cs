using System.Diagnostics;
using DataStore.Backup;
using SQLitePCL;

namespace DataStore.Sqlite;

/// <summary>
/// An online copy with SQLite's backup API, a bounded number of pages per step. The source connection holds one
/// read transaction across every step, so in WAL mode the copy is the snapshot taken when the backup began: other
/// connections and processes keep writing and never make the backup restart, and no writer waits for it.
/// </summary>
internal static class SqliteBackup
{
    /// <summary>Pages copied per step: about 4 MiB at the default page size, between which progress and cancellation are checked.</summary>
    private const int PagesPerStep = 1024;

    public static void Copy(string sourceFile, SqliteErrors errors, TimeSpan timeout, string destination, IProgress<StoreProgress>? progress, CancellationToken cancellationToken)
    {
        using var source = SqliteSession.Open(sourceFile, errors, timeout);
        var pageSize = Scalar(source, "PRAGMA page_size");
        source.Execute($"BEGIN; SELECT count(*) FROM (SELECT 1 FROM kv LIMIT 1)", "beginning the backup's read transaction");
        try
        {
            var target = OpenTarget(System.IO.Path.Combine(destination, SqliteStore.DatabaseFile), errors, Pages.SqlitePageFormat.HasChecksums(sourceFile));
            try
            {
                CopyPages(source, target, errors, timeout, pageSize, progress, cancellationToken);
                // The copy keeps the source's WAL mode in its header; setting it also checkpoints and closes cleanly.
                errors.Check(raw.sqlite3_exec(target, "PRAGMA journal_mode=WAL"), target, "switching the backup to WAL mode");
            }
            finally
            {
                raw.sqlite3_close_v2(target);
            }
        }
        finally
        {
            raw.sqlite3_exec(source.Db, "COMMIT");
        }

        BackupFiles.CopyManifest(errors.Directory, destination);
    }

    private static sqlite3 OpenTarget(string file, SqliteErrors errors, bool pageChecksums)
    {
        // Through the page-checksum VFS: the copy of a checked store gets each page's checksum as SQLite writes it, in any order.
        var rc = raw.sqlite3_open_v2(file, out var target, raw.SQLITE_OPEN_READWRITE | raw.SQLITE_OPEN_CREATE | raw.SQLITE_OPEN_NOMUTEX, SqliteSession.PageVfs(errors, pageChecksums));
        if (rc != raw.SQLITE_OK)
        {
            var error = errors.Translate(rc, target, $"creating the backup file {file}");
            target?.Dispose();
            throw error;
        }

        return target;
    }

    private static void CopyPages(SqliteSession source, sqlite3 target, SqliteErrors errors, TimeSpan timeout, long pageSize, IProgress<StoreProgress>? progress, CancellationToken cancellationToken)
    {
        var backup = raw.sqlite3_backup_init(target, "main", source.Db, "main");
        if (backup is null)
        {
            errors.Throw(raw.sqlite3_errcode(target), target, "starting the backup");
        }

        var busy = Stopwatch.StartNew();
        try
        {
            while (true)
            {
                cancellationToken.ThrowIfCancellationRequested();
                var rc = raw.sqlite3_backup_step(backup, PagesPerStep);
                long total = raw.sqlite3_backup_pagecount(backup);
                long done = total - raw.sqlite3_backup_remaining(backup);
                progress?.Report(new StoreProgress(StorePhase.BackingUp, 0, done * pageSize, null, total * pageSize));
                if (rc == raw.SQLITE_DONE)
                {
                    break;
                }

                if (rc is raw.SQLITE_BUSY or raw.SQLITE_LOCKED)
                {
                    if (busy.Elapsed > timeout)
                    {
                        errors.Throw(rc, target, "copying pages into the backup");
                    }

                    Thread.Sleep(10);
                    continue;
                }

                if (rc != raw.SQLITE_OK)
                {
                    errors.Throw(rc, target, "copying pages into the backup");
                }

                busy.Restart();
            }
        }
        finally
        {
            var rc = raw.sqlite3_backup_finish(backup);
            if (rc != raw.SQLITE_OK && !cancellationToken.IsCancellationRequested)
            {
                errors.Throw(rc, target, "finishing the backup");
            }
        }
    }

    /// <summary>The first column of the first row of <paramref name="sql"/> as a number.</summary>
    internal static long Scalar(SqliteSession session, string sql)
    {
        var rc = raw.sqlite3_prepare_v2(session.Db, sql, out var statement);
        session.Errors.Check(rc, session.Db, sql);
        using (statement)
        {
            return session.Step(statement, sql) ? raw.sqlite3_column_int64(statement, 0) : 0;
        }
    }
}
