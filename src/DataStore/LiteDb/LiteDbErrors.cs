using LiteDB;

namespace DataStore.LiteDb;

/// <summary>Turns LiteDB's and the file system's exceptions into <see cref="DataStoreException"/>s naming the store.</summary>
internal sealed class LiteDbErrors(string directory)
{
    public DataStoreException Translate(Exception e, string operation) => e switch
    {
        DataStoreException known => known,
        LiteException { ErrorCode: LiteException.LOCK_TIMEOUT } => new StoreTimeoutException(directory, StoreBackend.LiteDb, TimeSpan.FromMinutes(1), e),
        LiteException { ErrorCode: LiteException.INVALID_DATABASE or LiteException.INVALID_DATAFILE_STATE or LiteException.INVALID_FREE_SPACE_PAGE } =>
            new StoreFormatException(StoreFailure.Corrupt, directory, StoreBackend.LiteDb, $"{operation} failed: the LiteDB file {DataFile} (or its log, {LiteDbStore.LogFile}) is damaged ({e.Message}).", e),
        LiteException => new DataStoreException(StoreFailure.Engine, directory, StoreBackend.LiteDb, $"{operation} failed: LiteDB error {((LiteException)e).ErrorCode}: {e.Message}", e),
        UnauthorizedAccessException => new DataStoreException(StoreFailure.AccessDenied, directory, StoreBackend.LiteDb,
            $"{operation} failed: access denied ({e.Message}). Check the directory's permissions or open the store as its owner.", e),
        _ when ResourceErrors.From(e) is var (cause, words) =>
            new DataStoreException(cause, directory, StoreBackend.LiteDb, $"{operation} failed: {words} ({e.Message})", e),
        IOException => new DataStoreException(StoreFailure.Io, directory, StoreBackend.LiteDb, $"{operation} failed: file system error: {e.Message}", e),
        InvalidDataException => new StoreFormatException(StoreFailure.Corrupt, directory, StoreBackend.LiteDb, $"{operation} failed: {DataFile} is damaged: {e.Message}", e),
        MissingMemberException => new DataStoreException(StoreFailure.Unavailable, directory, StoreBackend.LiteDb, $"{operation} failed: {e.Message}", e),
        _ when e.Source == LiteDbAssembly => new DataStoreException(StoreFailure.Engine, directory, StoreBackend.LiteDb,
            $"{operation} failed inside LiteDB ({e.GetType().Name}: {e.Message}). LiteDB failing is not by itself a sign of damage: datastore verify checks the store.", e),
        _ => new DataStoreException(StoreFailure.Engine, directory, StoreBackend.LiteDb, $"{operation} failed: {e.Message}", e),
    };

    private string DataFile => Path.Combine(directory, LiteDbStore.DataFile);

    /// <summary>
    /// True for the failures after which LiteDB has closed its engine (a failed internal check, an I/O error) or stopped
    /// serving it; a closed engine's disposed locks throw ObjectDisposedException (callers rule out their own disposal).
    /// </summary>
    public static bool StopsEngine(Exception e) => e is IOException or ObjectDisposedException || ResourceErrors.IsFileTooLarge(e) ||
        Platform.LibraryThreads.IsStartFailure(e) || // its log writer never started: the engine's queue would never empty
        e is LiteException { ErrorCode: LiteException.INVALID_DATAFILE_STATE or LiteException.ENGINE_DISPOSED } ||
        e is LiteException { Message: "Maximum number of transactions reached" };

    private static readonly string? LiteDbAssembly = typeof(LiteException).Assembly.GetName().Name;

    /// <summary>
    /// True for exceptions <see cref="Translate"/> should turn into a DataStore exception (not argument or disposal errors),
    /// including any exception LiteDB's own code threw, such as an IndexOutOfRangeException from inside a query.
    /// </summary>
    public static bool IsStoreFailure(Exception e) => ResourceErrors.IsFileTooLarge(e) || Platform.LibraryThreads.IsStartFailure(e) ||
        e is LiteException or IOException or UnauthorizedAccessException or InvalidDataException or MissingMemberException or InvalidOperationException and not ObjectDisposedException ||
        (e is not ArgumentException and not ObjectDisposedException && e.Source == LiteDbAssembly);
}
