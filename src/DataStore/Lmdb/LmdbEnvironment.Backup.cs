using DataStore.Backup;

namespace DataStore.Lmdb;

internal sealed partial class LmdbEnvironment
{
    /// <summary>
    /// Writes a compacting copy of the environment (<c>mdb_env_copy2</c> with <c>MDB_CP_COMPACT</c>, one read
    /// transaction, so a snapshot) to <paramref name="destination"/>'s data file. Writers keep going; only a write
    /// that needs to grow the map in this process waits for the copy, because the map cannot move under it.
    /// </summary>
    public void Backup(LmdbErrors errors, string destination)
    {
        // Held like an open scan: the environment outlives a store disposed meanwhile, and Compact waits for the copy.
        AddCursor();
        try
        {
            CopyTo(errors, System.IO.Path.Combine(destination, DataFile));
        }
        finally
        {
            RemoveCursor();
        }

        BackupFiles.CopyFile(Directory, destination, Files.LmdbFormatRecord.FileName);
    }

    private void CopyTo(LmdbErrors errors, string target)
    {
        while (true)
        {
            int rc;
            var seat = Gate.Enter();
            try
            {
                rc = LmdbNative.EnvCopy2(Handle(errors), target, LmdbNative.CopyCompact);
            }
            finally
            {
                Gate.Exit(seat);
            }

            if (rc != LmdbNative.MapResized)
            {
                errors.Check(rc, $"copying the environment to {target}");
                break;
            }

            // Another process grew the map: adopt its size (outside the gate) and copy again.
            File.Delete(target);
            AdoptMapSize(errors);
        }
    }
}
