namespace DataStore.Packed;

/// <summary>Pairs held in memory until the build spills them, sorted, as one run: payload in large chunks, one small entry per pair.</summary>
internal sealed class PairArena
{
    private const int ChunkLength = 4 << 20;
    private const int EntryCost = 16;
    private readonly List<byte[]> _chunks = [];
    private Slot[] _slots = new Slot[1024];
    private int _used = ChunkLength;

    /// <summary>Pairs held.</summary>
    public int Count { get; private set; }

    /// <summary>Memory the held pairs take, payload and entries.</summary>
    public long Bytes { get; private set; }

    public void Add(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        var length = key.Length + value.Length;
        if (_chunks.Count == 0 || _used + length > _chunks[^1].Length)
        {
            _chunks.Add(new byte[Math.Max(ChunkLength, length)]);
            _used = 0;
        }

        var chunk = _chunks[^1];
        key.CopyTo(chunk.AsSpan(_used));
        value.CopyTo(chunk.AsSpan(_used + key.Length));
        if (Count == _slots.Length)
        {
            Array.Resize(ref _slots, _slots.Length * 2);
        }

        _slots[Count++] = new Slot(_chunks.Count - 1, _used, key.Length, value.Length);
        _used += length;
        Bytes += length + EntryCost;
    }

    /// <summary>Sorts the held pairs by key and writes them to <paramref name="writer"/>, which rejects duplicates.</summary>
    public void WriteSorted(PackedWriter writer, CancellationToken cancellationToken)
    {
        var chunks = _chunks;
        Array.Sort(_slots, 0, Count, Comparer<Slot>.Create((x, y) => KeyOf(chunks, x).SequenceCompareTo(KeyOf(chunks, y))));
        for (var i = 0; i < Count; i++)
        {
            if ((i & 0xFFFF) == 0)
            {
                cancellationToken.ThrowIfCancellationRequested();
            }

            var slot = _slots[i];
            writer.Add(KeyOf(chunks, slot), chunks[slot.Chunk].AsSpan(slot.Offset + slot.KeyLength, slot.ValueLength));
        }
    }

    /// <summary>Forgets every pair; keeps one chunk for the next run.</summary>
    public void Clear()
    {
        var keep = _chunks.Count > 0 && _chunks[0].Length == ChunkLength ? _chunks[0] : null;
        _chunks.Clear();
        if (keep is not null)
        {
            _chunks.Add(keep);
        }

        _used = keep is null ? ChunkLength : 0;
        Count = 0;
        Bytes = 0;
    }

    private static ReadOnlySpan<byte> KeyOf(List<byte[]> chunks, Slot slot) => chunks[slot.Chunk].AsSpan(slot.Offset, slot.KeyLength);

    private readonly record struct Slot(int Chunk, int Offset, int KeyLength, int ValueLength);
}
