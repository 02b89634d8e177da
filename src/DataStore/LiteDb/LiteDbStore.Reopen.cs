namespace DataStore.LiteDb;

// After LiteDB stops its engine, the store opens a fresh one on the same files instead of failing every later call.
internal sealed partial class LiteDbStore
{
    /// <summary>
    /// LiteDB closes its engine after a failed internal check or an I/O error and then fails every later call with
    /// that error, which would leave the open store unusable until the application reopened it. Opens a fresh engine on
    /// the same files in place of <paramref name="broken"/>; a thread that finds it replaced already returns true. A
    /// damaged file fails again on the fresh engine and is reported then. False when no fresh engine could be opened.
    /// </summary>
    private bool TryReopen(LiteDbEngine broken, Exception cause)
    {
        using (_writeLock.Enter())
        using (_engine.Engine())
        {
            if (!ReferenceEquals(broken, _db))
            {
                return true;
            }

            try
            {
                broken.Dispose();
            }
            catch (Exception e) when (LiteDbErrors.IsStoreFailure(e) || e is ObjectDisposedException)
            {
                // Closed already by LiteDB; the fresh engine replays its log.
            }

            try
            {
                var fresh = LiteDbEngine.Open(_directory, _keys);
                fresh.Table.RequireChecksums = broken.Table.RequireChecksums;
                _db = fresh;
                Diagnostics.StoreLog.EngineReopened(_logger, cause, StoreBackend.LiteDb, _directory, reopened: true);
                return true;
            }
            catch (Exception e) when (LiteDbErrors.IsStoreFailure(e))
            {
                Diagnostics.StoreLog.EngineReopened(_logger, e, StoreBackend.LiteDb, _directory, reopened: false);
                return false;
            }
        }
    }
}
