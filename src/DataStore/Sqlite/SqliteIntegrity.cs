using SQLitePCL;

namespace DataStore.Sqlite;

/// <summary>SQLite's own check of the database file (<c>PRAGMA integrity_check</c>), cancellable through a progress handler.</summary>
internal static class SqliteIntegrity
{
    private const int MaxProblems = 100;

    // How the check reports a page the page-checksum VFS refused ("unable to get the page. error code=8202").
    private static readonly string ChecksumError = $"error code={Pages.SqlitePageFault.ChecksumMismatch}";

    public static IReadOnlyList<string> Check(string file, SqliteErrors errors, TimeSpan timeout, CancellationToken cancellationToken)
    {
        using var session = SqliteSession.Open(file, errors, timeout);
        var problems = new List<string>();
        if (Files.SqliteWalCheck.FindDamage(file + "-wal") is { } damage)
        {
            problems.Add($"Write-ahead log check: {damage}");
        }

        raw.sqlite3_progress_handler(session.Db, 10_000, _ => cancellationToken.IsCancellationRequested ? 1 : 0, null);
        var rc = raw.sqlite3_prepare_v2(session.Db, $"PRAGMA integrity_check({MaxProblems})", out var statement);
        errors.Check(rc, session.Db, "preparing the integrity check");
        using (statement)
        {
            while (true)
            {
                rc = raw.sqlite3_step(statement);
                if (rc == raw.SQLITE_ROW)
                {
                    // "ok", or lines such as "*** in database main ***" followed by one line per problem.
                    foreach (var line in raw.sqlite3_column_text(statement, 0).utf8_to_string().Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
                    {
                        if (line != "ok" && !line.StartsWith("***", StringComparison.Ordinal))
                        {
                            problems.Add(line.Contains(ChecksumError, StringComparison.Ordinal)
                                ? $"SQLite integrity check: {line}: a page of the database file '{file}' does not match its checksum (the file is damaged)."
                                : $"SQLite integrity check: {line}.");
                        }
                    }

                    continue;
                }

                if (rc == raw.SQLITE_DONE)
                {
                    break;
                }

                cancellationToken.ThrowIfCancellationRequested();
                if ((rc & 0xFF) is raw.SQLITE_CORRUPT or raw.SQLITE_NOTADB || rc == Pages.SqlitePageFault.ChecksumMismatch)
                {
                    problems.Add(rc == Pages.SqlitePageFault.ChecksumMismatch
                        ? $"SQLite integrity check stopped: {errors.Translate(rc, session.Db, "reading a page").Message}"
                        : $"SQLite integrity check stopped: {raw.sqlite3_errmsg(session.Db).utf8_to_string()} (SQLite code {rc}).");
                    break;
                }

                errors.Throw(rc, session.Db, "running the integrity check");
            }
        }

        Pages.SqlitePageFault.Take(); // what the check met is in the report, not left for the next error on this thread
        return problems;
    }
}
