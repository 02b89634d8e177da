using DataStore.Lmdb;
using Microsoft.Extensions.Logging.Abstractions;

namespace DataStore.Tests.Lmdb;

/// <summary>Opens LMDB stores with a chosen starting map size, which only a new store takes (existing ones open at the size their file records).</summary>
internal static class LmdbTestStores
{
    public const long OneMebibyte = 1 << 20;

    /// <summary>Opens (creating) an LMDB store whose map starts at <paramref name="initialMapSize"/> bytes, with a manifest so other processes can open it.</summary>
    public static LmdbStore OpenSmall(string path, long initialMapSize = OneMebibyte, Durability durability = Durability.Relaxed, TimeSpan? timeout = null)
    {
        var options = new DataStoreOptions { Path = path, Backend = StoreBackend.Lmdb, Durability = durability, Timeout = timeout ?? TimeSpan.FromSeconds(30) };
        // Past KeyValueStore.Open, which routes the backend's imports to our LMDB 1.0: a test run alone would otherwise load
        // the system's LMDB 0.9 and write a 0.9 file, which a child process then waits to convert.
        LmdbLibrary.InstallResolver();
        Directory.CreateDirectory(path);
        Manifest.StoreManifest.OpenOrCreate(path, options);
        return LmdbStore.Open(Path.GetFullPath(path), durability, options, NullLogger.Instance, initialMapSize);
    }

    /// <summary>Creates an LMDB store at <paramref name="path"/> holding 2,000 pairs (<c>key/00000</c>... with 100-byte values), closed again, for the damage tests.</summary>
    public static string WithPairs(string path)
    {
        using var store = KeyValueStore.Open(new DataStoreOptions { Path = path, Backend = StoreBackend.Lmdb });
        var batch = new WriteBatch();
        for (var i = 0; i < 2_000; i++)
        {
            batch.Put(System.Text.Encoding.ASCII.GetBytes($"key/{i:D5}"), new byte[100]);
        }

        store.Write(batch);
        return path;
    }

    /// <summary>Writes a stored key and value into the database <paramref name="dbi"/> as they lie in the LMDB file, past the backend's own encoding.</summary>
    public static unsafe void PutRaw(LmdbStore store, uint dbi, ReadOnlySpan<byte> stored, ReadOnlySpan<byte> value)
    {
        var env = store.Environment;
        Assert.Equal(0, LmdbNative.TxnBegin(env.RawHandle, 0, 0, out var txn));
        fixed (byte* k = stored, v = value)
        {
            var keyVal = new LmdbNative.Val(k, stored.Length);
            var data = new LmdbNative.Val(v, value.Length);
            Assert.Equal(0, LmdbNative.Put(txn, dbi, &keyVal, &data, 0));
        }

        Assert.Equal(0, LmdbNative.TxnCommit(txn));
    }

    public static byte[] Filled(int size, int seed)
    {
        var value = new byte[size];
        Array.Fill(value, (byte)seed);
        return value;
    }
}
