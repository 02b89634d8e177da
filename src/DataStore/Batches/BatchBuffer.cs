namespace DataStore.Batches;

/// <summary>The bytes a <see cref="WriteBatch"/> holds, copied into chunks so a batch of many small entries allocates little.</summary>
internal sealed class BatchBuffer
{
    private const int ChunkSize = 64 * 1024;
    private readonly List<byte[]> _chunks = [];
    private int _used = ChunkSize;

    public BatchEntry Add(BatchEntryKind kind, ReadOnlySpan<byte> first, ReadOnlySpan<byte> second)
    {
        var firstOffset = Append(first);
        var secondOffset = Append(second);
        return new BatchEntry(kind, firstOffset, first.Length, secondOffset, second.Length);
    }

    public ReadOnlySpan<byte> First(in BatchEntry entry) => Slice(entry.FirstOffset, entry.FirstLength);

    public ReadOnlySpan<byte> Second(in BatchEntry entry) => Slice(entry.SecondOffset, entry.SecondLength);

    public void Clear()
    {
        _chunks.Clear();
        _used = ChunkSize;
    }

    // An offset packs the chunk index in the high 32 bits and the position in the low 32 bits.
    private long Append(ReadOnlySpan<byte> bytes)
    {
        if (bytes.IsEmpty)
        {
            return 0;
        }

        if (bytes.Length > ChunkSize / 4)
        {
            _chunks.Add(bytes.ToArray());
            _used = ChunkSize;
            return (long)(_chunks.Count - 1) << 32;
        }

        if (_used + bytes.Length > ChunkSize)
        {
            _chunks.Add(new byte[ChunkSize]);
            _used = 0;
        }

        var offset = ((long)(_chunks.Count - 1) << 32) | (uint)_used;
        bytes.CopyTo(_chunks[^1].AsSpan(_used));
        _used += bytes.Length;
        return offset;
    }

    private ReadOnlySpan<byte> Slice(long offset, int length) =>
        length == 0 ? default : _chunks[(int)(offset >> 32)].AsSpan((int)(uint)offset, length);
}
