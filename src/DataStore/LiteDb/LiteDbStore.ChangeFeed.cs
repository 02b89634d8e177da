using DataStore.ChangeFeed;
using DataStore.ChangeFeed.LiteDb;
using LiteDB.Engine;
using Microsoft.Extensions.Logging;

namespace DataStore.LiteDb;

// The change feed (ADR 0020): each commit inserts its record into the log's collection in its own transaction (Transact).
internal sealed partial class LiteDbStore : IChangeFeedStore, IRestartMarkedStore
{
    private readonly ChangeRecord _record = new();
    private LiteDbChangeLog? _log;
    private ChangeFeedState? _feed;
    private bool _closedCleanly;

    public bool ChangeFeedOn => _feed is not null;

    public bool MarksRestart => _feed is not null;

    public bool ClosedCleanly => _closedCleanly; // false when Dispose caught the engine's failure to close

    public void StartChangeFeed(ChangeFeedSettings settings, ILogger logger)
    {
        _log = new LiteDbChangeLog(_engine, () => _db.Engine, PruneChangeLog, WriteLogSynced);
        // The log serves a commit once LiteDB's log writer wrote it, before the log file's group sync a Durable caller waits for.
        ChangeLogRestart.Prepare(_log, _directory, StoreBackend.LiteDb, shownBeforeSynced: true);
        _feed = ChangeFeedState.Start(_log, _directory, settings, logger);
    }

    public ChangeLogPage ReadChanges(long after, int max) =>
        ChangeLogReads.InCall(this, () => Guarded("Reading the change log", () => _log!.Read(after, max)));

    // Under the write lock, in the writer's transaction: the record of the commit being made, when the feed is on.
    private void AppendChange<TState>(LiteDbEngine db, TState state, Action<ChangeRecord, TState>? describe)
        where TState : allows ref struct
    {
        if (_log is { } log && describe is not null)
        {
            describe(_record.Clear(), state);
            log.Append(db.Engine, _record.Bytes);
        }
    }

    private void PruneChangeLog(int retain)
    {
        if (IsDisposed)
        {
            // The last prune, from Dispose, which holds the write lock and has no call in flight.
            PruneLocked(retain);
            return;
        }

        using (_writeLock.Enter())
        {
            PruneLocked(retain);
        }
    }

    private void PruneLocked(int retain) => WriteLog(writer => LiteDbChangeLog.DeleteBefore(writer, retain));

    // A write of the log's own (its restart, ChangeLogRestart), under the write lock, synced whatever the store's durability.
    private void WriteLogSynced(Action<LiteEngine> write) => Guarded("Restarting the change log", () =>
    {
        long ticket;
        using (_writeLock.Enter())
        {
            ticket = WriteLog(write);
        }

        _db.WaitUntilSynced(ticket, _directory, StoreBackend.LiteDb);
        return 0;
    });

    // A write transaction of the log's own (a prune, a restart), under the write lock; returns its commit's sync ticket.
    private long WriteLog(Action<LiteEngine> write)
    {
        var db = _db;
        using (_engine.Engine())
        {
            db.Engine.BeginTrans();
            try
            {
                write(db.Engine);
                db.Engine.Commit();
            }
            catch
            {
                Rollback(db.Engine);
                throw;
            }
        }

        return db.Committed();
    }
}
