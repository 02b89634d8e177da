using DataStore.FileSystem;
using DataStore.Platform;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.FileSystem;

/// <summary>
/// Rule 10 for the FileSystem key tree (ADR 0013): a directory of the tree deleted with its keys (a cleaning tool, a
/// partial copy) is an error naming it, at open for a top-level one and at the latest when a scan, Get, HaveKey or Put
/// reaches a deeper one, never a store with fewer keys; a store with no keys (never written, or every key deleted)
/// still opens empty; a store made before the markers opens with every key and gets them. An emptied <c>data</c>
/// directory is <see cref="StoreIdentityContract"/>'s case.
/// </summary>
public sealed class FileSystemLostDirectoryTests : IDisposable
{
    private const int Limit = 64;
    private const int Keys = 400; // 100 under each letter: its directory splits as well
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    private string Data => Path.Combine(StorePath, "data");

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void A_deleted_top_level_directory_is_an_error_at_open_naming_it(bool prepared)
    {
        Assert.SkipWhen(prepared && !PosixLinks.Available, "splits are prepared with hard links on Linux only");
        Fill(prepared);
        var lost = Path.Combine(Data, KeyNames.ChildName((byte)'b'));
        Directory.Delete(lost, recursive: true);

        var error = Assert.Throws<StoreFormatException>(() => KeyValueStore.Open(StorePath));

        Assert.Equal(StoreFailure.Corrupt, error.Cause);
        Assert.Equal(StoreBackend.FileSystem, error.Backend);
        Assert.Contains($"'{lost}' is missing", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_deleted_deeper_directory_is_an_error_when_a_read_or_write_reaches_it_and_an_empty_one_made_again_accepts_the_loss()
    {
        Fill(prepared: false);
        var (lost, prefix) = DeepLeaf();
        Directory.Delete(lost, recursive: true);
        byte[] inside = [.. prefix, (byte)'9']; // a key whose file would be in the deleted directory

        using (var store = KeyValueStore.Open(StorePath))
        {
            Assert.Equal(Keys / 4, StoreAssert.Scan(store, "a"u8.ToArray(), keysOnly: true).Count); // other subtrees read as before
            AssertLost(lost, () => StoreAssert.Scan(store, []));
            AssertLost(lost, () => StoreAssert.Scan(store, prefix, keysOnly: true));
            AssertLost(lost, () => store.CountKeys([]));
            AssertLost(lost, () => store.Get(inside));
            AssertLost(lost, () => store.HaveKey(inside));
            AssertLost(lost, () => store.Put(inside, "v"u8));
            Assert.False(Directory.Exists(lost), "a Put made the deleted directory again, hiding the loss");
            var report = await store.VerifyAsync(cancellationToken: TestContext.Current.CancellationToken);
            Assert.Contains(report.Problems, p => p.Contains(lost, StringComparison.Ordinal));
        }

        Directory.CreateDirectory(lost); // what the message offers: accept the loss of its keys
        using var accepted = KeyValueStore.Open(StorePath);
        Assert.Empty(StoreAssert.Scan(accepted, prefix));
        Assert.True(accepted.CountKeys([]) is > 0 and < Keys);
    }

    [Fact]
    public void A_store_made_before_the_markers_opens_with_every_key_and_gets_them()
    {
        Fill(prepared: false);
        File.Delete(Path.Combine(StorePath, TreeRoot.RecordName)); // the layout an earlier version wrote
        File.Delete(Path.Combine(Data, TreeRoot.MarkerName));
        foreach (var marker in Directory.EnumerateFiles(Data, KeyNames.SplitMarker, SearchOption.AllDirectories))
        {
            File.WriteAllBytes(marker, []);
        }

        using (var store = KeyValueStore.Open(StorePath))
        {
            Assert.Equal(Keys, store.CountKeys([]));
        }

        Empty(Data); // once marked, an emptied key directory is refused
        var error = Assert.Throws<StoreFormatException>(() => KeyValueStore.Open(StorePath));
        Assert.Contains($"'{Data}' was emptied", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_store_that_never_had_a_key_or_had_every_key_deleted_opens_empty_but_an_emptied_one_is_refused()
    {
        KeyValueStore.Open(Options()).Dispose();
        using (var store = KeyValueStore.Open(StorePath))
        {
            Assert.Equal(0, store.CountKeys([]));
            Fill(store);
            for (var i = 0; i < Keys; i++)
            {
                store.Delete(Key(i));
            }

        }

        using (var store = KeyValueStore.Open(StorePath))
        {
            Assert.Equal(0, store.CountKeys([]));
            store.Put("a"u8, "1"u8);
        }

        Empty(Data);
        var error = Assert.Throws<StoreFormatException>(() => KeyValueStore.Open(StorePath));
        Assert.Equal(StoreFailure.Corrupt, error.Cause);
        Assert.Contains(Data, error.Message, StringComparison.Ordinal);
    }

    public void Dispose() => _directory.Dispose();

    private static void AssertLost(string lost, Action read)
    {
        var error = Assert.Throws<StoreFormatException>(read);
        Assert.Equal(StoreFailure.Corrupt, error.Cause);
        Assert.Contains($"'{lost}' is missing", error.Message, StringComparison.Ordinal);
    }

    private static void Empty(string directory)
    {
        Directory.Delete(directory, recursive: true);
        Directory.CreateDirectory(directory);
    }

    private DataStoreOptions Options() => new() { Path = StorePath, Backend = StoreBackend.FileSystem };

    /// <summary>Writes <see cref="Keys"/> keys under a, b, c and d with a directory limit of <see cref="Limit"/>, so the root and its children split.</summary>
    private void Fill(bool prepared)
    {
        PreparedSplitLimits.ForceForTests = prepared;
        try
        {
            using var store = FileSystemTestStore.Open(StorePath, Limit);
            Fill(store);
            var until = DateTime.UtcNow.AddSeconds(60);
            while (File.Exists(Path.Combine(StorePath, PreparedSplitRecord.FileName)) || !File.Exists(Path.Combine(Data, KeyNames.SplitMarker)))
            {
                Assert.True(DateTime.UtcNow < until, "the root was not split within 60 s");
                Thread.Sleep(20);
            }
        }
        finally
        {
            PreparedSplitLimits.ForceForTests = false;
        }

        Assert.NotNull(SplitMarker.RecordedChildren(Data));
    }

    private static void Fill(IKeyValueStore store)
    {
        for (var i = 0; i < Keys; i++)
        {
            store.Put(Key(i), Bytes.Random(20, i));
        }
    }

    private static byte[] Key(int i) => Bytes.Utf8($"{(char)('a' + (i % 4))}/{i:D4}");

    /// <summary>A leaf two or more levels down under <c>c</c> that holds keys and that its parent's marker records, with its key prefix.</summary>
    private (string Path, byte[] Prefix) DeepLeaf()
    {
        foreach (var directory in Directory.EnumerateDirectories(Path.Combine(Data, KeyNames.ChildName((byte)'c')), "x*", SearchOption.AllDirectories))
        {
            var parent = Path.GetDirectoryName(directory)!;
            var prefix = Path.GetRelativePath(Data, directory).Split(Path.DirectorySeparatorChar).Select(n => KeyNames.TryParseChild(n, out var b) ? b : throw new InvalidOperationException(n)).ToArray();
            if (!File.Exists(Path.Combine(directory, KeyNames.SplitMarker)) && Directory.EnumerateFiles(directory, "k*").Any() &&
                SplitMarker.Records(SplitMarker.RecordedChildren(parent), prefix[^1]))
            {
                return (directory, prefix);
            }
        }

        throw new InvalidOperationException("no recorded leaf under c two levels down");
    }
}
