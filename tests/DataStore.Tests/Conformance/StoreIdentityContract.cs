using DataStore.Tests.Cli;

namespace DataStore.Tests.Conformance;

/// <summary>
/// Rule 10, integrity of the store itself (issue 23, items 2 and 3; ADR 0013): a store that lost its manifest is
/// refused, naming the files found, and nothing is created over it; a store that lost or emptied its data file is a
/// <see cref="StoreFormatException"/> (Corrupt) naming the file, at open and in <c>datastore verify</c>, never an
/// empty store.
/// </summary>
public abstract class StoreIdentityContract : StoreContract
{
    private const string Rule = "10: a lost manifest or data file is an error naming the file";
    private const int Keys = 300;

    [Fact]
    public void A_store_that_lost_its_manifest_is_refused_naming_its_files_and_nothing_is_created_over_it()
    {
        RequireCapability(StoreCapabilities.SelfDescribing | StoreCapabilities.Persistent, Rule);
        Fill();
        var manifest = Path.Combine(StorePath, "datastore.json");
        var saved = File.ReadAllBytes(manifest);
        File.Delete(manifest);
        var before = Listing();

        var error = Assert.Throws<StoreFormatException>(() => KeyValueStore.Open(StorePath)); // the default way: no backend named
        var named = Assert.Throws<StoreFormatException>(() => KeyValueStore.Open(Options()));

        Assert.Equal(StoreFailure.Corrupt, error.Cause);
        Assert.Equal(Backend, error.Backend);
        Assert.Contains("datastore.json is missing", error.Message, StringComparison.Ordinal);
        Assert.Contains($"{Backend} files (", error.Message, StringComparison.Ordinal);
        Assert.Equal(StoreFailure.Corrupt, named.Cause);
        Assert.Equal(before, Listing()); // no new manifest, no store.sqlite beside the real engine's files

        File.WriteAllBytes(manifest, saved); // what the message tells the user to do
        using var store = KeyValueStore.Open(StorePath);
        Assert.Equal(Keys, StoreAssert.Scan(store, [], keysOnly: true).Count);
    }

    [Fact]
    public void An_emptied_manifest_opened_without_a_backend_is_Corrupt_and_names_the_backend_whose_files_are_there()
    {
        RequireCapability(StoreCapabilities.SelfDescribing | StoreCapabilities.Persistent, Rule);
        Fill();
        File.WriteAllBytes(Path.Combine(StorePath, "datastore.json"), []); // what a power loss did before the manifest was synced

        var error = Assert.Throws<StoreFormatException>(() => KeyValueStore.Open(StorePath));

        Assert.Equal(StoreFailure.Corrupt, error.Cause);
        Assert.Equal(Backend, error.Backend);
        Assert.StartsWith($"{Backend} store at", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void A_store_whose_data_file_is_missing_or_empty_is_Corrupt_at_open_and_in_verify_naming_the_file(bool delete)
    {
        RequireCapability(StoreCapabilities.SelfDescribing | StoreCapabilities.Persistent, Rule);
        Fill();
        var file = LoseData(delete);

        var error = Assert.Throws<StoreFormatException>(() => KeyValueStore.Open(StorePath));
        var named = Assert.Throws<StoreFormatException>(() => KeyValueStore.Open(Options()));

        Assert.Equal(StoreFailure.Corrupt, error.Cause);
        Assert.Equal(Backend, error.Backend);
        Assert.Contains(file, error.Message, StringComparison.Ordinal);
        Assert.Equal(StoreFailure.Corrupt, named.Cause);
        Assert.True(delete ? !Path.Exists(file) : IsEmptied(file), $"opening recreated {file}");
        var verify = DatastoreTool.Run(Directory.Path, ["verify", "--store", StorePath, "--quiet"]);
        Assert.True(verify.ExitCode == 4 && verify.Lines.Any(l => l.StartsWith("problem: ", StringComparison.Ordinal) && l.Contains(file, StringComparison.Ordinal)),
            $"verify exited {verify.ExitCode}: {verify.Text} {verify.Error}");
    }

    [Fact]
    public void A_creation_cut_short_by_a_crash_is_finished_by_the_next_open()
    {
        RequireCapability(StoreCapabilities.SelfDescribing | StoreCapabilities.Persistent, Rule);
        System.IO.Directory.CreateDirectory(StorePath);
        var marker = Path.Combine(StorePath, "datastore.creating");
        File.WriteAllBytes(marker, []); // what a creator killed between its manifest and the engine's files leaves
        File.WriteAllText(Path.Combine(StorePath, "datastore.json"), $"{{\"backend\": \"{Backend}\", \"formatVersion\": 1, \"durability\": \"Relaxed\"}}");

        using (var store = KeyValueStore.Open(StorePath))
        {
            store.Put(Bytes.Of(1), Bytes.Of(2));
        }

        Assert.False(File.Exists(marker), "the finished creation left its marker, which would let a later loss of the data pass as a new store");
        using var reopened = KeyValueStore.Open(StorePath);
        StoreAssert.Holds(reopened, Bytes.Of(1), Bytes.Of(2));
    }

    [Fact]
    public async Task VerifyAsync_reports_a_data_file_deleted_under_an_open_store()
    {
        RequireCapability(StoreCapabilities.SelfDescribing | StoreCapabilities.Persistent, Rule);
        Fill();
        using var store = KeyValueStore.Open(Options());
        var file = DataFile();
        if (Backend == StoreBackend.FileSystem)
        {
            Assert.Skip("FileSystem reads its key files by name, so a deleted key directory is reported by the full read as well; this rule checks the engines that keep one data file open");
        }

        File.Delete(file); // the open store still reads it through its open descriptor

        var report = await store.VerifyAsync(cancellationToken: TestContext.Current.CancellationToken);
        Assert.False(report.IsHealthy);
        Assert.Contains(report.Problems, p => p.Contains(file, StringComparison.Ordinal));
    }

    private void Fill()
    {
        using var store = KeyValueStore.Open(Options());
        var batch = new WriteBatch();
        for (var i = 0; i < Keys; i++)
        {
            batch.Put(Bytes.Utf8($"pair/{i:D5}"), Bytes.Random(100, i));
        }

        store.Write(batch);
    }

    /// <summary>Deletes or empties the backend's data; returns the path named in the error.</summary>
    private string LoseData(bool delete)
    {
        var file = DataFile();
        if (Backend == StoreBackend.FileSystem)
        {
            // Emptied: every file and folder under the key directory removed, the directory itself kept.
            System.IO.Directory.Delete(file, recursive: true);
            if (!delete)
            {
                System.IO.Directory.CreateDirectory(file);
            }

            return file;
        }

        if (Backend == StoreBackend.RocksDb && !delete)
        {
            file = Path.Combine(StorePath, File.ReadAllText(Path.Combine(StorePath, "CURRENT")).Trim()); // the MANIFEST CURRENT names
        }

        if (delete)
        {
            File.Delete(file);
        }
        else
        {
            File.WriteAllBytes(file, []);
        }

        return file;
    }

    private string DataFile() => Path.Combine(StorePath, Backend switch
    {
        StoreBackend.Sqlite => "store.sqlite",
        StoreBackend.Lmdb => "store.lmdb",
        StoreBackend.LiteDb => "store.litedb",
        StoreBackend.RocksDb => "CURRENT",
        StoreBackend.FileSystem => "data",
        _ => throw new NotSupportedException($"{Backend} keeps no files"),
    });

    private static bool IsEmptied(string file) =>
        System.IO.Directory.Exists(file) ? !System.IO.Directory.EnumerateFileSystemEntries(file).Any() : new FileInfo(file).Length == 0;

    private string[] Listing() => [.. System.IO.Directory.EnumerateFileSystemEntries(StorePath).Select(Path.GetFileName).Order(StringComparer.Ordinal)!];
}
