using System.Buffers;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.FileSystem;

/// <summary>Get of a large value reads it straight into the caller's buffer: no copy of ours, and a damaged value leaves nothing there.</summary>
public sealed class FileSystemLargeValueReadTests : IDisposable
{
    private const int Large = 1 << 20;

    // A plain key file name, and a key whose file name is hashed (its own read path, through a chain of names).
    private static readonly byte[][] Keys = [Bytes.Utf8("large/plain"), Bytes.Key(300, (byte)'l', (byte)'z')];

    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    [Fact]
    public void Get_of_a_large_value_into_a_caller_span_or_buffer_writer_allocates_nothing()
    {
        using var store = KeyValueStore.Open(new DataStoreOptions { Path = StorePath, Backend = StoreBackend.FileSystem });
        var value = Bytes.Random(Large, 3);
        var buffer = new byte[Large];
        var writer = new ArrayBufferWriter<byte>(Large);
        var tooShort = new byte[100];
        foreach (var key in Keys)
        {
            store.Put(key, value);
            store.Get(key, buffer); // warm: the key's directory handle, this thread's buffer
        }

        foreach (var key in Keys)
        {
            Array.Clear(buffer);
            writer.ResetWrittenCount();
            var before = GC.GetAllocatedBytesForCurrentThread();
            var length = store.Get(key, buffer);
            var found = store.Get(key, writer);
            var shortLength = store.Get(key, tooShort);
            var allocated = GC.GetAllocatedBytesForCurrentThread() - before;

            Assert.Equal((Large, true, Large), (length, found, shortLength));
            Assert.True(value.AsSpan().SequenceEqual(buffer), "the span holds the value");
            Assert.True(value.AsSpan().SequenceEqual(writer.WrittenSpan), "the writer holds the value");
            Assert.Equal(0, allocated);
        }
    }

    [Fact]
    public void A_large_value_that_fails_its_checksum_is_an_error_and_leaves_none_of_its_bytes_in_the_callers_buffer()
    {
        var value = Bytes.Random(Large, 5);
        using (var store = KeyValueStore.Open(new DataStoreOptions { Path = StorePath, Backend = StoreBackend.FileSystem }))
        {
            foreach (var key in Keys)
            {
                store.Put(key, value);
            }
        }

        // The last byte of each key file is the value's last: past what the first read of a file takes.
        var files = Directory.EnumerateFiles(Path.Combine(StorePath, "data"), "*", SearchOption.AllDirectories)
            .Where(f => new FileInfo(f).Length > Large).ToList();
        Assert.Equal(Keys.Length, files.Count);
        foreach (var file in files)
        {
            using var stream = File.Open(file, FileMode.Open, FileAccess.ReadWrite);
            stream.Position = stream.Length - 1;
            var last = stream.ReadByte();
            stream.Position = stream.Length - 1;
            stream.WriteByte((byte)(last ^ 0x40));
        }

        using var reopened = KeyValueStore.Open(new DataStoreOptions { Path = StorePath, Backend = StoreBackend.FileSystem });
        foreach (var key in Keys)
        {
            var buffer = new byte[Large];
            var writer = new ArrayBufferWriter<byte>(Large);
            Assert.Contains("checksum", Assert.Throws<StoreFormatException>(() => reopened.Get(key, buffer)).Message, StringComparison.Ordinal);
            Assert.Contains("checksum", Assert.Throws<StoreFormatException>(() => reopened.Get(key, writer)).Message, StringComparison.Ordinal);
            Assert.Contains("checksum", Assert.Throws<StoreFormatException>(() => reopened.Get(key, new byte[100])).Message, StringComparison.Ordinal);
            Assert.True(buffer.AsSpan().IndexOfAnyExcept((byte)0) < 0, "the span holds none of the damaged value's bytes");
            Assert.Equal(0, writer.WrittenCount);
        }
    }

    public void Dispose() => _directory.Dispose();
}
