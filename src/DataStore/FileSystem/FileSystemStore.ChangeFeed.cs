using DataStore.ChangeFeed;
using DataStore.ChangeFeed.FileSystem;
using Microsoft.Extensions.Logging;

namespace DataStore.FileSystem;

// The change feed (ADR 0020): with it on, a single Put appends its record between its key file's pending rename and its
// rename into place (TreeWriter.LoggedPuts); every other commit goes through the journal, which carries its sequence, and
// appends its record before the journal is removed (TreeWriter); reads hold the shared lock.
internal sealed partial class FileSystemStore : IChangeFeedStore
{
    /// <summary>A backup retries its snapshot while commits keep landing between the log's read and the snapshot's.</summary>
    private const int BackupSnapshotTries = 100;

    private FileSystemChangeLog? _log;
    private ChangeFeedState? _feed;

    public bool ChangeFeedOn => _feed is not null;

    public void StartChangeFeed(ChangeFeedSettings settings, ILogger logger)
    {
        _log = new FileSystemChangeLog(_writer.Log, settings.Retention, UnderWriteLock);
        _writer.LogCommits = true;
        _feed = ChangeFeedState.Start(_log, _directory, settings, logger);
    }

    public ChangeLogPage ReadChanges(long after, int max) => UnderSharedLock("reading the change log", () => _log!.Read(after, max));

    /// <summary>
    /// The snapshot a backup copies and, with the feed on, the log records that go with it: the log is read under the shared
    /// lock before the snapshot's and after it, and a commit in between (the latest differs) makes it try again.
    /// </summary>
    private IKeyValueCursor BackupSnapshot(out IReadOnlyList<ChangeLogEntry> records)
    {
        records = [];
        if (_log is not { } log)
        {
            return ScanCore([], [], keysOnly: false);
        }

        for (var attempt = 1; ; attempt++)
        {
            var before = UnderSharedLock("backing up the change log", log.ReadAll);
            var snapshot = ScanCore([], [], keysOnly: false);
            var after = UnderSharedLock("backing up the change log", log.Files.Latest);
            if (after == before.Latest || attempt == BackupSnapshotTries)
            {
                if (after != before.Latest)
                {
                    snapshot.Dispose();
                    throw new StoreTimeoutException(_directory, StoreBackend.FileSystem, TimeSpan.Zero,
                        $"the backup found a commit between its change-log read and its snapshot {BackupSnapshotTries} times in a row; run it again when writes are quieter.");
                }

                records = before.Records;
                return snapshot;
            }

            snapshot.Dispose();
        }
    }

    /// <summary>For verify: the change log's damage (every retained frame's CRC and order), none when the feed is off.</summary>
    private List<string> ChangeLogProblems()
    {
        try
        {
            _ = _log is { } log ? UnderSharedLock("checking the change log", log.ReadAll) : null;
            return [];
        }
        catch (StoreFormatException e)
        {
            return [e.Message];
        }
    }

    // Prunes under the write lock; also from Dispose (the last prune), which has turned new calls away but not freed the locks.
    private void UnderWriteLock(Action prune)
    {
        _locks.EnterWrite();
        try
        {
            if ((_state.Changes & 1) == 0)
            {
                prune(); // a dead writer's unfinished change is left to the next write, which completes it
            }
        }
        catch (Exception e) when (FileSystemErrors.IsFileSystemError(e))
        {
            throw FileSystemErrors.Wrap(_directory, "pruning the change log", e);
        }
        finally
        {
            _locks.ExitWrite();
        }
    }
}
