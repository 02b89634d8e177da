using System.Buffers.Binary;
using DataStore.Integrity;

namespace DataStore.ChangeFeed.FileSystem;

/// <summary>
/// One frame of a FileSystem change-log segment: the commit's sequence (8 bytes, little-endian), the record's length
/// (4 bytes), the record, and a CRC-32C of all of that (4 bytes).
/// </summary>
internal static class ChangeLogFrame
{
    /// <summary>The bytes a frame adds around its record.</summary>
    public const int Overhead = HeaderLength + sizeof(uint);

    private const int HeaderLength = sizeof(long) + sizeof(int);

    /// <summary>What <see cref="TryRead"/> found at an offset.</summary>
    public enum Status
    {
        /// <summary>A whole frame with a matching CRC.</summary>
        Whole,

        /// <summary>The end of the segment: no bytes left.</summary>
        End,

        /// <summary>Bytes that are not a whole frame: cut short, a CRC that does not match, or a sequence that is not positive.</summary>
        Broken,
    }

    /// <summary>The frame of <paramref name="record"/> as commit <paramref name="sequence"/>.</summary>
    public static byte[] Encode(long sequence, ReadOnlySpan<byte> record)
    {
        var frame = new byte[Overhead + record.Length];
        BinaryPrimitives.WriteInt64LittleEndian(frame, sequence);
        BinaryPrimitives.WriteInt32LittleEndian(frame.AsSpan(sizeof(long)), record.Length);
        record.CopyTo(frame.AsSpan(HeaderLength));
        var crc = Crc32C.Finish(Crc32C.Append(Crc32C.Seed, frame.AsSpan(0, HeaderLength + record.Length)));
        BinaryPrimitives.WriteUInt32LittleEndian(frame.AsSpan(HeaderLength + record.Length), crc);
        return frame;
    }

    /// <summary>
    /// True when <paramref name="rest"/>, the bytes after a segment's last whole frame, can be one append of commit
    /// <paramref name="next"/> cut short or with bytes not written: shorter than a header, or a header naming that commit
    /// and no more bytes than the frame it declares.
    /// </summary>
    public static bool IsTornAppend(ReadOnlySpan<byte> rest, long next)
    {
        if (rest.Length < HeaderLength)
        {
            return true;
        }

        var length = BinaryPrimitives.ReadInt32LittleEndian(rest[sizeof(long)..]);
        return BinaryPrimitives.ReadInt64LittleEndian(rest) == next && length >= 0 && rest.Length <= Overhead + (long)length;
    }

    /// <summary>Reads the frame at <paramref name="offset"/> of <paramref name="segment"/>; on <see cref="Status.Whole"/>, <paramref name="next"/> is the offset after it.</summary>
    public static Status TryRead(ReadOnlySpan<byte> segment, int offset, out long sequence, out ReadOnlySpan<byte> record, out int next)
    {
        sequence = 0;
        record = default;
        next = offset;
        var rest = segment[offset..];
        if (rest.IsEmpty)
        {
            return Status.End;
        }

        if (rest.Length < Overhead)
        {
            return Status.Broken;
        }

        sequence = BinaryPrimitives.ReadInt64LittleEndian(rest);
        var length = BinaryPrimitives.ReadInt32LittleEndian(rest[sizeof(long)..]);
        if (sequence <= 0 || length < 0 || length > rest.Length - Overhead)
        {
            return Status.Broken;
        }

        var crc = Crc32C.Finish(Crc32C.Append(Crc32C.Seed, rest[..(HeaderLength + length)]));
        if (crc != BinaryPrimitives.ReadUInt32LittleEndian(rest[(HeaderLength + length)..]))
        {
            return Status.Broken;
        }

        record = rest.Slice(HeaderLength, length);
        next = offset + Overhead + length;
        return Status.Whole;
    }
}
