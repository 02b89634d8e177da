using System.Buffers.Binary;

namespace DataStore.Transfer;

/// <summary>Writes the dump format (docs/dump-format.md) to a stream: header, pairs packed into CRC-checked frames, end marker, trailer.</summary>
/// <remarks>Holds one frame (1 MiB) in memory, whatever the size of the store.</remarks>
internal sealed class DumpWriter
{
    private const int FramePrefix = sizeof(uint);
    private readonly Stream _stream;
    private readonly PairDigest _digest;
    private readonly byte[] _frame = new byte[FramePrefix + DumpFormat.MaxFrameLength + sizeof(uint)];
    private int _length;

    public DumpWriter(Stream stream, PairDigest digest)
    {
        _stream = stream;
        _digest = digest;
    }

    /// <summary>Bytes written to the stream so far (whole frames only).</summary>
    public long BytesWritten { get; private set; }

    /// <summary>Writes the header; <paramref name="pairsHint"/> is the expected pair count or <see cref="DumpFormat.UnknownPairs"/>.</summary>
    public void WriteHeader(ulong pairsHint)
    {
        Span<byte> header = stackalloc byte[DumpFormat.HeaderLength];
        DumpFormat.Magic.CopyTo(header);
        BinaryPrimitives.WriteUInt32LittleEndian(header[8..], DumpFormat.CurrentVersion);
        BinaryPrimitives.WriteUInt32LittleEndian(header[12..], 0);
        BinaryPrimitives.WriteUInt64LittleEndian(header[16..], pairsHint);
        BinaryPrimitives.WriteUInt32LittleEndian(header[24..], DumpCrc.Compute(header[..24]));
        _stream.Write(header);
        BytesWritten += header.Length;
    }

    /// <summary>Appends one pair; keys must come in strictly ascending memcmp order.</summary>
    public void Write(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        _digest.Append(key, value);
        Span<byte> length = stackalloc byte[Varint.MaxBytes];
        Append(length[..Varint.Write(length, (uint)key.Length)]);
        Append(key);
        Append(length[..Varint.Write(length, (uint)value.Length)]);
        Append(value);
    }

    /// <summary>Writes the end marker and the trailer (count, bytes, SHA-256 of the pairs) and flushes the stream.</summary>
    public void Finish()
    {
        Append([0]);
        FlushFrame();
        Span<byte> trailer = stackalloc byte[DumpFormat.TrailerLength];
        BinaryPrimitives.WriteUInt64LittleEndian(trailer, (ulong)_digest.Pairs);
        BinaryPrimitives.WriteUInt64LittleEndian(trailer[8..], (ulong)_digest.Bytes);
        _digest.CurrentHash().CopyTo(trailer[16..]);
        BinaryPrimitives.WriteUInt32LittleEndian(trailer[48..], DumpCrc.Compute(trailer[..48]));
        _stream.Write(trailer);
        BytesWritten += trailer.Length;
        _stream.Flush();
    }

    private void Append(ReadOnlySpan<byte> bytes)
    {
        while (!bytes.IsEmpty)
        {
            var take = Math.Min(bytes.Length, DumpFormat.MaxFrameLength - _length);
            bytes[..take].CopyTo(_frame.AsSpan(FramePrefix + _length));
            _length += take;
            bytes = bytes[take..];
            if (_length == DumpFormat.MaxFrameLength)
            {
                FlushFrame();
            }
        }
    }

    private void FlushFrame()
    {
        if (_length == 0)
        {
            return;
        }

        BinaryPrimitives.WriteUInt32LittleEndian(_frame, (uint)_length);
        var payload = _frame.AsSpan(FramePrefix, _length);
        BinaryPrimitives.WriteUInt32LittleEndian(_frame.AsSpan(FramePrefix + _length), DumpCrc.Compute(payload));
        var total = FramePrefix + _length + sizeof(uint);
        _stream.Write(_frame, 0, total);
        BytesWritten += total;
        _length = 0;
    }
}
