using SQLitePCL;

namespace DataStore.Sqlite;

/// <summary>SQLite's own check of the database file (<c>PRAGMA integrity_check</c>), cancellable through a progress handler.</summary>
internal static class SqliteIntegrity
{
    private const int MaxProblems = 100;

    public static IReadOnlyList<string> Check(string file, SqliteErrors errors, TimeSpan timeout, CancellationToken cancellationToken)
    {
        using var session = SqliteSession.Open(file, errors, timeout);
        raw.sqlite3_progress_handler(session.Db, 10_000, _ => cancellationToken.IsCancellationRequested ? 1 : 0, null);
        var problems = new List<string>();
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
                            problems.Add($"SQLite integrity check: {line}.");
                        }
                    }

                    continue;
                }

                if (rc == raw.SQLITE_DONE)
                {
                    break;
                }

                cancellationToken.ThrowIfCancellationRequested();
                if ((rc & 0xFF) is raw.SQLITE_CORRUPT or raw.SQLITE_NOTADB)
                {
                    problems.Add($"SQLite integrity check stopped: {raw.sqlite3_errmsg(session.Db).utf8_to_string()} (SQLite code {rc}).");
                    break;
                }

                errors.Throw(rc, session.Db, "running the integrity check");
            }
        }

        return problems;
    }
}
