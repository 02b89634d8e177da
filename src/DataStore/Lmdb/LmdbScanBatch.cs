using System.Buffers;
using System.Buffers.Binary;

namespace DataStore.Lmdb;

/// <summary>
/// Pairs a scan copied out of LMDB's map in one visit, handed out one at a time: a scan enters the map once per
/// batch instead of once per pair, and copies each pair once.
/// </summary>
internal sealed class LmdbScanBatch : IDisposable
{
    private const int HeaderLength = 8;
    private const int InitialBytes = 16 * 1024;

    private byte[] _buffer = ArrayPool<byte>.Shared.Rent(InitialBytes);
    private int _written;
    private int _read;
    private int _keyStart;
    private int _keyLength;
    private int _valueLength;

    /// <summary>How many pairs were added since the last <see cref="Clear"/>.</summary>
    public int Count { get; private set; }

    /// <summary>The current pair's key (after <see cref="MoveNext"/> returned true).</summary>
    public ReadOnlySpan<byte> Key => _buffer.AsSpan(_keyStart, _keyLength);

    /// <summary>The current pair's value.</summary>
    public ReadOnlySpan<byte> Value => _buffer.AsSpan(_keyStart + _keyLength, _valueLength);

    /// <summary>Copies a pair in; false when it does not fit beside the pairs already in (an empty batch grows to fit).</summary>
    public bool TryAdd(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        var length = HeaderLength + key.Length + value.Length;
        if (_written + length > _buffer.Length)
        {
            if (Count > 0)
            {
                return false;
            }

            ArrayPool<byte>.Shared.Return(_buffer);
            _buffer = ArrayPool<byte>.Shared.Rent(length);
        }

        var target = _buffer.AsSpan(_written, length);
        BinaryPrimitives.WriteInt32LittleEndian(target, key.Length);
        BinaryPrimitives.WriteInt32LittleEndian(target[4..], value.Length);
        key.CopyTo(target[HeaderLength..]);
        value.CopyTo(target[(HeaderLength + key.Length)..]);
        _written += length;
        Count++;
        return true;
    }

    /// <summary>Moves to the next pair added; false when every pair has been handed out.</summary>
    public bool MoveNext()
    {
        if (_read >= _written)
        {
            return false;
        }

        var header = _buffer.AsSpan(_read, HeaderLength);
        _keyLength = BinaryPrimitives.ReadInt32LittleEndian(header);
        _valueLength = BinaryPrimitives.ReadInt32LittleEndian(header[4..]);
        _keyStart = _read + HeaderLength;
        _read = _keyStart + _keyLength + _valueLength;
        return true;
    }

    /// <summary>Empties the batch for the next visit.</summary>
    public void Clear()
    {
        _written = _read = 0;
        Count = 0;
    }

    public void Dispose()
    {
        ArrayPool<byte>.Shared.Return(_buffer);
        _buffer = [];
        Clear();
    }
}
