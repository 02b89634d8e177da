using DataStore.LiteDb;
using LiteDB;
using LiteDB.Engine;

namespace DataStore.ChangeFeed.LiteDb;

/// <summary>
/// The LiteDb part of the change feed: a collection <c>feed</c> beside the pairs' <c>kv</c> (a collection of its own, so no
/// user key can collide with it, and no scan, count, export or verify of the pairs reads it), one document
/// <c>{_id: sequence, c: record}</c> per commit, inserted by the writer inside the commit's own LiteDB transaction. The
/// latest sequence is read from the collection when the writer first appends on an engine (after an open, a reopen or
/// Compact, which copies the collection), then counted under the store's write lock. Readers see a commit only once
/// LiteDB's log writer has written it (<see cref="Written"/>): LiteDB shows a commit to readers before that, and kill -9
/// in between would lose a commit a subscriber had seen.
/// </summary>
internal sealed class LiteDbChangeLog : IChangeLog
{
    /// <summary>The log's collection.</summary>
    public const string Collection = "feed";

    private readonly LiteDbEngineGate _gate;
    private readonly Func<LiteEngine> _engine;
    private readonly Action<int> _prune;
    private readonly Action<Action<LiteEngine>> _writeSynced;
    private LiteEngine? _counted;
    private long _latest;
    private long _appended;
    private long _written;

    /// <summary>
    /// Opens the log of the engine <paramref name="engine"/> returns; <paramref name="prune"/> runs a prune in a write
    /// transaction, <paramref name="writeSynced"/> a write of the log's own in one, synced before it returns.
    /// </summary>
    public LiteDbChangeLog(LiteDbEngineGate gate, Func<LiteEngine> engine, Action<int> prune, Action<Action<LiteEngine>> writeSynced)
    {
        _gate = gate;
        _engine = engine;
        _prune = prune;
        _writeSynced = writeSynced;
        using (gate.Engine())
        {
            _written = Latest(engine());
        }
    }

    /// <summary>Inserts the record of the commit in progress; call under the write lock, inside the writer's transaction.</summary>
    public void Append(LiteEngine writer, ReadOnlySpan<byte> record)
    {
        if (!ReferenceEquals(writer, _counted))
        {
            _latest = Latest(writer);
            _counted = writer;
        }

        _appended = _latest + 1;
        Insert(writer, _appended, record);
    }

    /// <summary>At open, before the store's first write: the restart record in a write transaction of its own, synced.</summary>
    public void AppendRestart(long gap)
    {
        var sequence = 0L;
        _writeSynced(writer =>
        {
            sequence = Latest(writer) + gap;
            Insert(writer, sequence, []);
        });
        _counted = null; // the next append reads the latest again
        Volatile.Write(ref _written, sequence);
    }

    /// <summary>The transaction that holds the last appended record committed; call under the write lock.</summary>
    public void Committed() => _latest = _appended;

    /// <summary>The transaction that holds the last appended record failed: the next append reads the latest sequence again.</summary>
    public void Abandoned() => _counted = null;

    /// <summary>LiteDB's log writer has written every commit so far; call under the write lock, after the wait for it.</summary>
    public void Written() => Volatile.Write(ref _written, _latest);

    public ChangeLogPage Read(long after, int max)
    {
        // Every write holds the engine's turn from BeginTrans to Commit, so both reads see the same commits.
        using (_gate.Engine())
        {
            var current = _engine();
            var latest = Math.Min(Latest(current), Volatile.Read(ref _written));
            var records = new List<ChangeLogEntry>();
            if (max > 0 && after < latest)
            {
                using var reader = current.Query(Collection, new Query
                {
                    Where = { BsonExpression.Create("_id > @0 AND _id <= @1", new BsonValue(after), new BsonValue(latest)) },
                    OrderBy = BsonExpression.Create("_id"),
                    Limit = max,
                });
                while (reader.Read())
                {
                    var doc = reader.Current.AsDocument;
                    records.Add(new ChangeLogEntry(doc["_id"].AsInt64, doc["c"].AsBinary));
                }
            }

            return new ChangeLogPage(records, latest);
        }
    }

    void IChangeLog.Prune(int retain) => _prune(retain);

    /// <summary>Deletes every record but the latest <paramref name="retain"/>; call inside a write transaction.</summary>
    public static void DeleteBefore(LiteEngine writer, int retain)
    {
        var last = Latest(writer) - retain;
        if (last > 0)
        {
            writer.DeleteMany(Collection, BsonExpression.Create("_id <= @0", new BsonValue(last)));
        }
    }

    public void Dispose()
    {
        // The store owns the engine.
    }

    private static void Insert(LiteEngine writer, long sequence, ReadOnlySpan<byte> record) =>
        writer.Insert(Collection, [new BsonDocument { ["_id"] = new BsonValue(sequence), ["c"] = new BsonValue(record.ToArray()) }], BsonAutoId.Int64);

    private static long Latest(LiteEngine current)
    {
        using var reader = current.Query(Collection, new Query { OrderBy = BsonExpression.Create("_id"), Order = Query.Descending, Limit = 1 });
        return reader.Read() ? reader.Current.AsDocument["_id"].AsInt64 : 0;
    }
}
