using System.Diagnostics.CodeAnalysis;
using System.Runtime.InteropServices;
using Rocks = DataStore.RocksDb.Interop.RocksDbNative;

namespace DataStore.RocksDb;

/// <summary>Turns RocksDB's error strings into <see cref="DataStoreException"/>s that name the store, the operation and the cause.</summary>
/// <remarks>
/// Callers pass an <c>errptr</c> that is zero before every call: RocksDB frees a non-null <c>*errptr</c> before storing
/// a new message, so a stale pointer left from an earlier error (say, in a retry loop) would be freed twice.
/// </remarks>
internal static class RocksDbErrors
{
    /// <summary>Throws when <paramref name="error"/> (a RocksDB <c>errptr</c>) is set, freeing it.</summary>
    public static void ThrowIf(IntPtr error, string directory, string operation)
    {
        if (error != IntPtr.Zero)
        {
            Throw(error, directory, operation);
        }
    }

    /// <summary>Reads and frees a RocksDB error string.</summary>
    public static string TakeMessage(IntPtr error)
    {
        var text = Marshal.PtrToStringUTF8(error) ?? "unknown error";
        Rocks.rocksdb_free(error);
        return text;
    }

    /// <summary>The exception for RocksDB's error <paramref name="text"/> during <paramref name="operation"/>.</summary>
    public static DataStoreException Exception(string directory, string operation, string text)
    {
        var (cause, advice) = Classify(text);
        return cause == StoreFailure.Corrupt
            ? new StoreFormatException(cause, directory, StoreBackend.RocksDb, $"{operation} failed: {text}{RocksDbDamage.FilesNamed(directory, text)}.{advice}")
            : new DataStoreException(cause, directory, StoreBackend.RocksDb, $"{operation} failed: {text}.{advice}");
    }

    /// <summary>
    /// True for the info-log rotation race: RocksDB renames <c>LOG</c> to <c>LOG.old.*</c> and deletes old ones before it
    /// takes <c>LOCK</c>, so a process opening the store at the same moment as another can find those files gone.
    /// </summary>
    public static bool IsInfoLogRace(string text) =>
        text.Contains("/LOG", StringComparison.Ordinal) && text.Contains("No such file or directory", StringComparison.OrdinalIgnoreCase);

    /// <summary>True when RocksDB reported damage (its status code Corruption).</summary>
    public static bool IsCorruption(string text) => text.StartsWith("Corruption", StringComparison.Ordinal);

    /// <summary>True when RocksDB refused to open because another process (or this one) holds the store's LOCK file.</summary>
    public static bool IsLockHeld(string text) =>
        text.Contains("LOCK", StringComparison.Ordinal) &&
        (text.Contains("Resource temporarily unavailable", StringComparison.OrdinalIgnoreCase) ||
         text.Contains("lock hold by current process", StringComparison.OrdinalIgnoreCase) ||
         text.Contains("No locks available", StringComparison.OrdinalIgnoreCase) ||
         text.Contains("another process has locked", StringComparison.OrdinalIgnoreCase));

    [DoesNotReturn]
    private static void Throw(IntPtr error, string directory, string operation) =>
        throw Exception(directory, operation, TakeMessage(error));

    private static (StoreFailure Cause, string Advice) Classify(string text)
    {
        if (text.Contains("Permission denied", StringComparison.OrdinalIgnoreCase) || text.Contains("Read-only file system", StringComparison.OrdinalIgnoreCase))
        {
            return (StoreFailure.AccessDenied, " Check the directory's permissions or open the store as its owner.");
        }

        if (text.Contains("No space left", StringComparison.OrdinalIgnoreCase))
        {
            return (StoreFailure.DiskFull, " The disk is full: free space and retry.");
        }

        // The resource limits the main package words the same way (its ResourceErrors is internal to it).
        if (text.Contains("File too large", StringComparison.OrdinalIgnoreCase))
        {
            return (StoreFailure.DiskFull, " A file reached the file size limit (RLIMIT_FSIZE, `ulimit -f`, or the file system's largest file): raise it and retry.");
        }

        if (text.Contains("Too many open files", StringComparison.OrdinalIgnoreCase))
        {
            return (StoreFailure.Io, " The process has no file descriptors left (too many open files): close other stores or raise `ulimit -n` and retry.");
        }

        if (IsCorruption(text))
        {
            return (StoreFailure.Corrupt, " The store's files are damaged; restore a backup.");
        }

        return text.StartsWith("IO error", StringComparison.Ordinal) ? (StoreFailure.Io, "") : (StoreFailure.Engine, "");
    }
}
