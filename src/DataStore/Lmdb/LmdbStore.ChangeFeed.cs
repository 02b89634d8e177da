using DataStore.ChangeFeed;
using Microsoft.Extensions.Logging;

namespace DataStore.Lmdb;

// The change feed (ADR 0020): the log is the named database `feed` in the same environment, written in each commit's own transaction.
internal sealed partial class LmdbStore : IRestartMarkedStore
{
    private ChangeFeedState? _feed;

    public bool MarksRestart => _feed is not null;

    public bool ClosedCleanly => true; // a close that fails throws from Dispose(bool)

    public void StartChangeFeed(ChangeFeedSettings settings, ILogger logger)
    {
        _env.StartFeedLayout(_errors);
        var log = new ChangeFeed.Lmdb.LmdbChangeLog(_env, _errors);
        // A Durable commit's meta page is written, and the commit visible, before the group sync a Durable caller waits for.
        ChangeLogRestart.Prepare(log, Path, StoreBackend.Lmdb, shownBeforeSynced: true);
        _feed = ChangeFeedState.Start(log, Path, settings, logger);
    }

    public ChangeLogPage ReadChanges(long after, int max) => ChangeLogReads.InCall(this, () => _feed!.Log.Read(after, max));
}
