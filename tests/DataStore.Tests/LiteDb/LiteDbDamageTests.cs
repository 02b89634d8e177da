using DataStore.Tests.Conformance;

namespace DataStore.Tests.LiteDb;

/// <summary>
/// Issue 23 item 5: a damaged LiteDB file is a <see cref="StoreFormatException"/> naming the file, never a dead process
/// (LiteDB's errors used to escape from the library's scan thread). Read in a child process, so a crash shows up as a
/// failed test rather than a dead test host.
/// </summary>
public sealed class LiteDbDamageTests : IDisposable
{
    private const int Keys = 20_000;

    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    private string DataFile => Path.Combine(StorePath, "store.litedb");

    [Fact]
    public void A_data_file_truncated_to_half_is_an_error_naming_the_file_not_a_crash()
    {
        Fill();
        using (var stream = new FileStream(DataFile, FileMode.Open, FileAccess.Write))
        {
            stream.SetLength(stream.Length / 2);
        }

        AssertReadFailsAsDamage();
    }

    [Fact]
    public void Four_KiB_zeroed_in_the_middle_of_the_data_file_is_an_error_naming_the_file_not_a_crash()
    {
        Fill();
        using (var stream = new FileStream(DataFile, FileMode.Open, FileAccess.Write))
        {
            stream.Position = stream.Length / 2 / 4_096 * 4_096;
            stream.Write(new byte[4_096]);
        }

        AssertReadFailsAsDamage();
    }

    public void Dispose() => _directory.Dispose();

    private void Fill()
    {
        using var store = KeyValueStore.Open(new DataStoreOptions { Path = StorePath, Backend = StoreBackend.LiteDb });
        var batch = new WriteBatch();
        for (var i = 0; i < Keys; i++)
        {
            batch.Put(Bytes.Utf8($"pair/{i:D6}"), Bytes.Random(400, i));
            if (i % 1_000 == 999)
            {
                store.Write(batch);
                batch.Clear();
            }
        }
    }

    private void AssertReadFailsAsDamage()
    {
        var (code, output) = ChildProcess.Run(["read-all", StorePath, "LiteDb", "-"], TimeSpan.FromSeconds(120));
        TestContext.Current.TestOutputHelper?.WriteLine($"exit {code}:\n{output}");
        Assert.True(code == 3, $"the child should end with a DataStoreException (exit 3), not exit {code}:\n{output}");
        Assert.Contains("ERROR Corrupt StoreFormatException", output);
        Assert.Contains(DataFile, output);
    }
}
