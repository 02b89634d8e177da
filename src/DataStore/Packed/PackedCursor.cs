namespace DataStore.Packed;

/// <summary>
/// A cursor over a range of a packed file: keys are rebuilt into one reused buffer (each pair's shared part comes from
/// its block's first key, copied only where the buffer does not hold it yet), values are spans of the mapping.
/// </summary>
/// <remarks>
/// Allocates nothing per pair (the key buffer grows only for a longer key). The cursor holds the mapping until it
/// is disposed, so its spans stay readable even when the store is disposed meanwhile; <see cref="MoveNext"/> then
/// throws <see cref="ObjectDisposedException"/>. One thread at a time.
/// </remarks>
internal sealed class PackedCursor : IKeyValueCursor
{
    private readonly PackedFileStore _store;
    private readonly PackedFile _file;
    private readonly byte[] _start;
    private readonly byte[] _end;
    private readonly bool _keysOnly;
    private byte[] _key = new byte[64];
    private int _keyLength = -1;
    private int _block;
    private long _blockOffset;
    private int _blockLength = -1;
    private int _position;
    private int _agree;
    private long _valueOffset;
    private int _valueLength;
    private bool _held;

    public PackedCursor(PackedFileStore store, PackedFile file, ReadOnlySpan<byte> start, ReadOnlySpan<byte> end, bool keysOnly)
    {
        _store = store;
        _file = file;
        _start = start.ToArray();
        _end = end.ToArray();
        _keysOnly = keysOnly;
        _block = start.IsEmpty ? 0 : Math.Max(0, file.FindBlock(start));
        _held = file.Hold();
    }

    public ReadOnlySpan<byte> Key => _keyLength >= 0
        ? _key.AsSpan(0, _keyLength)
        : throw new InvalidOperationException("Call MoveNext before reading the cursor, and stop when it returns false.");

    public ReadOnlySpan<byte> Value => _keysOnly || _keyLength < 0 ? default : _file.Span(_valueOffset, _valueLength);

    public bool MoveNext()
    {
        if (!_held || !_store.TryEnterCall())
        {
            throw new ObjectDisposedException(nameof(PackedCursor), $"The Packed store at '{_store.Path}' or this cursor has been disposed.");
        }

        try
        {
            return Advance();
        }
        finally
        {
            _store.ExitCall();
        }
    }

    public void Dispose()
    {
        _keyLength = -1;
        if (_held)
        {
            _held = false;
            _file.Let();
        }
    }

    private bool Advance()
    {
        while (_block < _file.BlockCount)
        {
            if (_blockLength < 0)
            {
                var data = _file.Block(_block); // checks the block's CRC-32C the first time
                _blockOffset = _file.Entry(_block).Offset;
                _blockLength = data.Length;
                _position = 0;
            }

            if (_position >= _blockLength)
            {
                _block++;
                _blockLength = -1;
                continue;
            }

            var block = _file.Span(_blockOffset, _blockLength);
            var start = _position;
            var entry = PackedEntry.Read(block, start);
            _position = entry.End;
            var length = entry.Shared + entry.SuffixLength;
            if (_key.Length < length)
            {
                Array.Resize(ref _key, Math.Max(length, _key.Length * 2));
            }

            // _key[.._agree] holds the block's first key already: copy only the rest of the shared part.
            if (start > 0 && entry.Shared > _agree)
            {
                var head = PackedEntry.Read(block, 0); // the block's first pair holds its first key whole
                if (entry.Shared > head.SuffixLength)
                {
                    throw PackedDamage.Error(_file.StorePath, _file.FilePath, $"the pair at offset {start} of block {_block} shares more bytes than the block's first key has");
                }

                block.Slice(head.SuffixStart + _agree, entry.Shared - _agree).CopyTo(_key.AsSpan(_agree));
            }

            block.Slice(entry.SuffixStart, entry.SuffixLength).CopyTo(_key.AsSpan(entry.Shared));
            _agree = start == 0 ? length : entry.Shared;
            _keyLength = length;
            var key = _key.AsSpan(0, length);
            if (key.SequenceCompareTo(_start) < 0)
            {
                continue;
            }

            if (_end.Length > 0 && key.SequenceCompareTo(_end) >= 0)
            {
                break;
            }

            _valueOffset = _blockOffset + entry.ValueStart;
            _valueLength = entry.ValueLength;
            return true;
        }

        _block = _file.BlockCount;
        _keyLength = -1;
        return false;
    }
}
