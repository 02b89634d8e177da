using DataStore.Platform;
using Microsoft.Win32.SafeHandles;

namespace DataStore.FileSystem;

// Reads: a key file's key and value into this thread's buffer, or its value straight into a Get's target.
internal static partial class KeyFile
{
    /// <summary>
    /// Reads the file at <paramref name="pathZ"/> (NUL-terminated UTF-8). On <see cref="ReadStatus.Found"/> the
    /// spans point into a per-thread buffer valid until this thread's next read; <paramref name="value"/> is
    /// empty unless <paramref name="withValue"/>.
    /// </summary>
    public static ReadStatus Read(scoped ReadOnlySpan<byte> pathZ, bool withValue, out ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value)
    {
        var none = default(ValueTarget);
        return Read(pathZ, withValue, ref none, out key, out value);
    }

    /// <summary>
    /// As <see cref="Read(ReadOnlySpan{byte}, bool, out ReadOnlySpan{byte}, out ReadOnlySpan{byte})"/>; a file of
    /// <paramref name="target"/>'s key puts its checked value in the target (see <see cref="ReadAndClose"/>).
    /// </summary>
    public static ReadStatus Read(scoped ReadOnlySpan<byte> pathZ, bool withValue, scoped ref ValueTarget target, out ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value)
    {
        key = default;
        value = default;
        if (OperatingSystem.IsWindows())
        {
            return ReadPortable(pathZ, withValue, ref target, out key, out value);
        }

        var fd = PosixFile.OpenRead(pathZ);
        return fd < 0 ? ReadStatus.Missing : ReadAndClose(fd, withValue, ref target, out key, out value);
    }

    /// <summary>
    /// Reads the open key file <paramref name="fd"/> as <see cref="Read(ReadOnlySpan{byte}, bool, out ReadOnlySpan{byte}, out ReadOnlySpan{byte})"/>
    /// does, and closes it. When the file holds <paramref name="target"/>'s key, its value is read straight into the
    /// target and checked there (<paramref name="value"/> is then the target's bytes); a value that fails its checksum
    /// is cleared from the target before <see cref="ReadStatus.Damaged"/> is returned.
    /// </summary>
    public static ReadStatus ReadAndClose(int fd, bool withValue, scoped ref ValueTarget target, out ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value)
    {
        key = default;
        value = default;
        try
        {
            var buffer = ThreadBuffer;
            var read = PosixFile.ReadAt(fd, buffer.AsSpan(0, SmallRead), 0);
            if (!TryParseHeader(buffer.AsSpan(0, read), out var keyLength, out var valueLength, out var checksum))
            {
                return ReadStatus.Damaged;
            }

            if (withValue && target.IsSet && HeaderSize + keyLength <= read && buffer.AsSpan(HeaderSize, keyLength).SequenceEqual(target.Key))
            {
                return ReadInto(fd, buffer, read, keyLength, (int)valueLength, checksum, ref target, out key, out value);
            }

            var wanted = HeaderSize + (long)keyLength + (withValue ? valueLength : 0);
            if (wanted > read)
            {
                if (wanted > int.MaxValue)
                {
                    return ReadStatus.Damaged;
                }

                if (wanted > buffer.Length)
                {
                    var large = GC.AllocateUninitializedArray<byte>((int)wanted);
                    buffer.AsSpan(0, read).CopyTo(large);
                    buffer = large;
                }

                read += PosixFile.ReadAt(fd, buffer.AsSpan(read, (int)wanted - read), read);
                if (read < wanted)
                {
                    return ReadStatus.Damaged;
                }
            }

            return Parse(buffer, keyLength, valueLength, checksum, withValue, ref target, out key, out value);
        }
        finally
        {
            PosixFile.CloseFile(fd);
        }
    }

    /// <summary>
    /// Reads the value of the file whose header and first <paramref name="read"/> bytes are in <paramref name="buffer"/>
    /// into <paramref name="target"/> (one copy of what the first read took, the rest read straight there), then checks it.
    /// </summary>
    private static ReadStatus ReadInto(int fd, byte[] buffer, int read, int keyLength, int valueLength, uint checksum, scoped ref ValueTarget target,
        out ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value)
    {
        var keyEnd = HeaderSize + keyLength;
        key = buffer.AsSpan(HeaderSize, keyLength);
        value = default;
        var crc = Crc(uint.MaxValue, key);
        if (!target.TryReserve(valueLength, out var place))
        {
            // The caller's span is too short for the value: it gets the length, and the value is checked through this
            // thread's buffer (after the key), so that damage is still an error.
            return ChecksThrough(fd, buffer.AsSpan(keyEnd), keyEnd, valueLength, crc, checksum) ? ReadStatus.Found : Damaged(out key);
        }

        var first = Math.Min(read - keyEnd, valueLength);
        buffer.AsSpan(keyEnd, first).CopyTo(place);
        if ((first < valueLength && PosixFile.ReadAt(fd, place[first..], read) < valueLength - first) || ~Crc(crc, place) != checksum)
        {
            place.Clear();
            return Damaged(out key);
        }

        value = place;
        return ReadStatus.Found;
    }

    /// <summary>True when a file's value (<paramref name="length"/> bytes from <paramref name="offset"/>), read in pieces through <paramref name="buffer"/> and fed to <paramref name="crc"/>, is whole and matches <paramref name="checksum"/>.</summary>
    private static bool ChecksThrough(int fd, Span<byte> buffer, long offset, int length, uint crc, uint checksum)
    {
        for (var done = 0; done < length;)
        {
            var piece = buffer[..Math.Min(buffer.Length, length - done)];
            if (PosixFile.ReadAt(fd, piece, offset + done) < piece.Length)
            {
                return false;
            }

            crc = Crc(crc, piece);
            done += piece.Length;
        }

        return ~crc == checksum;
    }

    private static ReadStatus Damaged(out ReadOnlySpan<byte> key)
    {
        key = default;
        return ReadStatus.Damaged;
    }

    private static ReadStatus ReadPortable(scoped ReadOnlySpan<byte> pathZ, bool withValue, scoped ref ValueTarget target, out ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value)
    {
        key = default;
        value = default;
        var path = System.Text.Encoding.UTF8.GetString(pathZ[..^1]);
        SafeFileHandle handle;
        try
        {
            handle = File.OpenHandle(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        }
        catch (Exception e) when (e is FileNotFoundException or DirectoryNotFoundException)
        {
            return ReadStatus.Missing;
        }

        using (handle)
        {
            var length = RandomAccess.GetLength(handle);
            if (length > int.MaxValue)
            {
                return ReadStatus.Damaged;
            }

            var buffer = GC.AllocateUninitializedArray<byte>((int)length);
            var read = RandomAccess.Read(handle, buffer, 0);
            if (!TryParseHeader(buffer.AsSpan(0, read), out var keyLength, out var valueLength, out var checksum) ||
                HeaderSize + keyLength + valueLength > read)
            {
                return ReadStatus.Damaged;
            }

            return Parse(buffer, keyLength, valueLength, checksum, withValue, ref target, out key, out value);
        }
    }

    // A file read whole into buffer; a checked value of the target's key is copied into the target.
    private static ReadStatus Parse(byte[] buffer, int keyLength, long valueLength, uint checksum, bool withValue, scoped ref ValueTarget target,
        out ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value)
    {
        key = buffer.AsSpan(HeaderSize, keyLength);
        value = withValue ? buffer.AsSpan(HeaderSize + keyLength, (int)valueLength) : default;
        if (withValue && Checksum(key, value) != checksum)
        {
            value = default;
            return Damaged(out key);
        }

        if (withValue && target.IsSet && key.SequenceEqual(target.Key) && target.TryReserve(value.Length, out var place))
        {
            value.CopyTo(place);
        }

        return ReadStatus.Found;
    }
}
