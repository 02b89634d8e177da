using System.Reflection;
using DataStore.LiteDb;
using DataStore.Tests.Conformance;
using LiteDB;
using LiteDB.Engine;
using Microsoft.Extensions.Logging.Abstractions;

namespace DataStore.Tests.LiteDb;

/// <summary>
/// LiteDB closes its engine after a failed internal check (as its threading defect caused on intact files, issue 20
/// part 6) and then fails every later call with that check's error, so an open store kept calling an intact file
/// damaged until it was reopened. The store now opens a fresh engine and carries on.
/// </summary>
public sealed class LiteDbEngineStopTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public void After_LiteDB_stops_its_engine_on_an_intact_file_the_open_store_reads_and_writes_again()
    {
        using var store = LiteDbStore.Open(_directory.Path, Durability.Relaxed, new DataStoreOptions { Path = _directory.Path, Backend = StoreBackend.LiteDb }, NullLogger.Instance);
        store.Put("a"u8, "1"u8);
        Stop(store, new LiteException(LiteException.INVALID_DATAFILE_STATE, "pages in memory store must be non-shared"));

        Assert.Equal("1"u8.ToArray(), store.Get("a"u8));
        store.Put("b"u8, "2"u8);
        Assert.True(store.HaveKey("b"u8));

        Stop(store, new LiteException(LiteException.INVALID_DATAFILE_STATE, "pages in memory store must be non-shared"));
        store.Put("c"u8, "3"u8); // refused by the stopped engine at its start, so run again on a fresh one
        Assert.Equal(["a", "b", "c"], StoreAssert.Scan(store, [], keysOnly: true).Select(p => System.Text.Encoding.ASCII.GetString(p.Key)));
    }

    public void Dispose() => _directory.Dispose();

    // What LiteDB does itself after a failed internal check: LiteEngine.Close(exception), which keeps the exception for every later call.
    private static void Stop(LiteDbStore store, Exception cause)
    {
        var db = typeof(LiteDbStore).GetField("_db", BindingFlags.NonPublic | BindingFlags.Instance)!.GetValue(store)!;
        var engine = (LiteEngine)db.GetType().GetProperty("Engine")!.GetValue(db)!;
        typeof(LiteEngine).GetMethod("Close", BindingFlags.NonPublic | BindingFlags.Instance, [typeof(Exception)])!.Invoke(engine, [cause]);
    }
}
