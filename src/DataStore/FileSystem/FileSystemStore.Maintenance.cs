namespace DataStore.FileSystem;

internal sealed partial class FileSystemStore
{
    /// <summary>Copies the store under its shared lock (writers wait; see <see cref="FileSystemBackup"/>).</summary>
    internal override void BackupCore(string destination, IProgress<StoreProgress>? progress, CancellationToken cancellationToken) =>
        UnderSharedLock("backing up", () =>
        {
            FileSystemBackup.CopyLocked(_directory, destination, progress, cancellationToken);
            return 0;
        });

    internal override IReadOnlyList<string> CheckIntegrityCore(CancellationToken cancellationToken) =>
        UnderSharedLock("checking integrity", () => FileSystemIntegrity.CheckLocked(_directory, _maxEntries, cancellationToken));

    /// <summary>
    /// Walks the tree lazily under the shared lock, held until the cursor is disposed: memory stays one directory's
    /// listing per level, and writers of every thread and process wait (their Timeout applies) meanwhile.
    /// </summary>
    internal override IKeyValueCursor ReadWholeStoreCore(bool keysOnly)
    {
        using var call = _guard.Enter();
        while (true)
        {
            var pair = _locks.EnterRead();
            var handedOver = false;
            try
            {
                if ((_state.Changes & 1) == 0)
                {
                    var cursor = new TreeCursor(_layout.Root, keysOnly, () => _locks.ExitRead(pair), e => FileSystemErrors.Wrap(_directory, "reading the whole store", e));
                    handedOver = true;
                    return cursor;
                }
            }
            catch (Exception e) when (FileSystemErrors.IsFileSystemError(e))
            {
                throw FileSystemErrors.Wrap(_directory, "reading the whole store", e);
            }
            finally
            {
                if (!handedOver)
                {
                    _locks.ExitRead(pair);
                }
            }

            RecoverNow();
        }
    }

    /// <summary>Runs <paramref name="action"/> holding the shared lock with no change in progress (completing a dead writer's change first).</summary>
    private T UnderSharedLock<T>(string operation, Func<T> action)
    {
        using var call = _guard.Enter();
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
}
