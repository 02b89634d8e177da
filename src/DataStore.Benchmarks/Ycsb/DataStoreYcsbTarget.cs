namespace DataStore.Benchmarks.Ycsb;

/// <summary>DataStore over one backend, with its defaults (Relaxed durability), as an application opens it.</summary>
public sealed class DataStoreYcsbTarget(StoreBackend backend, string directory) : IYcsbTarget
{
    private readonly IKeyValueStore _store = KeyValueStore.Open(new DataStoreOptions { Path = directory, Backend = backend });

    public void Load(IReadOnlyList<(byte[] Key, byte[] Value)> pairs)
    {
        var batch = new WriteBatch();
        foreach (var (key, value) in pairs)
        {
            batch.Put(key, value);
        }

        _store.Write(batch);
    }

    public int Read(ReadOnlySpan<byte> key, Span<byte> buffer) => _store.Get(key, buffer);

    public void Write(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) => _store.Put(key, value);

    public int Scan(ReadOnlySpan<byte> start, int count)
    {
        var read = 0;
        using var cursor = _store.ScanRange(start, []);
        while (read < count && cursor.MoveNext())
        {
            read += cursor.Value.Length > 0 ? 1 : 0;
        }

        return read;
    }

    public void Dispose() => _store.Dispose();
}
