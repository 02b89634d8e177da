using System.Security.Cryptography;

namespace DataStore.Lmdb.Files;

/// <summary>
/// Converts a data file written by LMDB 0.9 into LMDB 1.0's format, once, when the store is first opened with this
/// DataStore (ADR 0016). Crash-safe: the pairs are read with our own reader (<see cref="LmdbTreeReader"/>), written
/// into a new file beside the old one, synced, read back and compared (count and SHA-256); only then is the new file
/// renamed over the old one and the directory synced. A process killed at any step leaves the old file or the whole
/// new one, and the next open finishes the job. The caller holds the store to itself (the open lock, exclusive).
/// </summary>
internal static unsafe class LmdbConversion
{
    private const string Suffix = ".convert";
    private const uint Append = 0x20000;
    private const int PairsPerTransaction = 10_000;

    /// <summary>Called with the name of each step reached ("created", "written", "renamed"), so tests can kill the process there.</summary>
    internal static Action<string>? StepReached { get; set; }

    /// <summary>Whether <paramref name="file"/> is in LMDB 0.9's format and needs converting.</summary>
    public static bool Needed(LmdbDataFile file) => file.Meta.Layout == LmdbFileLayout.Lmdb09;

    /// <summary>Removes what a conversion killed before its rename left behind.</summary>
    public static void RemoveLeftovers(string dataFile)
    {
        File.Delete(dataFile + Suffix);
        File.Delete(dataFile + Suffix + "-lock");
    }

    /// <summary>Replaces the LMDB 0.9 data file <paramref name="dataFile"/> by an LMDB 1.0 file holding the same pairs.</summary>
    public static void Run(string directory, string dataFile, LmdbErrors errors)
    {
        var staging = dataFile + Suffix;
        StoreFiles.Guard(directory, StoreBackend.Lmdb, () =>
        {
            RemoveLeftovers(dataFile);
            return 0;
        });

        using (var old = StoreFiles.Guard(directory, StoreBackend.Lmdb, () => LmdbDataFile.Open(directory, dataFile)))
        {
            Write(old, staging, errors);
        }

        StepReached?.Invoke("written");
        StoreFiles.Guard(directory, StoreBackend.Lmdb, () =>
        {
            File.Move(staging, dataFile, overwrite: true);
            File.Delete(dataFile + "-lock"); // LMDB 0.9's lock file; 1.0 makes its own
            File.Delete(staging + "-lock");
            Platform.DirectorySync.Sync(directory);
            return 0;
        });
        StepReached?.Invoke("renamed");
        StoreFiles.Guard(directory, StoreBackend.Lmdb, () =>
        {
            LmdbFormatRecord.Write(System.IO.Path.Combine(directory, LmdbFormatRecord.FileName), LmdbFileLayout.Lmdb10);
            return 0;
        });
    }

    // Copies every pair into a new LMDB 1.0 file at staging, syncs it, and checks it holds the same pairs.
    private static void Write(LmdbDataFile old, string staging, LmdbErrors errors)
    {
        errors.Check(LmdbNative.EnvCreate(out var env), "creating the LMDB environment for the conversion");
        try
        {
            errors.Check(LmdbNative.EnvSetMapSize(env, (nuint)(old.Length * 2 + (64L << 20))), "sizing the converted file");
            errors.Check(LmdbNative.EnvOpen(env, staging, LmdbNative.NoSubDir | LmdbNative.NoTls | LmdbNative.NoSync, Convert.ToInt32("664", 8)), "creating the converted file");
            StepReached?.Invoke("created");
            var (hash, pairs) = Copy(old, env, errors);
            errors.Check(LmdbNative.EnvSync(env, 1), "syncing the converted file");
            var (check, count) = ReadBack(env, errors);
            if (count != pairs || !check.AsSpan().SequenceEqual(hash))
            {
                throw new DataStoreException(StoreFailure.Engine, old.Directory, StoreBackend.Lmdb,
                    $"converting {old.Path} from LMDB 0.9 to 1.0 wrote {count} pairs that differ from the {pairs} it read; the old file is left as it was.");
            }
        }
        finally
        {
            LmdbNative.EnvClose(env);
        }
    }

    private static (byte[] Hash, ulong Pairs) Copy(LmdbDataFile old, nint env, LmdbErrors errors)
    {
        using var hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        ulong pairs = 0;
        nint txn = 0;
        uint dbi = 0;
        try
        {
            new LmdbTreeReader(old).Walk(old.Meta.Main, "main", (key, value) =>
            {
                if (txn == 0)
                {
                    errors.Check(LmdbNative.TxnBegin(env, 0, 0, out txn), "beginning a conversion transaction");
                    errors.Check(LmdbNative.DbiOpen(txn, null, 0, out dbi), "opening the converted database");
                }

                fixed (byte* k = key, v = value)
                {
                    var keyVal = new LmdbNative.Val(k, key.Length);
                    var valueVal = new LmdbNative.Val(v, value.Length);
                    errors.Check(LmdbNative.Put(txn, dbi, &keyVal, &valueVal, Append), "writing a converted pair");
                }

                Add(hash, key, value);
                if (++pairs % PairsPerTransaction == 0)
                {
                    var rc = LmdbNative.TxnCommit(txn);
                    txn = 0;
                    errors.Check(rc, "committing converted pairs");
                }
            });

            if (txn != 0)
            {
                var rc = LmdbNative.TxnCommit(txn);
                txn = 0;
                errors.Check(rc, "committing converted pairs");
            }
        }
        finally
        {
            if (txn != 0)
            {
                LmdbNative.TxnAbort(txn);
            }
        }

        return (hash.GetHashAndReset(), pairs);
    }

    private static (byte[] Hash, ulong Pairs) ReadBack(nint env, LmdbErrors errors)
    {
        using var hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        ulong pairs = 0;
        errors.Check(LmdbNative.TxnBegin(env, 0, LmdbNative.ReadOnly, out var txn), "reading the converted file back");
        try
        {
            errors.Check(LmdbNative.DbiOpen(txn, null, 0, out var dbi), "reading the converted file back");
            errors.Check(LmdbNative.CursorOpen(txn, dbi, out var cursor), "reading the converted file back");
            try
            {
                LmdbNative.Val key, data;
                var rc = LmdbNative.CursorGet(cursor, &key, &data, LmdbNative.First);
                for (; rc == LmdbNative.Success; rc = LmdbNative.CursorGet(cursor, &key, &data, LmdbNative.Next))
                {
                    Add(hash, key.Span, data.Span);
                    pairs++;
                }

                if (rc != LmdbNative.NotFound)
                {
                    errors.Throw(rc, "reading the converted file back");
                }
            }
            finally
            {
                LmdbNative.CursorClose(cursor);
            }
        }
        finally
        {
            LmdbNative.TxnAbort(txn);
        }

        return (hash.GetHashAndReset(), pairs);
    }

    private static void Add(IncrementalHash hash, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        Span<byte> lengths = stackalloc byte[8];
        System.Buffers.Binary.BinaryPrimitives.WriteInt32LittleEndian(lengths, key.Length);
        System.Buffers.Binary.BinaryPrimitives.WriteInt32LittleEndian(lengths[4..], value.Length);
        hash.AppendData(lengths);
        hash.AppendData(key);
        hash.AppendData(value);
    }
}
