using System.Diagnostics;

namespace DataStore.FileSystem;

internal sealed partial class FileSystemStore
{
    /// <summary>A whole-store read holds the shared lock for at most about this long at a time (writers wait no longer).</summary>
    private const int ChunkMilliseconds = 20;
    private const int ChunkPairs = 4096;

    /// <summary>
    /// A chunk takes at least this many pairs (memory allowing), as each chunk lists its leaf again; kept small because on
    /// a busy machine the minimum, not the 20 ms, bounds a chunk (256 held a writer up to 0.2 s).
    /// </summary>
    private const int ChunkMinimumPairs = 64;
    private const int ChunkBytes = 1 << 18;

    /// <summary>Writes the backup from a snapshot scan, letting writers in between its chunks (see <see cref="FileSystemBackup"/>).</summary>
    internal override void BackupCore(string destination, IProgress<StoreProgress>? progress, CancellationToken cancellationToken)
    {
        using var snapshot = BackupSnapshot(out var changes);
        try
        {
            FileSystemBackup.Write(snapshot, _directory, destination, _maxEntries, progress, cancellationToken);
            if (changes.Count > 0)
            {
                ChangeFeed.FileSystem.ChangeLogFiles.WriteCopy(destination, changes); // the copy continues the sequence
            }
        }
        catch (Exception e) when (FileSystemErrors.IsFileSystemError(e))
        {
            throw FileSystemErrors.Wrap(_directory, "backing up", e);
        }
    }

    /// <summary>
    /// Writes <paramref name="batch"/>'s puts into this store, a backup's fresh copy, in place: no journal and no sync
    /// (each synced batch made the app's writes wait for the disk), and a split's record is dropped at once. The copy is
    /// made durable as a whole (<c>StoreBackup</c> syncs it before renaming it into place), and nothing reads it before.
    /// </summary>
    internal void LoadUnsynced(WriteBatch batch)
    {
        EnterWrite();
        try
        {
            for (var i = 0; i < batch.OperationCount; i++)
            {
                var entry = batch.Operation(i);
                _writer.Put(batch.First(entry), batch.Second(entry), flush: false);
            }

            if (_writer.SplitUnsynced)
            {
                _writer.DropSyncedSplit();
            }

            _ = _writer.TakeNewParents();
            _state.EndChange();
        }
        finally
        {
            _locks.ExitWrite();
        }
    }

    internal override IReadOnlyList<string> CheckIntegrityCore(CancellationToken cancellationToken) =>
    [
        .. FileSystemIntegrity.Check(_directory, _maxEntries, step => UnderSharedLock("checking integrity", () =>
        {
            step();
            return 0;
        }), cancellationToken),
        .. ChangeLogProblems(),
    ];

    /// <summary>
    /// Reads pairs in [<paramref name="from"/>, <paramref name="to"/>) into <paramref name="chunk"/> until a chunk's budget
    /// (at most <paramref name="maxPairs"/>) is used; returns where the next chunk starts, or null at the end. Call holding the shared lock.
    /// </summary>
    private byte[]? ReadChunk(byte[] from, byte[] to, ScanBuffer chunk, bool keysOnly, int maxPairs)
    {
        var deadline = Stopwatch.GetTimestamp() + (Stopwatch.Frequency * ChunkMilliseconds / 1000);
        var minimum = Math.Min(ChunkMinimumPairs, maxPairs);
        byte[]? next = null;
        var complete = TreeWalker.Walk(_layout.Root, from, to, keysOnly, (key, value) =>
        {
            chunk.Add(key, value);
            if (chunk.Count < maxPairs && chunk.Bytes < ChunkBytes && (chunk.Count < minimum || Stopwatch.GetTimestamp() < deadline))
            {
                return true;
            }

            next = [.. key, 0];
            return false;
        });
        return complete ? null : next;
    }

    /// <summary>Runs <paramref name="action"/> holding the shared lock with no change in progress (completing a dead writer's change first).</summary>
    /// <remarks>Counted as a call in flight (a cursor's next chunk runs outside the store's methods), so Dispose waits for it.</remarks>
    private T UnderSharedLock<T>(string operation, Func<T> action)
    {
        // Taking the lock opens its files the first time (no descriptor left is an error naming the store, not an IOException).
        LockPair EnterRead(string operation)
        {
            try
            {
                return _locks.EnterRead();
            }
            catch (Exception e) when (FileSystemErrors.IsFileSystemError(e))
            {
                throw FileSystemErrors.Wrap(_directory, operation, e);
            }
        }

        if (!TryEnterCall())
        {
            ThrowIfDisposed();
        }

        try
        {
            while (true)
            {
                var pair = EnterRead(operation);
                try
                {
                    if ((_state.Changes & 1) == 0)
                    {
                        return action();
                    }
                }
                catch (Exception e) when (FileSystemErrors.IsFileSystemError(e))
                {
                    throw FileSystemErrors.Wrap(_directory, operation, e);
                }
                finally
                {
                    _locks.ExitRead(pair);
                }

                RecoverNow();
            }
        }
        finally
        {
            ExitCall();
        }
    }
}
