using DataStore.Platform;
using DataStore.Sync;
using Microsoft.Extensions.Logging;

namespace DataStore.FileSystem;

/// <summary>
/// Plain files, one per key, in a tree of directories ordered by key bytes (ADR 0008). Point reads take no lock:
/// they check the shared change counter before and after, and retry (finally under the shared lock) when a
/// multi-step change overlapped them. Writes hold the exclusive cross-process lock; batches go through a journal.
/// Scans read in chunks under the shared lock and stay snapshots through writers' pre-images (ADR 0022).
/// </summary>
internal sealed partial class FileSystemStore : KeyValueStoreBase
{
    /// <summary>The most entries a directory holds unless a test lowers it.</summary>
    public const int DefaultMaxEntries = 4096;

    private const StoreCapabilities FileSystemCapabilities = StoreCapabilities.Persistent | StoreCapabilities.SharedAcrossProcesses |
        StoreCapabilities.SnapshotScans | StoreCapabilities.SelfDescribing | StoreCapabilities.Compaction | StoreCapabilities.ChangeFeed;

    private readonly string _directory;
    private readonly Durability _durability;
    private readonly SharedState _state;
    private readonly Layout _layout;
    private readonly StoreLocks _locks;
    private readonly TreeWriter _writer;
    private readonly DirectorySyncGroup _directorySync = new();
    private readonly DirectoryHandles _handles = new();
    private readonly BackgroundSync? _backgroundSync;
    private readonly ILogger _logger;
    private readonly int _maxEntries;
    private int _dirty;

    private FileSystemStore(string directory, Durability durability, DataStoreOptions options, ILogger logger, SharedState state, StoreLocks locks, int maxEntries)
    {
        _directory = directory;
        _durability = durability;
        _logger = logger;
        _state = state;
        _locks = locks;
        _maxEntries = maxEntries;
        _layout = new Layout(System.IO.Path.Combine(directory, "data"), state, _handles);
        _writer = new TreeWriter(directory, _layout, state, maxEntries)
        {
            DeferLogSyncs = durability == Durability.Relaxed,
            Unsynced = durability == Durability.Relaxed ? new UnsyncedDirectories() : null,
        };
        _backgroundSync = BackgroundSync.StartIfRelaxed(durability, options.SyncInterval, SyncInBackground);
    }

    public override string Path => _directory;

    public override StoreBackend Backend => StoreBackend.FileSystem;

    public override StoreCapabilities Capabilities => FileSystemCapabilities;

    public override Durability Durability => _durability;

    /// <summary>
    /// Opens the store in <paramref name="directory"/>, finishing whatever a crashed writer left; <paramref name="feedResumedAfter"/>
    /// is the manifest's <c>ResumedAfter</c> when the change feed is on, so that recovery completes a logged delete (ADR 0020).
    /// </summary>
    public static FileSystemStore Open(string directory, Durability durability, DataStoreOptions options, ILogger logger, int maxEntries = DefaultMaxEntries, long? feedResumedAfter = null)
    {
        SharedState? state = null;
        StoreLocks? locks = null;
        FileSystemStore? store = null;
        try
        {
            Directory.CreateDirectory(System.IO.Path.Combine(directory, "data"));
            Directory.CreateDirectory(System.IO.Path.Combine(directory, "tmp"));
            locks = new StoreLocks(directory, options.Timeout);
            state = SharedState.Open(System.IO.Path.Combine(directory, "state"));
            store = new FileSystemStore(directory, durability, options, logger, state, locks, maxEntries);
            store._writer.LoggedDeletesAfter = feedResumedAfter;
            store.RecoverAtOpen();
            return store;
        }
        catch (Exception e)
        {
            // Whatever failed, nothing stays open: no lock, no mapping, no background sync.
            if (store is not null)
            {
                store.Dispose();
            }
            else
            {
                locks?.Dispose();
                state?.Dispose();
            }

            if (FileSystemErrors.IsFileSystemError(e))
            {
                throw FileSystemErrors.Wrap(directory, "opening the store", e);
            }

            throw;
        }
    }

    // A Relaxed range delete goes through the journal with the feed on too: its unlinks are not synced, and a power loss
    // could keep some of them and lose its record, leaving half the range (ADR 0020, *The FileSystem log*).
    protected override long DeleteRangeCore(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end) => _feed is not null && _durability == Durability.Durable
        ? DeleteLogged(KeyChangeKind.DeleteRange, start, end)
        : Commit(new WriteBatch().DeleteRange(start, end), out var removed) < 0 ? removed : 0;

    protected override int WriteCore(WriteBatch batch) => Commit(batch, out _);

    protected override void CompactCore()
    {
        WaitForSplitPreparation();
        EnterWrite();
        try
        {
            _writer.Compact();
        }
        catch (Exception e) when (FileSystemErrors.IsFileSystemError(e))
        {
            throw FileSystemErrors.Wrap(_directory, "Compact", e);
        }
        finally
        {
            _locks.ExitWrite();
        }
    }

    protected override void Dispose(bool disposing)
    {
        // KeyValueStoreBase calls this once every call in flight (cursor chunks included) has left, and turns later
        // ones away with ObjectDisposedException: nothing below is freed under a call.
        if (_backgroundSync is not null)
        {
            _backgroundSync.Dispose();
            SyncInBackground();
        }

        _feed?.Dispose(); // a last prune, while the locks are open
        _log?.Dispose();
        _locks.Dispose();
        _handles.Dispose();
        _state.Dispose();
    }

    private int Commit(WriteBatch batch, out long removed)
    {
        removed = 0;
        var failed = CommitLocked(batch, ref removed);
        PrepareSplitIfWanted();
        if (failed < 0 && batch.OperationCount > 0)
        {
            _feed?.Committed();
        }

        return failed;
    }

    private int CommitLocked(WriteBatch batch, ref long removed)
    {
        EnterWrite();
        try
        {
            var failed = _writer.FailedPrecondition(batch);
            if (failed >= 0 || batch.OperationCount == 0)
            {
                return failed;
            }

            removed = _writer.Apply(batch);
            return -1;
        }
        catch (Exception e) when (e is not DataStoreException)
        {
            // Whatever failed (the disk, or a bug), a journaled batch is completed whole by the next operation or open.
            var failure = FileSystemErrors.IsFileSystemError(e) ? FileSystemErrors.Wrap(_directory, "", e).Cause : StoreFailure.Engine;
            var words = ResourceErrors.From(e) is var (_, limit) ? limit + " " : "";
            throw new DataStoreException(failure, _directory, StoreBackend.FileSystem,
                $"the batch failed ({e.GetType().Name}: {e.Message}); {words}if it began applying, its journal stays and the next operation on the store completes it once the cause is fixed.", e);
        }
        finally
        {
            _locks.ExitWrite();
        }
    }

    private void EnterWrite()
    {
        _locks.EnterWrite();
        PutTrace.Mark(PutStep.Lock);
        try
        {
            ThrowIfDisposed();
            if ((_state.Changes & 1) != 0)
            {
                Diagnostics.StoreLog.CompletingUnfinishedChange(_logger, StoreBackend.FileSystem, _directory);
                _writer.Recover();
            }

            _writer.BeginWrite();
            PutTrace.Mark(PutStep.ScanCheck);
        }
        catch (Exception e)
        {
            _locks.ExitWrite();
            if (FileSystemErrors.IsFileSystemError(e))
            {
                throw FileSystemErrors.Wrap(_directory, "completing an unfinished change", e);
            }

            throw;
        }
    }

    /// <summary>Takes the write lock, which completes any unfinished change, and lets it go.</summary>
    private void RecoverNow()
    {
        EnterWrite();
        _locks.ExitWrite();
    }

    /// <summary>
    /// Checks the shared state and finishes a dead writer's work, if the write lock is free. When another process
    /// holds it, that process opened the store in this boot (so the state is valid) and whoever writes next
    /// finishes any unfinished change, so opening does not wait. Then checks that the key tree's top-level directories
    /// are all there (ADR 0013).
    /// </summary>
    private void RecoverAtOpen()
    {
        if (!_locks.TryEnterWrite())
        {
            return;
        }

        try
        {
            _writer.Recover(restarted: _state.Validate());
            TreeRoot.Mark(_directory);
        }
        finally
        {
            _locks.ExitWrite();
        }

        TreeWalker.ThrowIfChildLost(_layout.Root); // a deleted top-level subtree shows at open; deeper ones when a read reaches them
    }
}
