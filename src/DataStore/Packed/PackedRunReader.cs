using System.Buffers.Binary;

namespace DataStore.Packed;

/// <summary>
/// Reads back a sorted run that the build spilled (a packed file it wrote itself) front to back through a buffered
/// stream, not a mapping, so merging runs does not grow the process's resident memory.
/// </summary>
internal sealed class PackedRunReader : IDisposable
{
    private readonly FileStream _file;
    private readonly long _end;
    private long _position = PackedFormat.HeaderLength;
    private byte[] _key = new byte[64];
    private byte[] _value = new byte[256];

    public PackedRunReader(string path)
    {
        _file = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, 1 << 16, FileOptions.SequentialScan | FileOptions.DeleteOnClose);
        Span<byte> footer = stackalloc byte[PackedFormat.FooterLength];
        _file.Seek(-PackedFormat.FooterLength, SeekOrigin.End);
        _file.ReadExactly(footer);
        _end = BinaryPrimitives.ReadInt64LittleEndian(footer);
        _file.Seek(PackedFormat.HeaderLength, SeekOrigin.Begin);
    }

    /// <summary>The current key; valid until the next <see cref="MoveNext"/>.</summary>
    public ReadOnlySpan<byte> Key => _key.AsSpan(0, KeyLength);

    /// <summary>The current value; valid until the next <see cref="MoveNext"/>.</summary>
    public ReadOnlySpan<byte> Value => _value.AsSpan(0, ValueLength);

    private int KeyLength { get; set; }

    private int ValueLength { get; set; }

    /// <summary>Reads the next pair; false at the end of the run.</summary>
    public bool MoveNext()
    {
        if (_position >= _end)
        {
            return false;
        }

        // A block's first pair shares nothing, so applying `shared` to the previous pair read is right across blocks too.
        var shared = ReadLength();
        var suffix = ReadLength();
        var valueLength = ReadLength();
        if (_key.Length < shared + suffix)
        {
            Array.Resize(ref _key, Math.Max(shared + suffix, _key.Length * 2));
        }

        if (_value.Length < valueLength)
        {
            _value = new byte[Math.Max(valueLength, _value.Length * 2)];
        }

        _file.ReadExactly(_key.AsSpan(shared, suffix));
        _file.ReadExactly(_value.AsSpan(0, valueLength));
        _position += suffix + valueLength;
        KeyLength = shared + suffix;
        ValueLength = valueLength;
        return true;
    }

    public void Dispose() => _file.Dispose();

    private int ReadLength()
    {
        uint value = 0;
        for (var shift = 0; ; shift += 7)
        {
            var b = _file.ReadByte();
            if (b < 0)
            {
                throw new EndOfStreamException("a spilled run ended inside a pair");
            }

            _position++;
            value |= (uint)(b & 0x7F) << shift;
            if (b < 0x80)
            {
                return (int)value;
            }
        }
    }
}
