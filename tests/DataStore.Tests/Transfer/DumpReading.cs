using DataStore.Transfer;

namespace DataStore.Tests.Transfer;

/// <summary>Reads a dump with the library's reader alone (no store), for the format tests.</summary>
internal static class DumpReading
{
    /// <summary>Reads every pair and the trailer; returns the pairs and the digest, or throws what the reader throws.</summary>
    public static (List<(byte[] Key, byte[] Value)> Pairs, StoreDigest Digest) ReadAll(Stream dump)
    {
        using var digest = new PairDigest();
        var reader = new DumpReader(dump, "/dump-test", StoreBackend.Sqlite, digest);
        reader.ReadHeader();
        var pairs = new List<(byte[], byte[])>();
        while (reader.TryRead(out var key, out var value))
        {
            pairs.Add((key.ToArray(), value.ToArray()));
        }

        return (pairs, reader.Finish());
    }

    /// <summary>Reads a dump without keeping the pairs (for allocation measurements).</summary>
    public static long CountPairs(Stream dump)
    {
        using var digest = new PairDigest();
        var reader = new DumpReader(dump, "/dump-test", StoreBackend.Sqlite, digest);
        reader.ReadHeader();
        while (reader.TryRead(out _, out _))
        {
        }

        return reader.Finish().Pairs;
    }

    public static (List<(byte[] Key, byte[] Value)> Pairs, StoreDigest Digest) ReadAll(byte[] dump) => ReadAll(new MemoryStream(dump));

    /// <summary>Asserts the dump is rejected with a <see cref="DumpFormatException"/> whose message holds <paramref name="expected"/>.</summary>
    public static DumpFormatException Rejects(byte[] dump, string expected, StoreFailure cause = StoreFailure.Corrupt)
    {
        var e = Assert.Throws<DumpFormatException>(() => ReadAll(dump));
        Assert.Contains(expected, e.Message, StringComparison.Ordinal);
        Assert.Equal(cause, e.Cause);
        return e;
    }
}
