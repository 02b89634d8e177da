using System.Buffers.Binary;

namespace DataStore.Transfer;

/// <summary>
/// Reads the byte level of a dump: the header, CRC-checked frames and the trailer, with a buffer that never exceeds
/// one frame (1 MiB) whatever a length prefix claims. Works on unseekable streams.
/// </summary>
internal sealed class DumpFrameReader
{
    private const int MinimumBuffer = 64 * 1024;
    private readonly Stream _stream;
    private readonly string _storePath;
    private readonly StoreBackend _backend;
    private byte[] _frame = [];

    public DumpFrameReader(Stream stream, string storePath, StoreBackend backend)
    {
        _stream = stream;
        _storePath = storePath;
        _backend = backend;
    }

    /// <summary>Bytes read from the stream so far.</summary>
    public long Offset { get; private set; }

    /// <summary>Frames read so far.</summary>
    public long Frames { get; private set; }

    /// <summary>Reads and checks the header; returns the pair-count hint (<see cref="DumpFormat.UnknownPairs"/> when the writer did not count).</summary>
    public ulong ReadHeader()
    {
        Span<byte> header = stackalloc byte[DumpFormat.HeaderLength];
        var got = _stream.ReadAtLeast(header[..12], 12, throwOnEndOfStream: false);
        Offset += got;
        if (got is > 0 and < 8 && header[..got].SequenceEqual(DumpFormat.Magic[..got]))
        {
            throw Truncated("the header");
        }

        if (got < DumpFormat.Magic.Length || !header[..DumpFormat.Magic.Length].SequenceEqual(DumpFormat.Magic))
        {
            throw new DumpFormatException(StoreFailure.Corrupt, _storePath, _backend, 0, got == 0
                ? "the dump is empty; a DataStore dump starts with its header."
                : "this is not a DataStore dump: it does not start with the dump magic (0x89 'DSDUMP' 0x0A).");
        }

        if (got < 12)
        {
            throw Truncated("the header");
        }

        var version = BinaryPrimitives.ReadUInt32LittleEndian(header[8..]);
        if (version > DumpFormat.CurrentVersion)
        {
            throw new DumpFormatException(StoreFailure.NewerFormat, _storePath, _backend, 8,
                $"the dump has format version {version}, newer than version {DumpFormat.CurrentVersion} that this DataStore reads. Import it with a newer DataStore.");
        }

        if (version == 0)
        {
            throw Damaged(8, "the header names format version 0, which does not exist.");
        }

        ReadExactly(header[12..], "the header");
        if (BinaryPrimitives.ReadUInt32LittleEndian(header[24..]) != DumpCrc.Compute(header[..24]))
        {
            throw Damaged(24, "the header's CRC-32C does not match.");
        }

        var flags = BinaryPrimitives.ReadUInt32LittleEndian(header[12..]);
        if ((flags & ~DumpFormat.KnownFlags) != 0)
        {
            throw new DumpFormatException(StoreFailure.NewerFormat, _storePath, _backend, 12,
                $"the dump uses features (flags 0x{flags:x8}) that this DataStore does not know. Import it with a newer DataStore.");
        }

        return BinaryPrimitives.ReadUInt64LittleEndian(header[16..]);
    }

    /// <summary>Reads the next frame, checks its CRC and returns its payload (valid until the next call).</summary>
    public ArraySegment<byte> ReadFrame()
    {
        Span<byte> prefix = stackalloc byte[sizeof(uint)];
        var start = Offset;
        ReadExactly(prefix, "the pairs, before the end marker");
        var length = BinaryPrimitives.ReadUInt32LittleEndian(prefix);
        if (length is 0 or > DumpFormat.MaxFrameLength)
        {
            throw Damaged(start, $"frame {Frames + 1} claims {length:N0} bytes; a frame holds 1 to {DumpFormat.MaxFrameLength:N0} bytes.");
        }

        // The length is bounded above, so this buffer is at most one frame; it grows only when a frame needs it.
        var total = (int)length + sizeof(uint);
        if (_frame.Length < total)
        {
            _frame = new byte[Math.Max(total, Math.Min(MinimumBuffer, DumpFormat.MaxFrameLength + sizeof(uint)))];
        }

        var frame = _frame.AsSpan(0, total);
        ReadExactly(frame, $"frame {Frames + 1}");
        var payload = frame[..(int)length];
        if (BinaryPrimitives.ReadUInt32LittleEndian(frame[(int)length..]) != DumpCrc.Compute(payload))
        {
            throw Damaged(start, $"the CRC-32C of frame {Frames + 1} does not match.");
        }

        Frames++;
        return new ArraySegment<byte>(_frame, 0, (int)length);
    }

    /// <summary>Reads the trailer, checks its CRC, and checks that the stream ends right after it.</summary>
    public (ulong Pairs, ulong Bytes, byte[] Sha256) ReadTrailer()
    {
        Span<byte> trailer = stackalloc byte[DumpFormat.TrailerLength];
        var start = Offset;
        ReadExactly(trailer, "the trailer");
        if (BinaryPrimitives.ReadUInt32LittleEndian(trailer[48..]) != DumpCrc.Compute(trailer[..48]))
        {
            throw Damaged(start, "the trailer's CRC-32C does not match.");
        }

        Span<byte> extra = stackalloc byte[1];
        if (_stream.Read(extra) != 0)
        {
            throw Damaged(Offset, "there is data after the trailer (a damaged file, or two files joined).");
        }

        return (BinaryPrimitives.ReadUInt64LittleEndian(trailer), BinaryPrimitives.ReadUInt64LittleEndian(trailer[8..]), trailer[16..48].ToArray());
    }

    /// <summary>A damaged-dump exception for a problem at <paramref name="offset"/>.</summary>
    public DumpFormatException Damaged(long offset, string detail) =>
        new(StoreFailure.Corrupt, _storePath, _backend, offset, $"the dump is damaged at byte {offset:N0}: {detail}");

    private void ReadExactly(Span<byte> buffer, string where)
    {
        var got = _stream.ReadAtLeast(buffer, buffer.Length, throwOnEndOfStream: false);
        Offset += got;
        if (got < buffer.Length)
        {
            throw Truncated(where);
        }
    }

    private DumpFormatException Truncated(string where) =>
        new(StoreFailure.Corrupt, _storePath, _backend, Offset, $"the dump is truncated: it ends at byte {Offset:N0}, inside {where}. Was the copy or download complete?");
}
