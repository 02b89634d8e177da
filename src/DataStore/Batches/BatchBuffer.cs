namespace DataStore.Batches;

/// <summary>
/// The bytes a <see cref="WriteBatch"/> holds, copied into 64 KiB chunks so a batch of many small entries
/// allocates little, and a cleared batch reuses its chunks; or, for a batch decoded from a message, left where they
/// are in that message (<see cref="Borrow"/>) until the batch is cleared.
/// </summary>
internal sealed class BatchBuffer
{
    private const int ChunkSize = 64 * 1024;
    private const int MaxKeptChunks = 16;
    private const int BorrowedChunk = int.MaxValue; // the chunk index of an offset into the borrowed bytes
    private readonly List<byte[]> _chunks = [];
    private byte[]? _borrowed;
    private int _current = -1;
    private int _used = ChunkSize;

    public BatchEntry Add(BatchEntryKind kind, ReadOnlySpan<byte> first, ReadOnlySpan<byte> second)
    {
        var firstOffset = Append(first);
        var secondOffset = Append(second);
        return new BatchEntry(kind, firstOffset, first.Length, secondOffset, second.Length);
    }

    /// <summary>Lets entries refer to <paramref name="bytes"/> in place (<see cref="AddBorrowed"/>) until <see cref="Clear"/>; the caller leaves them unchanged until then.</summary>
    public void Borrow(byte[] bytes) => _borrowed = bytes;

    /// <summary>An entry whose byte strings sit at the given places in the borrowed bytes (nothing is copied).</summary>
    public BatchEntry AddBorrowed(BatchEntryKind kind, int firstOffset, int firstLength, int secondOffset, int secondLength)
    {
        var bytes = _borrowed ?? throw new InvalidOperationException("No bytes are borrowed.");
        _ = bytes.AsSpan(firstOffset, firstLength); // out of range throws here, not when the entry is read
        _ = bytes.AsSpan(secondOffset, secondLength);
        return new BatchEntry(kind, Borrowed(firstOffset), firstLength, Borrowed(secondOffset), secondLength);
    }

    public ReadOnlySpan<byte> First(in BatchEntry entry) => Slice(entry.FirstOffset, entry.FirstLength);

    public ReadOnlySpan<byte> Second(in BatchEntry entry) => Slice(entry.SecondOffset, entry.SecondLength);

    /// <summary>Forgets every entry's bytes and the borrowed ones, keeping up to 1 MiB of chunks for reuse.</summary>
    public void Clear()
    {
        _borrowed = null;
        _chunks.RemoveAll(chunk => chunk.Length != ChunkSize);
        if (_chunks.Count > MaxKeptChunks)
        {
            _chunks.RemoveRange(MaxKeptChunks, _chunks.Count - MaxKeptChunks);
        }

        _current = -1;
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
            return (long)(_chunks.Count - 1) << 32;
        }

        if (_used + bytes.Length > ChunkSize)
        {
            NextChunk();
        }

        var offset = ((long)_current << 32) | (uint)_used;
        bytes.CopyTo(_chunks[_current].AsSpan(_used));
        _used += bytes.Length;
        return offset;
    }

    // Chunks after the current one that are chunk-sized have not been written since the last Clear.
    private void NextChunk()
    {
        do
        {
            _current++;
        }
        while (_current < _chunks.Count && _chunks[_current].Length != ChunkSize);

        if (_current == _chunks.Count)
        {
            _chunks.Add(new byte[ChunkSize]);
        }

        _used = 0;
    }

    private static long Borrowed(int offset) => ((long)BorrowedChunk << 32) | (uint)offset;

    private ReadOnlySpan<byte> Slice(long offset, int length)
    {
        if (length == 0)
        {
            return default;
        }

        var chunk = (int)(offset >> 32);
        return (chunk == BorrowedChunk ? _borrowed! : _chunks[chunk]).AsSpan((int)(uint)offset, length);
    }
}
