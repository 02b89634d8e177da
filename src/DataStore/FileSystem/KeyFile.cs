using System.Buffers.Binary;
using DataStore.Platform;
using Microsoft.Win32.SafeHandles;

namespace DataStore.FileSystem;

/// <summary>
/// One key's file: a 24-byte header (magic <c>DSK1</c>, key length, value length, CRC-32C of key and value), the
/// whole key, then the value. A file that is short, has another magic or fails its checksum is damaged (a power
/// loss can leave a Relaxed write's file so) and reads as absent.
/// </summary>
internal static partial class KeyFile
{
    public const int HeaderSize = 24;
    private const uint Magic = 0x314B5344; // "DSK1"
    private const int SmallRead = 4096;
    private const int LargeValue = 1 << 16;

    [ThreadStatic]
    private static byte[]? t_buffer;

    /// <summary>This thread's buffer for staging a small file and for reading key files (<see cref="LargeValue"/> bytes).</summary>
    private static byte[] ThreadBuffer => t_buffer ??= new byte[LargeValue];

    /// <summary>
    /// Writes the file at <paramref name="path"/> holding <paramref name="key"/> and <paramref name="value"/>, flushed to
    /// disk when <paramref name="flush"/>. With <paramref name="inPlace"/> an existing file is overwritten where it is
    /// (not truncated first, which on ext4 would force its data out early) and cut to the new length.
    /// </summary>
    public static void Write(string path, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, bool flush, bool inPlace = false)
    {
        using var handle = File.OpenHandle(path, inPlace ? FileMode.OpenOrCreate : FileMode.Create, FileAccess.Write, FileShare.ReadWrite | FileShare.Delete);
        var total = HeaderSize + key.Length + value.Length;
        if (inPlace && RandomAccess.GetLength(handle) > total)
        {
            RandomAccess.SetLength(handle, total);
        }

        Span<byte> header = stackalloc byte[HeaderSize];
        if (Stage(header, key, value) is { IsEmpty: false } whole)
        {
            RandomAccess.Write(handle, whole, 0);
        }
        else
        {
            RandomAccess.Write(handle, header, 0);
            RandomAccess.Write(handle, key, HeaderSize);
            RandomAccess.Write(handle, value, HeaderSize + key.Length);
        }

        PutTrace.Mark(PutStep.Write);
        if (flush)
        {
            RandomAccess.FlushToDisk(handle);
            PutTrace.Mark(PutStep.Flush);
        }
    }

    /// <summary>
    /// As <see cref="Write"/> in place, for the file <paramref name="nameZ"/> (NUL-terminated) in the open directory
    /// <paramref name="directory"/>, through <see cref="PosixWrites"/> (Linux): three system calls where .NET's file
    /// APIs make eight. False when the directory is gone (the caller then writes by path).
    /// </summary>
    public static bool TryWriteAt(SafeFileHandle directory, ReadOnlySpan<byte> nameZ, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, bool flush)
    {
        var added = false;
        directory.DangerousAddRef(ref added);
        try
        {
            var fd = PosixWrites.OpenWriteAt((int)directory.DangerousGetHandle(), nameZ);
            if (fd < 0)
            {
                return false;
            }

            try
            {
                var total = HeaderSize + key.Length + value.Length;
                if (PosixWrites.Length(fd) > total)
                {
                    PosixWrites.Truncate(fd, total);
                }

                Span<byte> header = stackalloc byte[HeaderSize];
                if (Stage(header, key, value) is { IsEmpty: false } whole)
                {
                    PosixWrites.WriteAt(fd, whole, 0);
                }
                else
                {
                    PosixWrites.WriteAt(fd, header, 0);
                    PosixWrites.WriteAt(fd, key, HeaderSize);
                    PosixWrites.WriteAt(fd, value, HeaderSize + key.Length);
                }

                PutTrace.Mark(PutStep.Write);
                if (flush)
                {
                    PosixWrites.Flush(fd);
                    PutTrace.Mark(PutStep.Flush);
                }

                return true;
            }
            finally
            {
                PosixFile.CloseFile(fd);
            }
        }
        finally
        {
            if (added)
            {
                directory.DangerousRelease();
            }
        }
    }

    /// <summary>Fills <paramref name="header"/>; returns the whole file (header, key, value) in this thread's buffer, or empty when it is too large to stage.</summary>
    private static Span<byte> Stage(Span<byte> header, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        WriteHeader(header, key, value);
        var total = HeaderSize + key.Length + value.Length;
        if (total > LargeValue)
        {
            return [];
        }

        var whole = ThreadBuffer.AsSpan(0, total);
        header.CopyTo(whole);
        key.CopyTo(whole[HeaderSize..]);
        value.CopyTo(whole[(HeaderSize + key.Length)..]);
        return whole;
    }

    private static void WriteHeader(Span<byte> header, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        BinaryPrimitives.WriteUInt32LittleEndian(header, Magic);
        BinaryPrimitives.WriteInt32LittleEndian(header[4..], key.Length);
        BinaryPrimitives.WriteInt64LittleEndian(header[8..], value.Length);
        BinaryPrimitives.WriteUInt32LittleEndian(header[16..], Checksum(key, value));
        BinaryPrimitives.WriteUInt32LittleEndian(header[20..], 0);
    }

    private static bool TryParseHeader(ReadOnlySpan<byte> data, out int keyLength, out long valueLength, out uint checksum)
    {
        keyLength = 0;
        valueLength = 0;
        checksum = 0;
        if (data.Length < HeaderSize || BinaryPrimitives.ReadUInt32LittleEndian(data) != Magic)
        {
            return false;
        }

        keyLength = BinaryPrimitives.ReadInt32LittleEndian(data[4..]);
        valueLength = BinaryPrimitives.ReadInt64LittleEndian(data[8..]);
        checksum = BinaryPrimitives.ReadUInt32LittleEndian(data[16..]);
        return keyLength > 0 && valueLength >= 0 && valueLength <= int.MaxValue;
    }

    /// <summary>CRC-32C of the key followed by the value.</summary>
    public static uint Checksum(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) => ~Crc(Crc(uint.MaxValue, key), value);

    /// <summary>Continues a CRC-32C over <paramref name="data"/> (start from <see cref="uint.MaxValue"/>, finish with <c>~</c>).</summary>
    public static uint Crc(uint crc, ReadOnlySpan<byte> data) => Integrity.Crc32C.Append(crc, data);
}
