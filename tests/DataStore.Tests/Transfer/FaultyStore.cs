using System.Buffers;
using System.Diagnostics.CodeAnalysis;

namespace DataStore.Tests.Transfer;

/// <summary>
/// An in-memory store that misbehaves on purpose, standing in for a damaged engine: <c>Get</c> of
/// <see cref="MissingKey"/> finds nothing, <c>Get</c> of <see cref="ThrowingKey"/> throws, and a full scan throws
/// after <see cref="ScanFailsAfter"/> pairs.
/// </summary>
internal sealed class FaultyStore : IKeyValueStore
{
    private readonly IKeyValueStore _inner = KeyValueStore.Open(new DataStoreOptions { Backend = StoreBackend.InMemory });

    public byte[]? MissingKey { get; init; }

    public byte[]? ThrowingKey { get; init; }

    public int ScanFailsAfter { get; init; } = int.MaxValue;

    public string Path => _inner.Path;

    public StoreBackend Backend => _inner.Backend;

    public StoreCapabilities Capabilities => _inner.Capabilities;

    public Durability Durability => _inner.Durability;

    public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) => _inner.Put(key, value);

    public bool Get(ReadOnlySpan<byte> key, IBufferWriter<byte> destination) => _inner.Get(key, destination);

    public int Get(ReadOnlySpan<byte> key, Span<byte> destination)
    {
        if (ThrowingKey is not null && key.SequenceEqual(ThrowingKey))
        {
            throw new DataStoreException(StoreFailure.Corrupt, "/faulty", StoreBackend.InMemory, "page 7 is damaged");
        }

        return MissingKey is not null && key.SequenceEqual(MissingKey) ? -1 : _inner.Get(key, destination);
    }

    public bool HaveKey(ReadOnlySpan<byte> key) => _inner.HaveKey(key);

    public void Delete(ReadOnlySpan<byte> key) => _inner.Delete(key);

    public long DeletePrefix(ReadOnlySpan<byte> prefix) => _inner.DeletePrefix(prefix);

    public long DeleteRange(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end) => _inner.DeleteRange(start, end);

    public IKeyValueCursor ScanPrefix(ReadOnlySpan<byte> prefix, bool keysOnly = false) => new FaultyCursor(_inner.ScanPrefix(prefix, keysOnly), ScanFailsAfter);

    public IKeyValueCursor ScanRange(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end, bool keysOnly = false) => _inner.ScanRange(start, end, keysOnly);

    public void Write(WriteBatch batch) => _inner.Write(batch);

    public bool TryWrite(WriteBatch batch, [NotNullWhen(false)] out PreconditionFailure? failure) => _inner.TryWrite(batch, out failure);

    public void Compact() => _inner.Compact();

    public void Dispose() => _inner.Dispose();

    public ValueTask DisposeAsync() => _inner.DisposeAsync();

    private sealed class FaultyCursor(IKeyValueCursor inner, int failAfter) : IKeyValueCursor
    {
        private int _seen;

        public ReadOnlySpan<byte> Key => inner.Key;

        public ReadOnlySpan<byte> Value => inner.Value;

        public bool MoveNext() => ++_seen > failAfter
            ? throw new DataStoreException(StoreFailure.Corrupt, "/faulty", StoreBackend.InMemory, "a btree page is damaged")
            : inner.MoveNext();

        public void Dispose() => inner.Dispose();
    }
}
