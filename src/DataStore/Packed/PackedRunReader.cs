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
    private readonly uint[] _blockLengths;
    private long _position = PackedFormat.HeaderLength;
    private long _blockEnd = PackedFormat.HeaderLength;
    private int _nextBlock;
    private byte[] _first = new byte[64];
    private byte[] _key = new byte[64];
    private byte[] _value = new byte[256];

    public PackedRunReader(string path)
    {
        _file = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, 1 << 16, FileOptions.SequentialScan | FileOptions.DeleteOnClose);
        Span<byte> footer = stackalloc byte[PackedFormat.FooterLength];
        _file.Seek(-PackedFormat.FooterLength, SeekOrigin.End);
        _file.ReadExactly(footer);
        _end = BinaryPrimitives.ReadInt64LittleEndian(footer);
        _blockLengths = new uint[checked((int)BinaryPrimitives.ReadInt64LittleEndian(footer[32..]))];
        Span<byte> entry = stackalloc byte[PackedFormat.IndexEntryLength];
        _file.Seek(_end, SeekOrigin.Begin);
        for (var i = 0; i < _blockLengths.Length; i++)
        {
            _file.ReadExactly(entry);
            _blockLengths[i] = PackedBlockEntry.Read(entry).Length;
        }

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

        // A pair shares its first bytes with its block's first key, kept in _first.
        var first = _position == _blockEnd;
        if (first)
        {
            _blockEnd += _blockLengths[_nextBlock++];
        }

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

        _first.AsSpan(0, shared).CopyTo(_key);
        _file.ReadExactly(_key.AsSpan(shared, suffix));
        if (first)
        {
            if (_first.Length < suffix)
            {
                _first = new byte[Math.Max(suffix, _first.Length * 2)];
            }

            _key.AsSpan(0, suffix).CopyTo(_first);
        }

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
