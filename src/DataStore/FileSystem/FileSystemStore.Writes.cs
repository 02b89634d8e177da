using DataStore.Batches;
using DataStore.Platform;

namespace DataStore.FileSystem;

// Single-key writes: a Put writes and flushes its key file before the write lock and only renames it under the lock
// (with the change feed on, appending its record first: TreeWriter.LoggedPuts); with the feed on, a Delete (and a Durable
// DeletePrefix or DeleteRange) appends its record, then removes its keys and (Durable) syncs their directories
// (TreeWriter.LoggedDeletes, ADR 0020).
internal sealed partial class FileSystemStore
{
    private const string LoggedDeleteFailure = "Delete (if its change-log record was appended, the next operation on the store completes it)";

    private const string LoggedPutFailure = "Put (if its key file was renamed to its pending name in tmp/, the next operation on the store completes the commit, its change-log record included)";

    protected override void PutCore(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        PutTrace.Begin();
        string temporary;
        try
        {
            // Written and flushed (at both levels: issue 20 item 1) before the write lock, so no other writer or reader
            // of any process waits for this Put's disk I/O; only the rename happens under the lock.
            temporary = _writer.WriteTemporary(key, value);
        }
        catch (Exception e) when (FileSystemErrors.IsFileSystemError(e))
        {
            throw FileSystemErrors.Wrap(_directory, "Put", e);
        }

        string directory;
        string[] parents;
        SplitSync split;
        try
        {
            EnterWrite();
        }
        catch
        {
            TemporaryFiles.Remove(temporary);
            throw;
        }

        try
        {
            directory = _feed is null ? _writer.Publish(key, temporary) : _writer.PublishLogged(key, temporary);
            parents = _writer.TakeNewParents();
            split = PendingSplit();
            _state.EndChange();
        }
        catch (Exception e)
        {
            TemporaryFiles.Remove(temporary);
            throw FileSystemErrors.IsFileSystemError(e) ? FileSystemErrors.Wrap(_directory, _feed is null ? "Put" : LoggedPutFailure, e) : e;
        }
        finally
        {
            _locks.ExitWrite();
        }

        PutTrace.Mark(PutStep.Unlock);
        AfterWrite(directory, parents, split);
        PutTrace.Mark(PutStep.Sync);
        _feed?.Committed();
        PrepareSplitIfWanted();
        if (PutTrace.End(out var milliseconds) is { } steps)
        {
            FileSystemLog.SlowPut(_logger, _directory, milliseconds, steps);
        }
    }

    protected override void DeleteCore(ReadOnlySpan<byte> key)
    {
        if (_feed is not null)
        {
            _ = DeleteLogged(KeyChangeKind.Delete, key, default);
            return;
        }

        string? directory;
        SplitSync split;
        EnterWrite();
        try
        {
            directory = _writer.Delete(key);
            if (directory is not null)
            {
                _writer.Unsynced?.Add(directory);
            }

            split = PendingSplit();
            _state.EndChange();
        }
        catch (Exception e) when (FileSystemErrors.IsFileSystemError(e))
        {
            throw FileSystemErrors.Wrap(_directory, "Delete", e);
        }
        finally
        {
            _locks.ExitWrite();
        }

        if (directory is not null)
        {
            AfterWrite(directory, [], split);
        }
    }

    /// <summary>A Delete or range delete with the change feed on (TreeWriter.LoggedDeletes); returns how many keys a range removed.</summary>
    private long DeleteLogged(KeyChangeKind kind, ReadOnlySpan<byte> key, ReadOnlySpan<byte> end)
    {
        long removed;
        EnterWrite();
        try
        {
            removed = _writer.DeleteLogged(kind, key, end);
        }
        catch (Exception e) when (e is not DataStoreException)
        {
            throw FileSystemErrors.IsFileSystemError(e) ? FileSystemErrors.Wrap(_directory, LoggedDeleteFailure, e)
                : new DataStoreException(StoreFailure.Engine, _directory, StoreBackend.FileSystem, $"{LoggedDeleteFailure}: {e.GetType().Name}: {e.Message}", e);
        }
        finally
        {
            _locks.ExitWrite();
        }

        if (_durability == Durability.Relaxed)
        {
            Volatile.Write(ref _dirty, 1); // the record and the removals go with the background sync
        }

        _feed?.Committed();
        return removed;
    }
}
