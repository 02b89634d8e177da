using System.Buffers.Binary;
using DataStore.Lmdb.Files;

namespace DataStore.Tests.Lmdb;

/// <summary>
/// The checks an open runs on the data file before LMDB maps it (<see cref="LmdbOpenCheck.Inspect(string, string)"/>)
/// hold no read transaction, so while another process commits, a page they read can be reused between the meta page
/// naming it and the read: a writer's open refused a healthy store ("the root page ... of its main tree, 2 levels deep,
/// should be a branch page but has flags 0x2") while another process wrote, in 4 of 62 runs of
/// <see cref="LmdbRelaxedCommitTests"/>' two-process test under load (CI saw the same message). A finding counts only
/// when no commit came in between; a root that is damaged for good is still reported.
/// </summary>
public sealed class LmdbOpenCheckTests : IDisposable
{
    private const int FlagsOffset = 18; // LMDB 1.0's page header: page number, transaction id, pad, then the flags
    private const ushort LeafPage = 0x02;
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    private string DataFile => Path.Combine(StorePath, "store.lmdb");

    [Fact]
    public void A_root_page_reused_by_a_commit_during_the_check_is_looked_at_again_not_reported_as_damage()
    {
        var reused = CopyWithTheRootALeaf();
        using (var store = KeyValueStore.Open(new DataStoreOptions { Path = StorePath, Backend = StoreBackend.Lmdb }))
        {
            store.Put("later"u8, "1"u8); // the commit that came in between: the file's newest meta page moves on
        }

        // The first look reads the state whose root was reused; every later one reads the file as it is now.
        var looks = 0;
        var layout = LmdbOpenCheck.Inspect(StorePath, DataFile, () => LmdbDataFile.Open(StorePath, looks++ == 0 ? reused : DataFile));

        Assert.Equal(LmdbFileLayout.Lmdb10, layout);
        Assert.Equal(3, looks); // the check, the look for a newer commit, the check again
    }

    [Fact]
    public void A_root_page_of_the_wrong_kind_with_no_commit_in_between_is_damage()
    {
        var damaged = CopyWithTheRootALeaf();

        var error = Assert.Throws<StoreFormatException>(() => LmdbOpenCheck.Inspect(StorePath, damaged, () => LmdbDataFile.Open(StorePath, damaged)));

        Assert.Equal(StoreFailure.Corrupt, error.Cause);
        Assert.Contains("of its main tree, 2 levels deep, should be a branch page but has flags 0x2", error.Message);
    }

    public void Dispose() => _directory.Dispose();

    // A store two levels deep, and a copy of its data file whose root page is a leaf: what a reader without a read
    // transaction sees when a writer has reused the root page for a leaf.
    private string CopyWithTheRootALeaf()
    {
        using (var store = KeyValueStore.Open(new DataStoreOptions { Path = StorePath, Backend = StoreBackend.Lmdb }))
        {
            var batch = new WriteBatch();
            for (var i = 0; i < 2_000; i++)
            {
                batch.Put(System.Text.Encoding.ASCII.GetBytes($"k/{i:D5}"), new byte[100]);
            }

            store.Write(batch);
        }

        var copy = _directory.Sub("root-reused.lmdb");
        File.Copy(DataFile, copy);
        long rootOffset;
        using (var file = LmdbDataFile.Open(StorePath, copy))
        {
            Assert.True(file.Meta.Main.Depth == 2, $"the test store should be two levels deep, LMDB made it {file.Meta.Main.Depth}");
            rootOffset = (long)file.Meta.Main.Root * file.Meta.PageSize;
        }

        using var stream = new FileStream(copy, FileMode.Open, FileAccess.ReadWrite);
        var flags = new byte[2];
        BinaryPrimitives.WriteUInt16LittleEndian(flags, LeafPage);
        stream.Position = rootOffset + FlagsOffset;
        stream.Write(flags);
        return copy;
    }
}
