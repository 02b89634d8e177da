using System.Diagnostics.CodeAnalysis;

namespace DataStore.Lmdb;

/// <summary>Turns LMDB result codes (its own negative codes, or errno values) into exceptions naming the store, the backend and the cause.</summary>
internal sealed class LmdbErrors(string directory, TimeSpan timeout) : Writes.IWriteErrors
{
    private const int EPerm = 1;
    private const int EIo = 5;
    private const int EAccess = 13;
    private const int EReadOnlyFs = 30;

    public string Directory => directory;

    public TimeSpan Timeout => timeout;

    /// <summary>Throws unless <paramref name="rc"/> is success.</summary>
    public void Check(int rc, string operation)
    {
        if (rc != LmdbNative.Success)
        {
            Throw(rc, operation);
        }
    }

    [DoesNotReturn]
    public void Throw(int rc, string operation) => throw Translate(rc, operation);

    public DataStoreException Translate(int rc, string operation)
    {
        var detail = $"{operation} failed: {LmdbNative.Describe(rc)} (LMDB code {rc})";
        return rc switch
        {
            LmdbNative.Corrupted or LmdbNative.PageNotFound or LmdbNative.Invalid or LmdbNative.VersionMismatch or LmdbNative.BadChecksum or LmdbNative.Panic =>
                new StoreFormatException(StoreFailure.Corrupt, directory, StoreBackend.Lmdb,
                    $"{detail}. The LMDB file '{Path.Combine(directory, LmdbEnvironment.DataFile)}' is damaged, or was written by an incompatible LMDB version (this build uses {LmdbNative.VersionString()})."),
            LmdbNative.ShortWrite => new DataStoreException(StoreFailure.DiskFull, directory, StoreBackend.Lmdb,
                $"{detail}. A write stopped short: the disk is full or a file reached the file size limit. Free space (or raise the limit) and retry."),
            _ when ResourceErrors.FromErrno(rc) is var (cause, words) => new DataStoreException(cause, directory, StoreBackend.Lmdb, $"{detail}: {words}"),
            EAccess or EPerm or EReadOnlyFs => new DataStoreException(StoreFailure.AccessDenied, directory, StoreBackend.Lmdb,
                $"{detail}. Check that this user may read and write the store's directory and files."),
            EIo => new DataStoreException(StoreFailure.Io, directory, StoreBackend.Lmdb, detail),
            _ => new DataStoreException(StoreFailure.Engine, directory, StoreBackend.Lmdb, detail),
        };
    }

    /// <summary>The exception for a wait on another writer that outlasted the timeout.</summary>
    public StoreTimeoutException TimedOut() => new(directory, StoreBackend.Lmdb, timeout);
}
