using System.Diagnostics.CodeAnalysis;
using DataStore.Transfer;

namespace DataStore.Integrity;

/// <summary>The error a read gives instead of a pair that does not match what was written.</summary>
internal static class PairDamage
{
    /// <summary>A <see cref="StoreFormatException"/> (Corrupt) naming the key whose stored pair failed its check.</summary>
    public static StoreFormatException Exception(string directory, StoreBackend backend, ReadOnlySpan<byte> key, string where) =>
        new(StoreFailure.Corrupt, directory, backend,
            $"the pair stored for key {KeyText.Describe(key)} in {Holder(directory, backend)} is damaged ({where}); its value is not returned. " +
            "Restore the store from a backup, or run verify to list every damaged pair.");

    // The file a damaged pair was read from, so the error names it (rule 10).
    private static string Holder(string directory, StoreBackend backend) => backend switch
    {
        StoreBackend.Sqlite => $"'{Path.Combine(directory, "store.sqlite")}' (or its write-ahead log, store.sqlite-wal)",
        StoreBackend.Lmdb => $"'{Path.Combine(directory, "store.lmdb")}'",
        StoreBackend.LiteDb => $"'{Path.Combine(directory, "store.litedb")}' (or its log, store-log.litedb)",
        StoreBackend.FileSystem => $"'{Path.Combine(directory, "data")}'",
        _ => $"the {backend} store's files",
    };

    /// <summary>Throws <see cref="Exception"/>.</summary>
    [DoesNotReturn]
    public static void Throw(string directory, StoreBackend backend, ReadOnlySpan<byte> key, string where) =>
        throw Exception(directory, backend, key, where);
}
