using DataStore.ChangeFeed;

namespace DataStore.Sqlite;

internal sealed partial class SqliteWriter
{
    /// <summary>
    /// In the transaction <see cref="Begin"/> opened, runs requests [<paramref name="start"/>, <paramref name="start"/> +
    /// <paramref name="count"/>) of <paramref name="group"/>, each with its own change-log record when the feed is on, sets
    /// each request's result, and commits. Returns true when the commit wrote anything (else it rolled back); on an
    /// error it rolls back and throws, nothing committed.
    /// </summary>
    public bool WriteGroup(List<SqliteWriteRequest> group, int start, int count)
    {
        try
        {
            var wrote = false;
            for (var i = start; i < start + count; i++)
            {
                var request = group[i];
                request.Result = Apply(request);
                if (request.Wrote)
                {
                    wrote = true;
                    _log?.Append(Describe(request));
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

    private long Apply(SqliteWriteRequest request)
    {
        switch (request.Kind)
        {
            case SqliteWriteKind.Put:
                RunOne(SqliteStatement.Put, request.First, request.Second, "Put");
                return -1;
            case SqliteWriteKind.Delete:
                RunOne(SqliteStatement.Delete, request.First, default, "Delete");
                return -1;
            case SqliteWriteKind.DeleteRange:
                return DeleteRangeOne(request.First, request.Second);
            default:
                return ApplyBatch(request.Batch!);
        }
    }

    private ReadOnlySpan<byte> Describe(SqliteWriteRequest request) => request.Kind switch
    {
        SqliteWriteKind.Put => _record.Clear().Add(KeyChangeKind.Put, request.First).Bytes,
        SqliteWriteKind.Delete => _record.Clear().Add(KeyChangeKind.Delete, request.First).Bytes,
        SqliteWriteKind.DeleteRange => _record.Clear().Add(KeyChangeKind.DeleteRange, request.First, request.Second).Bytes,
        _ => _record.Clear().Add(request.Batch!).Bytes,
    };
}
