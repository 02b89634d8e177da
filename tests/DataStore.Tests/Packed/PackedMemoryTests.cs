namespace DataStore.Tests.Packed;

/// <summary>
/// A build from scrambled input stays in bounded memory: a child process builds the store and reports its peak
/// resident memory (VmHWM). CI runs 300,000 pairs; <c>DATASTORE_PACKED_SOAK=1</c> runs issue 18's 5,000,000.
/// </summary>
public sealed class PackedMemoryTests : IDisposable
{
    private const long Limit = 256L << 20;
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public void A_build_from_scrambled_input_peaks_under_256_MiB_resident()
    {
        var soak = Environment.GetEnvironmentVariable("DATASTORE_PACKED_SOAK") == "1";
        var count = soak ? 5_000_000 : 300_000;
        var path = _directory.Sub("store");
        using var child = ChildProcess.Start(["pack-scrambled", path, "Packed", "-", count.ToString(System.Globalization.CultureInfo.InvariantCulture)]);
        Assert.True(child.WaitForExit(TimeSpan.FromMinutes(soak ? 30 : 3)) == 0, child.Output);
        var words = child.LastLine("PACKED")!.Split(' ');
        Assert.Equal(count.ToString(System.Globalization.CultureInfo.InvariantCulture), words[1]);
        var peak = long.Parse(words[3], System.Globalization.CultureInfo.InvariantCulture);
        TestContext.Current.TestOutputHelper?.WriteLine($"{count:N0} pairs: peak resident {peak / (1 << 20)} MiB");
        Assert.True(peak < Limit, $"peak resident memory {peak / (1 << 20)} MiB, limit {Limit >> 20} MiB");

        using var store = KeyValueStore.Open(path);
        foreach (var id in new long[] { 0, 1, count / 2, count - 1 })
        {
            var value = store.Get(Key(id));
            Assert.True(value is not null && BitConverter.ToInt64(value) == id, $"id {id}");
        }

        Assert.False(store.HaveKey(Key(count)));
    }

    public void Dispose() => _directory.Dispose();

    /// <summary>The test host's key for <paramref name="id"/> (tests/DataStore.TestHost/PackedSoak.cs).</summary>
    private static byte[] Key(long id)
    {
        var key = new byte[12];
        "key/"u8.CopyTo(key);
        System.Buffers.Binary.BinaryPrimitives.WriteInt64BigEndian(key.AsSpan(4), id);
        return key;
    }
}
