using System.Diagnostics;

namespace DataStore.FileSystem;

internal sealed partial class FileSystemStore
{
    /// <summary>A whole-store read holds the shared lock for at most about this long at a time (writers wait no longer).</summary>
    private const int ChunkMilliseconds = 20;
    private const int ChunkPairs = 4096;

    /// <summary>A chunk takes at least this many pairs (memory allowing), as each chunk lists its leaf again.</summary>
    private const int ChunkMinimumPairs = 256;
    private const int ChunkBytes = 1 << 18;

    /// <summary>Copies the store under its shared lock (writers wait; see <see cref="FileSystemBackup"/>).</summary>
    internal override void BackupCore(string destination, IProgress<StoreProgress>? progress, CancellationToken cancellationToken) =>
        UnderSharedLock("backing up", () =>
        {
            FileSystemBackup.CopyLocked(_directory, destination, progress, cancellationToken);
            return 0;
        });

    internal override IReadOnlyList<string> CheckIntegrityCore(CancellationToken cancellationToken) =>
        FileSystemIntegrity.Check(_directory, _maxEntries, step => UnderSharedLock("checking integrity", () =>
        {
            step();
            return 0;
        }), cancellationToken);

    /// <summary>Reads the whole store in chunks, each under the shared lock, letting writers in between (see <see cref="ChunkedCursor"/>).</summary>
    internal override IKeyValueCursor ReadWholeStoreCore(bool keysOnly) => new ChunkedCursor((from, chunk) => ReadChunk(from, chunk, keysOnly));

    /// <summary>Reads pairs from <paramref name="from"/> on into <paramref name="chunk"/> until a chunk's budget is used; returns where the next chunk starts, or null at the end.</summary>
    private byte[]? ReadChunk(byte[] from, ScanBuffer chunk, bool keysOnly) =>
        UnderSharedLock("reading the whole store", () =>
        {
            var deadline = Stopwatch.GetTimestamp() + (Stopwatch.Frequency * ChunkMilliseconds / 1000);
            byte[]? next = null;
            var complete = TreeWalker.Walk(_layout.Root, from, [], keysOnly, (key, value) =>
            {
                chunk.Add(key, value);
                if (chunk.Count < ChunkPairs && chunk.Bytes < ChunkBytes && (chunk.Count < ChunkMinimumPairs || Stopwatch.GetTimestamp() < deadline))
                {
                    return true;
                }

                next = [.. key, 0];
                return false;
            });
            return complete ? null : next;
        });

    /// <summary>Runs <paramref name="action"/> holding the shared lock with no change in progress (completing a dead writer's change first).</summary>
    /// <remarks>Counted as a call in flight (a cursor's next chunk runs outside the store's methods), so Dispose waits for it.</remarks>
    private T UnderSharedLock<T>(string operation, Func<T> action)
    {
        if (!TryEnterCall())
        {
            ThrowIfDisposed();
        }

        try
        {
            while (true)
            {
                var pair = _locks.EnterRead();
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
