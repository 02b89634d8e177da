namespace DataStore.Packed;

/// <summary>Pairs held in memory until the build spills them, sorted, as one run: payload in large chunks, one small entry per pair.</summary>
/// <remarks>The chunks are kept and reused from run to run, so a build's memory stays at one budget's worth instead of
/// piling up discarded chunks until a full garbage collection.</remarks>
internal sealed class PairArena
{
    private const int ChunkLength = 4 << 20;
    private const int EntryCost = 16;
    private readonly List<byte[]> _chunks = [];
    private Slot[] _slots = new Slot[1024];
    private int _chunk = -1;
    private int _used;

    /// <summary>Pairs held.</summary>
    public int Count { get; private set; }

    /// <summary>Memory the held pairs take, payload and entries.</summary>
    public long Bytes { get; private set; }

    public void Add(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        var length = key.Length + value.Length;
        if (_chunk < 0 || _used + length > _chunks[_chunk].Length)
        {
            NextChunk(length);
        }

        var chunk = _chunks[_chunk];
        key.CopyTo(chunk.AsSpan(_used));
        value.CopyTo(chunk.AsSpan(_used + key.Length));
        if (Count == _slots.Length)
        {
            Array.Resize(ref _slots, _slots.Length * 2);
        }

        _slots[Count++] = new Slot(_chunk, _used, key.Length, value.Length);
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

    /// <summary>Forgets every pair; keeps the standard-size chunks for the next run and drops the oversized ones.</summary>
    public void Clear()
    {
        _chunks.RemoveAll(c => c.Length != ChunkLength);
        _chunk = -1;
        _used = 0;
        Count = 0;
        Bytes = 0;
    }

    /// <summary>Forgets every pair and lets go of every chunk: the build has spilled its last run.</summary>
    public void Release()
    {
        Clear();
        _chunks.Clear();
        _slots = [];
    }

    private void NextChunk(int length)
    {
        _chunk++;
        _used = 0;
        if (length > ChunkLength)
        {
            _chunks.Insert(_chunk, new byte[length]); // one pair larger than a chunk gets a chunk of its own
        }
        else if (_chunk == _chunks.Count || _chunks[_chunk].Length != ChunkLength)
        {
            _chunks.Insert(_chunk, new byte[ChunkLength]);
        }
    }

    private static ReadOnlySpan<byte> KeyOf(List<byte[]> chunks, Slot slot) => chunks[slot.Chunk].AsSpan(slot.Offset, slot.KeyLength);

    private readonly record struct Slot(int Chunk, int Offset, int KeyLength, int ValueLength);
}
