using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;
using Rocks = DataStore.RocksDb.Interop.RocksDbNative;

namespace DataStore.RocksDb;

/// <summary>
/// Opens the RocksDB database in a store directory. RocksDB lets one process at a time open a database (its
/// <c>LOCK</c> file); while another process holds it, opening waits up to the store's timeout and then fails
/// with a <see cref="DataStoreException"/> naming that process, which records its id in <see cref="OwnerFile"/>.
/// </summary>
internal static class RocksDbOpener
{
    /// <summary>The file beside RocksDB's <c>LOCK</c> where the process that holds the store writes its id.</summary>
    public const string OwnerFile = "LOCK.pid";

    private static readonly TimeSpan MaxPause = TimeSpan.FromMilliseconds(200);

    /// <summary>Opens the database, creating it if needed; returns the <c>rocksdb_t</c> handle.</summary>
    public static IntPtr Open(string directory, RocksDbOptions options, TimeSpan timeout) => Open(directory, options, timeout, [], out _);

    /// <summary>
    /// Opens the database with its column families besides the default one (RocksDB refuses an open that leaves one out);
    /// <paramref name="handles"/> receives the default family's handle and then one per name, empty when there are none.
    /// </summary>
    public static IntPtr Open(string directory, RocksDbOptions options, TimeSpan timeout, string[] families, out IntPtr[] handles)
    {
        var waited = Stopwatch.StartNew();
        var pause = TimeSpan.FromMilliseconds(10);
        var name = Marshal.StringToCoTaskMemUTF8(directory);
        try
        {
            while (true)
            {
                var error = IntPtr.Zero;
                var db = OpenOnce(options, name, families, out handles, out error);
                if (error == IntPtr.Zero)
                {
                    RecordOwner(directory);
                    return db;
                }

                var text = RocksDbErrors.TakeMessage(error);
                if (RocksDbErrors.IsInfoLogRace(text) && waited.Elapsed < timeout)
                {
                    Thread.Sleep(pause); // another process is opening the store at this moment; its LOCK decides who waits
                    continue;
                }

                if (RocksDbErrors.IsCorruption(text) && RocksDbWalHole.TryOpen(directory, options, name, families, out handles) is var recovered && recovered != IntPtr.Zero)
                {
                    RecordOwner(directory);
                    return recovered;
                }

                if (!RocksDbErrors.IsLockHeld(text))
                {
                    throw RocksDbErrors.Exception(directory, "Opening the RocksDB database", text);
                }

                if (text.Contains("current process", StringComparison.OrdinalIgnoreCase))
                {
                    throw new DataStoreException(StoreFailure.Engine, directory, StoreBackend.RocksDb,
                        $"the store is already open in this process ({Environment.ProcessId}); RocksDB allows one open instance of a store per process. Share that IKeyValueStore instead of opening the store again.");
                }

                if (waited.Elapsed >= timeout)
                {
                    throw new StoreTimeoutException(directory, StoreBackend.RocksDb, timeout,
                        $"the store is held by {Holder(directory)}, and RocksDB lets one process at a time open a store; waited {timeout.TotalSeconds:0.###} s. " +
                        "Close the other program (or wait for it to finish), or raise DataStoreOptions.Timeout.");
                }

                // Never sleep past the deadline: the last attempt runs at it, so the wait ends within the timeout plus one attempt.
                var left = timeout - waited.Elapsed;
                Thread.Sleep(pause < left ? pause : left);
                pause = pause * 2 < MaxPause ? pause * 2 : MaxPause;
            }
        }
        finally
        {
            Marshal.FreeCoTaskMem(name);
        }
    }

    /// <summary>One attempt to open the database with its column families (<see cref="Open(string, RocksDbOptions, TimeSpan, string[], out IntPtr[])"/>).</summary>
    public static IntPtr OpenOnce(RocksDbOptions options, IntPtr name, string[] families, out IntPtr[] handles, out IntPtr error)
    {
        if (families.Length == 0)
        {
            handles = [];
            return Rocks.rocksdb_open(options.Handle, name, out error);
        }

        string[] names = ["default", .. families];
        handles = new IntPtr[names.Length];
        return Rocks.rocksdb_open_column_families(options.Handle, name, names.Length, names, [.. names.Select(_ => options.Handle)], handles, out error);
    }

    /// <summary>Removes the owner record; called by the holder just before it closes the database.</summary>
    public static void ForgetOwner(string directory)
    {
        try
        {
            File.Delete(Path.Combine(directory, OwnerFile));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // A stale record is harmless: the next holder overwrites it, and it is read only while the LOCK is held.
        }
    }

    private static void RecordOwner(string directory)
    {
        try
        {
            File.WriteAllText(Path.Combine(directory, OwnerFile), Environment.ProcessId.ToString(CultureInfo.InvariantCulture));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // Only the "held by process N" message depends on it.
        }
    }

    private static string Holder(string directory)
    {
        try
        {
            var text = File.ReadAllText(Path.Combine(directory, OwnerFile)).Trim();
            return int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var pid) ? $"process {pid}" : "another process";
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return "another process";
        }
    }
}
