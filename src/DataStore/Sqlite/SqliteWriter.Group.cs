using DataStore.Writes;

namespace DataStore.Sqlite;

internal sealed partial class SqliteWriter
{
    /// <summary>
    /// In the transaction <see cref="Begin"/> opened, runs writes [<paramref name="start"/>, <paramref name="start"/> +
    /// <paramref name="count"/>) of <paramref name="group"/>, each with its own change-log record when the feed is on, sets
    /// each write's result, and commits. Returns true when the commit wrote anything (else it rolled back); on an
    /// error it rolls back and throws, nothing committed.
    /// </summary>
    public bool WriteGroup(List<QueuedWrite<SqliteErrors>> group, int start, int count)
    {
        try
        {
            var wrote = false;
            for (var i = start; i < start + count; i++)
            {
                var write = group[i];
                write.Result = Apply(write);
                if (write.Wrote)
                {
                    wrote = true;
                    _log?.Append(write.Describe(_record));
                }
            }

            session.Run(wrote ? SqliteStatement.Commit : SqliteStatement.Rollback, wrote ? "committing a write" : "rolling back a batch");
            return wrote;
        }
        catch
        {
            RollBackIfOpen();
            throw;
        }
    }

    private long Apply(QueuedWrite<SqliteErrors> write)
    {
        switch (write.Kind)
        {
            case WriteKind.Put:
                RunOne(SqliteStatement.Put, write.First, write.Second, "Put");
                return -1;
            case WriteKind.Delete:
                RunOne(SqliteStatement.Delete, write.First, default, "Delete");
                return -1;
            case WriteKind.DeleteRange:
                return DeleteRangeOne(write.First, write.Second);
            case WriteKind.Batch:
                return ApplyBatch(write.Batch!);
            default:
                throw new InvalidOperationException($"The Sqlite writer does not run {write.Kind} writes.");
        }
    }
}
