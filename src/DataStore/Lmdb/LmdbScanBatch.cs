using System.Buffers;
using System.Buffers.Binary;
using DataStore.Integrity;

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
        if (!TryReserve(key.Length, value.Length, out var target))
        {
            return false;
        }

        key.CopyTo(target);
        value.CopyTo(target[key.Length..]);
        Commit(target.Length);
        return true;
    }

    /// <summary>
    /// Copies a pair in from its stored form on a store with checksums (ADR 0014): the key, and the value without
    /// its checksum, which is checked over the bytes copied as they are copied; false when it does not fit.
    /// </summary>
    /// <exception cref="StoreFormatException">The pair does not match its checksum (Corrupt, naming the key); nothing is added.</exception>
    public bool TryAddChecked(ReadOnlySpan<byte> key, ReadOnlySpan<byte> stored, string directory)
    {
        var valueLength = stored.Length - PairChecksum.Length;
        if (valueLength < 0)
        {
            LmdbPairs.ThrowDamaged(key, directory);
        }

        if (!TryReserve(key.Length, valueLength, out var target))
        {
            return false;
        }

        var crc = PairChecksum.ComputeCopy(key, stored[..valueLength], target, target[key.Length..]);
        if (crc != BinaryPrimitives.ReadUInt32LittleEndian(stored[valueLength..]))
        {
            LmdbPairs.ThrowDamaged(key, directory);
        }

        Commit(target.Length);
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

    // Room for a pair after the ones in, its header written; target is where its key and value go. The pair counts
    // only once committed, so a pair that fails its check is never handed out.
    private bool TryReserve(int keyLength, int valueLength, out Span<byte> target)
    {
        var length = HeaderLength + keyLength + valueLength;
        if (_written + length > _buffer.Length)
        {
            if (Count > 0)
            {
                target = default;
                return false;
            }

            ArrayPool<byte>.Shared.Return(_buffer);
            _buffer = ArrayPool<byte>.Shared.Rent(length);
        }

        var pair = _buffer.AsSpan(_written, length);
        BinaryPrimitives.WriteInt32LittleEndian(pair, keyLength);
        BinaryPrimitives.WriteInt32LittleEndian(pair[4..], valueLength);
        target = pair[HeaderLength..];
        return true;
    }

    private void Commit(int pairLength)
    {
        _written += HeaderLength + pairLength;
        Count++;
    }
}
