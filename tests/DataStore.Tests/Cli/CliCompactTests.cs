using System.Globalization;
using System.Text.RegularExpressions;

namespace DataStore.Tests.Cli;

/// <summary><c>datastore compact</c> after <c>delete --prefix</c>, run as real processes, on every backend present.</summary>
public sealed partial class CliCompactTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string Store => _directory.Sub("store");

    [Theory]
    [MemberData(nameof(CliBackends.Available), MemberType = typeof(CliBackends))]
    public void Compact_gives_space_back_after_a_prefix_delete_and_keeps_the_rest(StoreBackend backend)
    {
        var value = new byte[2048];
        Random.Shared.NextBytes(value); // incompressible, so RocksDB's LZ4 cannot hide the deleted bytes
        CliBackends.CreateStore(Store, backend, Enumerable.Range(0, 2000).Select(i => (System.Text.Encoding.UTF8.GetBytes($"{(i % 10 == 0 ? "keep" : "drop")}/{i:D5}"), value)));
        var full = SizeOnDisk(Store);
        Assert.Equal("1800", DatastoreTool.RunOk(_directory.Path, "delete", "--store", Store, "--prefix", "drop/").Text.Trim());
        var before = SizeOnDisk(Store);

        var compact = DatastoreTool.RunOk(_directory.Path, "compact", "--store", Store);

        var match = GivenBack().Match(compact.Text);
        Assert.True(match.Success, compact.Text);
        var freed = long.Parse(match.Groups[1].Value, NumberStyles.AllowThousands, CultureInfo.InvariantCulture);
        var after = SizeOnDisk(Store);
        if (backend == StoreBackend.FileSystem)
        {
            // Deleting a key removes its file: the space came back with the delete, and compact has little left to do.
            Assert.True(freed >= 0 && after <= before, $"{compact.Text} ({before} bytes before, {after} after)");
        }
        else
        {
            Assert.True(freed > 0, $"compact gave back nothing: {compact.Text} ({before} bytes before, {after} after)");
            Assert.True(after < before, $"{before} bytes before compact, {after} after");
        }

        Assert.True(after < full / 2, $"{full} bytes before the delete, {after} after compact; 90% of the pairs were deleted");
        Assert.Equal("200", DatastoreTool.RunOk(_directory.Path, "count", "--store", Store).Text.Trim());
    }

    public void Dispose() => _directory.Dispose();

    private static long SizeOnDisk(string directory) =>
        new DirectoryInfo(directory).EnumerateFiles("*", SearchOption.AllDirectories).Sum(f => f.Length);

    [GeneratedRegex(@"compacted \w+ store '[^']*': ([\d,]+) bytes \([^)]*\) given back")]
    private static partial Regex GivenBack();
}
