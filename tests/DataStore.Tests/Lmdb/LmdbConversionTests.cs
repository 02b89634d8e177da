using DataStore.Lmdb.Files;

namespace DataStore.Tests.Lmdb;

/// <summary>
/// Stores written by LMDB 0.9 (every LMDB store DataStore made on Linux before ADR 0016) open under LMDB 1.0.1: the
/// data file is converted once, and a process killed at any step of the conversion leaves a store that opens with
/// every pair.
/// </summary>
public sealed class LmdbConversionTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public void A_store_written_by_LMDB_0_9_opens_with_every_pair_after_a_one_time_conversion()
    {
        var path = _directory.Sub("store");
        LmdbFixtureStore.CopyTo(path);
        Assert.Same(LmdbFileLayout.Lmdb09, Layout(path));

        using (var store = KeyValueStore.Open(Options(path)))
        {
            LmdbFixtureStore.AssertHoldsPairs(store);
            store.Put("after"u8, "conversion"u8);
        }

        Assert.Same(LmdbFileLayout.Lmdb10, Layout(path));
        Assert.Equal("LMDB 1.0", File.ReadAllText(Path.Combine(path, LmdbFormatRecord.FileName)));
        Assert.Empty(Directory.GetFiles(path, "*.convert*"));
        using var reopened = KeyValueStore.Open(Options(path));
        Assert.Equal("conversion"u8.ToArray(), reopened.Get("after"u8));
        Assert.Equal(LmdbFixtureStore.Pairs().Count + 1, Conformance.StoreAssert.Scan(reopened, []).Count);
    }

    [Theory]
    [InlineData("created")]
    [InlineData("written")]
    [InlineData("renamed")]
    public void A_conversion_killed_at_any_step_leaves_a_store_that_opens_with_every_pair(string step)
    {
        var path = _directory.Sub("store");
        LmdbFixtureStore.CopyTo(path);

        var (exitCode, output) = ChildProcess.Run(["open-lmdb09-killed-at", path, "Lmdb", "-", step]);
        Assert.True(output.Contains($"KILL {step}", StringComparison.Ordinal) && exitCode != 0, $"the child should have been killed at '{step}': exit {exitCode}, output: {output}");

        using var store = KeyValueStore.Open(Options(path));
        LmdbFixtureStore.AssertHoldsPairs(store);
        Assert.Same(LmdbFileLayout.Lmdb10, Layout(path));
        Assert.Equal("LMDB 1.0", File.ReadAllText(Path.Combine(path, LmdbFormatRecord.FileName)));
        Assert.Empty(Directory.GetFiles(path, "*.convert*"));
    }

    public void Dispose() => _directory.Dispose();

    private static DataStoreOptions Options(string path) =>
        new() { Path = path, Backend = StoreBackend.Lmdb, Timeout = TimeSpan.FromSeconds(10) };

    private static LmdbFileLayout? Layout(string path)
    {
        var first = new byte[512];
        using (var file = File.OpenRead(Path.Combine(path, "store.lmdb")))
        {
            file.ReadExactly(first);
        }

        return LmdbDataFile.Identify(first);
    }
}
