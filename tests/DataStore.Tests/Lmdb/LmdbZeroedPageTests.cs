using System.Buffers.Binary;
using DataStore.Lmdb.Files;

namespace DataStore.Tests.Lmdb;

/// <summary>
/// A page of the data file zeroed (issue 20 item 3, issue 23 item 6): LMDB aborts the process on it (its
/// <c>IS_LEAF</c> assertion), so our own reader checks before LMDB trusts a page: the main tree at open (up to a page
/// budget, <c>LmdbTreeCheck</c>), and every page of both trees in verify. Run in child processes, where an abort shows
/// as exit 134.
/// </summary>
public sealed class LmdbZeroedPageTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public void A_zeroed_leaf_page_is_a_corrupt_error_at_open_naming_the_file_not_an_abort_in_the_first_scan()
    {
        var path = StoreWithPairs();
        var dataFile = Path.Combine(path, "store.lmdb");
        ZeroPage(dataFile, FirstLeaf(path, dataFile));

        // read-all scans first: LMDB's cursor used to abort the process on the zeroed leaf (exit 134, IS_LEAF).
        var (exitCode, output) = ChildProcess.Run(["read-all", path, "Lmdb"]);
        Assert.True(exitCode == 3, $"expected a DataStoreException (exit 3), got exit {exitCode}: {output}");
        Assert.Contains("ERROR Corrupt StoreFormatException", output);
        Assert.Contains($"the LMDB data file {dataFile} is damaged", output);
        Assert.Contains("should be a leaf page", output);
    }

    [Fact]
    public void Verify_reports_a_zeroed_leaf_page_naming_the_file_instead_of_aborting()
    {
        var path = StoreWithPairs();
        var dataFile = Path.Combine(path, "store.lmdb");
        ZeroPage(dataFile, FirstLeaf(path, dataFile));

        var verify = Cli.DatastoreTool.Run(_directory.Path, ["verify", "--store", path, "--quiet"]); // fails the test past 60 s
        Assert.True(verify.ExitCode == 4, $"expected verify to report damage (exit 4), got exit {verify.ExitCode}: {verify.Text} {verify.Error}");
        Assert.Contains($"the LMDB data file {dataFile} is damaged", verify.Text + verify.Error);
    }

    [Fact]
    public void Opening_a_store_whose_root_page_is_zeroed_is_a_corrupt_error_naming_the_file()
    {
        var path = StoreWithPairs();
        var dataFile = Path.Combine(path, "store.lmdb");
        ZeroPage(dataFile, Meta(path, dataFile).Main.Root);

        var (exitCode, output) = ChildProcess.Run(["count", path, "Lmdb", "-", ""]);
        Assert.True(exitCode == 3, $"expected a DataStoreException (exit 3), got exit {exitCode}: {output}");
        Assert.Contains("ERROR Corrupt StoreFormatException", output);
        Assert.Contains($"{dataFile} is damaged", output);
    }

    public void Dispose() => _directory.Dispose();

    private static LmdbMeta Meta(string path, string dataFile)
    {
        using var file = LmdbDataFile.Open(path, dataFile);
        return file.Meta;
    }

    // The main tree's first leaf: the first child of its root branch page (LMDB 1.0: 24-byte page header, node
    // offsets counted from its end; a branch node's child is mn_lo | mn_hi << 16 | mn_flags << 32).
    private static ulong FirstLeaf(string path, string dataFile)
    {
        var meta = Meta(path, dataFile);
        Assert.True(meta.Main.Depth == 2, $"the test store should be two levels deep, LMDB made it {meta.Main.Depth}");
        var bytes = File.ReadAllBytes(dataFile);
        var root = checked((int)meta.Main.Root * meta.PageSize);
        var node = root + 24 + BinaryPrimitives.ReadUInt16LittleEndian(bytes.AsSpan(root + 24));
        return BinaryPrimitives.ReadUInt16LittleEndian(bytes.AsSpan(node)) |
            ((ulong)BinaryPrimitives.ReadUInt16LittleEndian(bytes.AsSpan(node + 2)) << 16) |
            ((ulong)BinaryPrimitives.ReadUInt16LittleEndian(bytes.AsSpan(node + 4)) << 32);
    }

    private static void ZeroPage(string dataFile, ulong page)
    {
        using var file = new FileStream(dataFile, FileMode.Open);
        file.Position = checked((long)page * 4096);
        file.Write(new byte[4096]);
    }

    // 2,000 pairs with 100-byte values: a root branch page over about 60 leaves.
    private string StoreWithPairs() => LmdbTestStores.WithPairs(_directory.Sub("store"));
}
