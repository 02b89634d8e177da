using System.Reflection;
using System.Runtime.InteropServices;
using DataStore.Benchmarks.Ycsb;
using LightningDB;

namespace DataStore.Benchmarks.Peers;

/// <summary>
/// LMDB as a .NET developer would drive it by hand with LightningDB's API: a 4 GiB map, <c>MDB_NOSYNC</c> (no sync
/// per commit, like DataStore's Relaxed level), <c>MDB_NOTLS</c>, a read-only transaction per read or scan, a write
/// transaction per write. On Linux its <c>lmdb</c> imports load the LMDB 1.0.1 build DataStore ships
/// (LightningDB's own needs glibc 2.38).
/// </summary>
public sealed class LmdbPeer : IYcsbTarget
{
    private readonly LightningEnvironment _environment;
    private readonly LightningDatabase _database;

    static LmdbPeer()
    {
        if (OperatingSystem.IsLinux())
        {
            NativeLibrary.SetDllImportResolver(typeof(LightningEnvironment).Assembly, Resolve);
        }
    }

    public LmdbPeer(string directory)
    {
        _environment = new LightningEnvironment(directory, new EnvironmentConfiguration { MapSize = 4L << 30 });
        _environment.Open(EnvironmentOpenFlags.NoSync | EnvironmentOpenFlags.NoThreadLocalStorage);
        using var transaction = _environment.BeginTransaction();
        _database = transaction.OpenDatabase(configuration: new DatabaseConfiguration { Flags = DatabaseOpenFlags.Create });
        transaction.Commit();
    }

    public void Load(IReadOnlyList<(byte[] Key, byte[] Value)> pairs)
    {
        using var transaction = _environment.BeginTransaction();
        foreach (var (key, value) in pairs)
        {
            transaction.Put(_database, key, value);
        }

        transaction.Commit();
    }

    public int Read(ReadOnlySpan<byte> key, Span<byte> buffer)
    {
        using var transaction = _environment.BeginTransaction(TransactionBeginFlags.ReadOnly);
        var (code, _, value) = transaction.Get(_database, key);
        if (code != MDBResultCode.Success)
        {
            return -1;
        }

        value.CopyTo(buffer);
        return value.AsSpan().Length;
    }

    public void Write(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        using var transaction = _environment.BeginTransaction();
        transaction.Put(_database, key, value);
        transaction.Commit();
    }

    public int Scan(ReadOnlySpan<byte> start, int count)
    {
        using var transaction = _environment.BeginTransaction(TransactionBeginFlags.ReadOnly);
        using var cursor = transaction.CreateCursor(_database);
        var read = 0;
        if (cursor.SetRange(start) != MDBResultCode.Success)
        {
            return 0;
        }

        var (code, _, value) = cursor.GetCurrent();
        while (code == MDBResultCode.Success && read < count)
        {
            read += value.AsSpan().Length > 0 ? 1 : 0;
            (code, _, value) = cursor.Next();
        }

        return read;
    }

    public void Dispose()
    {
        _database.Dispose();
        _environment.Dispose();
    }

    private static nint Resolve(string name, Assembly assembly, DllImportSearchPath? searchPath)
    {
        var path = Path.Combine(AppContext.BaseDirectory, "runtimes", RuntimeInformation.RuntimeIdentifier.StartsWith("linux-arm64", StringComparison.Ordinal) ? "linux-arm64" : "linux-x64", "native", "libdatastore-lmdb.so");
        return name == "lmdb" && NativeLibrary.TryLoad(path, out var handle) ? handle : 0;
    }
}
