using System.Diagnostics;
using System.Globalization;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.LiteDb;

/// <summary>
/// The LiteDb integrity check (the owner runs it for <c>datastore verify</c> from another process) lets writers in
/// between its chunks: a writer with a short timeout never times out while it runs (issue 14 item 6: at 200,000
/// pairs the check held the writer lock for its whole read, and an app's write with a 5 s timeout failed).
/// </summary>
public sealed class LiteDbIntegrityWritersTests : IDisposable
{
    private static readonly TimeSpan WriterTimeout = TimeSpan.FromMilliseconds(150);
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public async Task Writers_with_a_short_timeout_all_succeed_while_the_integrity_check_runs()
    {
        using var store = KeyValueStore.Open(new DataStoreOptions { Path = _directory.Path, Backend = StoreBackend.LiteDb, Timeout = WriterTimeout });
        var batch = new WriteBatch();
        for (var i = 0; i < 20_000; i++)
        {
            batch.Put(Bytes.Utf8($"mods/{i:D7}"), Bytes.Random(100, i));
            if (batch.Count == 1_000)
            {
                store.Write(batch);
                batch.Clear();
            }
        }

        var clock = Stopwatch.StartNew();
        var check = Task.Run(() => ((KeyValueStoreBase)store).CheckIntegrityCore(CancellationToken.None));
        var failures = new List<string>();
        var writes = 0;
        while (!check.IsCompleted)
        {
            try
            {
                store.Put(Bytes.Utf8($"app/{writes++:D8}"), [1]);
            }
            catch (StoreTimeoutException e)
            {
                failures.Add(e.Message);
            }

            Thread.Sleep(5);
        }

        var took = clock.Elapsed;
        Assert.Empty(await check);
        Assert.SkipWhen(failures.Count == 0 && took < 3 * WriterTimeout,
            string.Create(CultureInfo.InvariantCulture, $"the check of 20,000 pairs took only {took.TotalMilliseconds:0} ms, too quick to show a writer held for its whole read"));
        Assert.True(failures.Count == 0,
            string.Create(CultureInfo.InvariantCulture, $"{failures.Count} of {writes} writes timed out ({WriterTimeout.TotalMilliseconds:0} ms) during a {took.TotalMilliseconds:0} ms integrity check: {failures[0]}"));
    }

    public void Dispose() => _directory.Dispose();
}
