using DataStore.Backup;

namespace DataStore.Lmdb;

/// <summary>
/// An online LMDB backup: the environment's compacting copy (one snapshot), its format file and the manifest.
/// <c>mdb_env_copy2</c> is a single call, so progress is reported before and after it and cancellation is honoured
/// only between those points.
/// </summary>
internal static class LmdbBackup
{
    public static void Copy(LmdbEnvironment env, LmdbErrors errors, string destination, IProgress<StoreProgress>? progress, CancellationToken cancellationToken)
    {
        var estimate = new FileInfo(System.IO.Path.Combine(env.Directory, LmdbEnvironment.DataFile)).Length;
        progress?.Report(new StoreProgress(StorePhase.BackingUp, 0, 0, null, estimate));
        cancellationToken.ThrowIfCancellationRequested();
        env.Backup(errors, destination);
        cancellationToken.ThrowIfCancellationRequested();
        BackupFiles.CopyManifest(env.Directory, destination);
        var copied = new FileInfo(System.IO.Path.Combine(destination, LmdbEnvironment.DataFile)).Length;
        progress?.Report(new StoreProgress(StorePhase.BackingUp, 0, copied, null, copied));
    }
}
