namespace DataStore.Transfer;

/// <summary>
/// Reads the pairs of a dump in order, checking each length, the key order and, at the end, the trailer's count,
/// bytes and SHA-256 against what was read.
/// </summary>
/// <remarks>
/// A pair inside one frame is returned as spans into that frame; a pair that crosses frames is assembled in buffers
/// that grow only as its bytes arrive, so a length prefix claiming a gigabyte in a small file allocates nothing large.
/// </remarks>
internal sealed class DumpReader
{
    private const int FirstBuffer = 4096;
    private readonly DumpFrameReader _frames;
    private readonly PairDigest _digest;
    private byte[] _frame = [];
    private int _position;
    private int _end;
    private byte[] _key = [];
    private byte[] _value = [];
    private byte[] _previous = [];
    private int _previousLength;
    private long _payloadOffset;
    private bool _ended;

    public DumpReader(Stream stream, string storePath, StoreBackend backend, PairDigest digest)
    {
        _frames = new DumpFrameReader(stream, storePath, backend);
        _digest = digest;
    }

    /// <summary>Bytes of the dump read so far.</summary>
    public long Offset => _frames.Offset;

    /// <summary>Reads the header; returns the pair count the writer announced, or null.</summary>
    public long? ReadHeader()
    {
        var hint = _frames.ReadHeader();
        return hint <= long.MaxValue ? (long)hint : null;
    }

    /// <summary>Reads the next pair (spans valid until the next call); false at the end marker.</summary>
    public bool TryRead(out ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value)
    {
        if (_ended)
        {
            throw new InvalidOperationException("The dump's end marker has already been read.");
        }

        if (_position == _end)
        {
            Load();
        }

        if (!TryReadInFrame(out key, out value) && !_ended)
        {
            ReadAcrossFrames(out key, out value);
        }

        if (_ended)
        {
            return false;
        }

        CheckOrder(key);
        _digest.Append(key, value);
        return true;
    }

    /// <summary>Reads the trailer and checks it against every pair read; returns the digest.</summary>
    public StoreDigest Finish()
    {
        var start = _frames.Offset;
        var (pairs, bytes, sha) = _frames.ReadTrailer();
        if (pairs != (ulong)_digest.Pairs || bytes != (ulong)_digest.Bytes)
        {
            throw _frames.Damaged(start, $"the trailer records {pairs:N0} pairs of {bytes:N0} bytes, but the dump holds {_digest.Pairs:N0} pairs of {_digest.Bytes:N0} bytes.");
        }

        var digest = _digest.ToDigest();
        if (!Convert.ToHexStringLower(sha).Equals(digest.Checksum, StringComparison.Ordinal))
        {
            throw _frames.Damaged(start, $"the pairs' SHA-256 is {digest.Checksum}, but the trailer records {Convert.ToHexStringLower(sha)}.");
        }

        return digest;
    }

    private long Here => _payloadOffset + _position;

    private void Load()
    {
        var payload = _frames.ReadFrame();
        _frame = payload.Array!;
        _position = 0;
        _end = payload.Count;
        _payloadOffset = _frames.Offset - sizeof(uint) - payload.Count;
    }

    /// <summary>The fast path: the whole pair (or the end marker) lies in the current frame.</summary>
    private bool TryReadInFrame(out ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value)
    {
        key = value = default;
        var rest = _frame.AsSpan(_position, _end - _position);
        if (!TryParse(rest, out var keyLength, out var used))
        {
            return false;
        }

        if (keyLength == 0)
        {
            EndMarker(used, rest.Length);
            return true;
        }

        var afterKey = used + keyLength;
        if (afterKey > rest.Length || !TryParse(rest[afterKey..], out var valueLength, out var used2) || afterKey + used2 + valueLength > rest.Length)
        {
            return false;
        }

        key = rest.Slice(used, keyLength);
        value = rest.Slice(afterKey + used2, valueLength);
        _position += afterKey + used2 + valueLength;
        return true;
    }

    /// <summary>The slow path: a pair crossing frames, copied into buffers that grow as bytes arrive.</summary>
    private void ReadAcrossFrames(out ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value)
    {
        var keyLength = ReadLength();
        if (keyLength == 0)
        {
            EndMarker(0, _end - _position);
            key = value = default;
            return;
        }

        key = ReadInto(ref _key, keyLength);
        var valueLength = ReadLength();
        value = ReadInto(ref _value, valueLength);
    }

    private void EndMarker(int used, int available)
    {
        if (used != available)
        {
            throw _frames.Damaged(Here, $"the end marker in frame {_frames.Frames} is followed by {available - used:N0} more bytes.");
        }

        _position = _end;
        _ended = true;
    }

    private bool TryParse(ReadOnlySpan<byte> bytes, out int length, out int used)
    {
        uint result = 0;
        for (var i = 0; i < Varint.MaxBytes && i < bytes.Length; i++)
        {
            var b = bytes[i];
            result |= (uint)(b & 0x7F) << (7 * i);
            if (b < 0x80)
            {
                length = CheckLength(result, i + 1, b);
                used = i + 1;
                return true;
            }
        }

        if (bytes.Length >= Varint.MaxBytes)
        {
            throw BadLength($"a length takes more than {Varint.MaxBytes} bytes");
        }

        length = used = 0;
        return false;
    }

    private int ReadLength()
    {
        uint result = 0;
        for (var i = 0; i < Varint.MaxBytes; i++)
        {
            if (_position == _end)
            {
                Load();
            }

            var b = _frame[_position++];
            result |= (uint)(b & 0x7F) << (7 * i);
            if (b < 0x80)
            {
                return CheckLength(result, i + 1, b);
            }
        }

        throw BadLength($"a length takes more than {Varint.MaxBytes} bytes");
    }

    private int CheckLength(uint length, int bytes, byte last)
    {
        if (bytes > 1 && last == 0)
        {
            throw BadLength("a length is encoded with needless zero bytes");
        }

        if ((bytes == Varint.MaxBytes && last > 0x0F) || length > DumpFormat.MaxLength)
        {
            throw BadLength($"a length of more than {DumpFormat.MaxLength:N0} bytes is claimed");
        }

        return (int)length;
    }

    private ReadOnlySpan<byte> ReadInto(ref byte[] buffer, int length)
    {
        var filled = 0;
        while (filled < length)
        {
            if (_position == _end)
            {
                Load();
            }

            var take = Math.Min(length - filled, _end - _position);
            if (buffer.Length < filled + take)
            {
                // Grow with what has arrived, never with what the prefix claims.
                var grown = new byte[(int)Math.Min(length, Math.Max((long)filled + take, Math.Max(FirstBuffer, buffer.Length * 2L)))];
                buffer.AsSpan(0, filled).CopyTo(grown);
                buffer = grown;
            }

            _frame.AsSpan(_position, take).CopyTo(buffer.AsSpan(filled));
            _position += take;
            filled += take;
        }

        return buffer.AsSpan(0, length);
    }

    private void CheckOrder(ReadOnlySpan<byte> key)
    {
        if (_digest.Pairs > 0 && key.SequenceCompareTo(_previous.AsSpan(0, _previousLength)) <= 0)
        {
            throw _frames.Damaged(Here, $"pair {_digest.Pairs + 1:N0} does not sort after the pair before it; a dump holds keys in strictly ascending order.");
        }

        if (_previous.Length < key.Length)
        {
            _previous = new byte[Math.Max(key.Length, 64)];
        }

        key.CopyTo(_previous);
        _previousLength = key.Length;
    }

    private DumpFormatException BadLength(string what) =>
        _frames.Damaged(Here, $"{what} in pair {_digest.Pairs + 1:N0}.");
}
