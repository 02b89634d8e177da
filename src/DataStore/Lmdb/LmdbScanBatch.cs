using System.Buffers;
using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using DataStore.Integrity;

namespace DataStore.Lmdb;

/// <summary>
/// Pairs a scan copied out of LMDB's map in one visit, handed out one at a time: a scan enters the map once per
/// batch instead of once per pair, and copies each pair once. On a store with checksums (ADR 0014) a pair is handed
/// out only after <see cref="Verify"/> has checked its copy; it checks three pairs at once, so a scan of short pairs
/// runs three CRC chains side by side instead of waiting on one.
/// </summary>
internal sealed class LmdbScanBatch : IDisposable
{
    // Each pair: its key's length, its value's length and (on a store with checksums) its stored checksum, then the key and the value.
    private const int HeaderLength = 12;
    private const int InitialBytes = 16 * 1024;

    private byte[] _buffer = ArrayPool<byte>.Shared.Rent(InitialBytes);
    private int _written;
    private int _ready;
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

    /// <summary>Copies a pair in, ready to hand out; false when it does not fit beside the pairs already in (an empty batch grows to fit).</summary>
    public bool TryAdd(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        if (!TryReserve(key.Length, value.Length, 0, out var target))
        {
            return false;
        }

        CopyPair(key, value, target);
        Commit(target.Length);
        _ready = _written;
        return true;
    }

    /// <summary>
    /// Copies a pair in from its stored form on a store with checksums: the key, and the value without its checksum,
    /// which <see cref="Verify"/> checks over the copy before the pair is handed out; false when it does not fit.
    /// </summary>
    /// <exception cref="StoreFormatException">The stored value is too short to hold a checksum (Corrupt, naming the key).</exception>
    public bool TryAddChecked(ReadOnlySpan<byte> key, ReadOnlySpan<byte> stored, string directory)
    {
        var valueLength = stored.Length - PairChecksum.Length;
        if (valueLength < 0)
        {
            LmdbPairs.ThrowDamaged(key, directory);
        }

        if (!TryReserve(key.Length, valueLength, BinaryPrimitives.ReadUInt32LittleEndian(stored[valueLength..]), out var target))
        {
            return false;
        }

        CopyPair(key, stored[..valueLength], target);
        Commit(target.Length);
        return true;
    }

    /// <summary>Checks the pairs added by <see cref="TryAddChecked"/> since the last call, three at a time, and makes them ready to hand out.</summary>
    /// <exception cref="StoreFormatException">A pair does not match its checksum (Corrupt, naming the key); the batch is emptied, nothing in it is handed out.</exception>
    public void Verify(string directory)
    {
        var a = _ready;
        while (a < _written)
        {
            var b = Next(a);
            if (b == _written)
            {
                Check(a, PairChecksum.Compute(KeyLength(a), Pair(a, b)), directory);
                break;
            }

            // Three pairs at a time; with two left, the second also runs as the third chain (in the time of one).
            var c = Next(b);
            var end = c < _written ? Next(c) : c;
            var third = c < _written ? c : b;
            var (crcA, crcB, crcC) = PairChecksum.ComputeThree(KeyLength(a), Pair(a, b), KeyLength(b), Pair(b, c), KeyLength(third), Pair(third, end));
            Check(a, crcA, directory);
            Check(b, crcB, directory);
            Check(third, crcC, directory);
            a = end;
        }

        _ready = _written;
    }

    /// <summary>Moves to the next pair added; false when every pair has been handed out.</summary>
    public bool MoveNext()
    {
        if (_read >= _ready)
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
        _written = _ready = _read = 0;
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
    private bool TryReserve(int keyLength, int valueLength, uint checksum, out Span<byte> target)
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
        BinaryPrimitives.WriteUInt32LittleEndian(pair[8..], checksum);
        target = pair[HeaderLength..];
        return true;
    }

    // LMDB keeps a small pair's value right after its key in the page: one copy then, instead of one per part; a key
    // alone (a keys-only scan) of 8 to 16 bytes as two overlapping words, without a call into Memmove.
    private static void CopyPair(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, Span<byte> target)
    {
        ref var start = ref MemoryMarshal.GetReference(key);
        if (value.IsEmpty && key.Length is >= sizeof(ulong) and <= 2 * sizeof(ulong))
        {
            ref var to = ref MemoryMarshal.GetReference(target);
            var last = key.Length - sizeof(ulong);
            Unsafe.WriteUnaligned(ref to, Unsafe.ReadUnaligned<ulong>(ref start));
            Unsafe.WriteUnaligned(ref Unsafe.Add(ref to, last), Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref start, last)));
        }
        else if (Unsafe.AreSame(ref Unsafe.Add(ref start, key.Length), ref MemoryMarshal.GetReference(value)))
        {
            MemoryMarshal.CreateReadOnlySpan(ref start, key.Length + value.Length).CopyTo(target);
        }
        else
        {
            key.CopyTo(target);
            value.CopyTo(target[key.Length..]);
        }
    }

    private void Commit(int pairLength)
    {
        _written += HeaderLength + pairLength;
        Count++;
    }

    private int KeyLength(int pair) => BinaryPrimitives.ReadInt32LittleEndian(_buffer.AsSpan(pair));

    private int Next(int pair) => pair + HeaderLength + KeyLength(pair) + BinaryPrimitives.ReadInt32LittleEndian(_buffer.AsSpan(pair + 4));

    // A pair's key and value, back to back; next is where the pair after it starts.
    private ReadOnlySpan<byte> Pair(int pair, int next) => _buffer.AsSpan(pair + HeaderLength, next - pair - HeaderLength);

    private void Check(int pair, uint crc, string directory)
    {
        if (crc != BinaryPrimitives.ReadUInt32LittleEndian(_buffer.AsSpan(pair + 8)))
        {
            var key = _buffer.AsSpan(pair + HeaderLength, KeyLength(pair));
            Clear();
            LmdbPairs.ThrowDamaged(key, directory);
        }
    }
}
