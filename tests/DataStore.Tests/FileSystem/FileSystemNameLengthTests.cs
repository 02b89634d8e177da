using DataStore.FileSystem;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.FileSystem;

/// <summary>
/// Every key file name length from 1 to 300 characters (plain, escaped and mixed keys), so the boundary between
/// plain and hashed names (200 characters) and every buffer sized for a name are crossed (issue 23 item 1).
/// </summary>
public sealed class FileSystemNameLengthTests : IDisposable
{
    private const int LongestName = 300;
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    /// <summary>A key whose plain encoding is <paramref name="nameLength"/> characters with the name's <c>k</c>.</summary>
    public static byte[] KeyWithNameLength(int nameLength, string pattern)
    {
        var key = new List<byte>();
        var left = nameLength - 1;
        var i = 0;
        while (left > 0)
        {
            var escape = pattern switch
            {
                "plain" => false,
                "escaped" => left >= 3,
                _ => left >= 3 && i % 2 == 1,
            };
            key.Add(escape ? (byte)(i % 48) : pattern == "plain" ? (byte)('a' + (i % 26)) : (byte)('0' + (i % 10)));
            left -= escape ? 3 : 1;
            i++;
        }

        return [.. key];
    }

    public static IEnumerable<byte[]> AllKeys() =>
        from pattern in new[] { "plain", "escaped", "mixed" }
        from length in Enumerable.Range(2, LongestName - 1)
        select KeyWithNameLength(length, pattern) into key
        group key by Bytes.Hex(key) into same
        select same.First();

    [Fact]
    public void Every_name_fits_the_name_buffer_and_the_plain_names_have_every_length()
    {
        Span<byte> name = stackalloc byte[KeyNames.MaxNameLength];
        foreach (var length in Enumerable.Range(2, LongestName - 1))
        {
            var plain = KeyWithNameLength(length, "plain");
            Assert.Equal(length > KeyNames.PlainNameLimit, KeyNames.IsHashed(plain));
            Assert.Equal(length <= KeyNames.PlainNameLimit ? length : 1 + 150 + 1 + 32 + 2, KeyNames.Write(plain, 1, name));
            foreach (var pattern in new[] { "escaped", "mixed" })
            {
                Assert.InRange(KeyNames.Write(KeyWithNameLength(length, pattern), int.MaxValue, name), 1, KeyNames.MaxNameLength);
            }
        }
    }

    [Fact]
    public void Keys_of_every_name_length_work_alone_and_after_reopening()
    {
        var keys = AllKeys().ToList();
        using (var store = FileSystemTestStore.Open(StorePath))
        {
            foreach (var key in keys)
            {
                store.Put(key, key);
                Assert.True(store.HaveKey(key), Bytes.Hex(key));
                Assert.Equal(key, store.Get(key));
            }

            foreach (var key in keys.Where((_, i) => i % 2 == 0))
            {
                store.Delete(key);
                Assert.False(store.HaveKey(key), Bytes.Hex(key));
            }
        }

        var kept = keys.Where((_, i) => i % 2 == 1).ToList();
        using var reopened = FileSystemTestStore.Open(StorePath);
        StoreAssert.KeysEqual(kept.Order(KeyOrder.Instance), StoreAssert.Scan(reopened, []));
        Assert.All(kept, key => Assert.Equal(key, reopened.Get(key)));
    }

    [Fact]
    public void Keys_of_every_name_length_work_in_batches_and_after_reopening()
    {
        var keys = AllKeys().ToList();
        using (var store = FileSystemTestStore.Open(StorePath))
        {
            foreach (var key in keys)
            {
                // The shape the issue reported: an ordinary key and the long one in one batch.
                store.Write(new WriteBatch().Put("x"u8, key).Put(key, key));
                Assert.Equal(key, store.Get(key));
            }

            var removal = new WriteBatch();
            foreach (var key in keys.Where((_, i) => i % 2 == 0))
            {
                removal.Delete(key);
            }

            store.Write(removal);
        }

        var kept = keys.Where((_, i) => i % 2 == 1).Append("x"u8.ToArray()).ToList();
        using var reopened = FileSystemTestStore.Open(StorePath);
        StoreAssert.KeysEqual(kept.Order(KeyOrder.Instance), StoreAssert.Scan(reopened, []));
        Assert.All(kept.SkipLast(1), key => Assert.Equal(key, reopened.Get(key)));
        Assert.False(File.Exists(Path.Combine(StorePath, BatchJournal.FileName)));
    }

    public void Dispose() => _directory.Dispose();
}
