using System.Buffers;
using DataStore.Integrity;
using DataStore.Transfer;

namespace DataStore.Packed;

/// <summary>
/// Writes a packed file from pairs given in strictly ascending key order. Pairs gather in a 1 MiB buffer, each
/// block's CRC-32C taken over it in one piece, and the buffer goes to the file whole (large enough that the
/// FileStream passes it on without copying it again); a key or value too large for it goes straight to the file, so a
/// 256 MiB value costs no memory. Only the index (one entry per block) and the hash records (8 bytes per pair) are
/// kept until <see cref="Finish"/>.
/// </summary>
internal sealed class PackedWriter : IDisposable
{
    private const int BufferLength = 1 << 20;
    private readonly FileStream _file;
    private readonly List<PackedBlockEntry> _index = [];
    private readonly ArrayBufferWriter<byte> _firstKeys = new();
    private readonly PackedHashBuilder? _hash;
    private readonly bool _spilledRun;
    private readonly byte[] _buffer = new byte[BufferLength];
    private int _buffered;
    private int _unchecked; // where the bytes of the current block not yet in its CRC start in the buffer
    private byte[] _previous = new byte[256];
    private int _previousLength = -1;
    private long _position = PackedFormat.HeaderLength;
    private long _blockStart = -1;
    private long _writtenBack = PackedFormat.HeaderLength;
    private uint _blockCrc;
    private int _blockPairs;

    /// <summary>Creates the file; a <paramref name="spilledRun"/> (read once, in order, then deleted) gets no hash table and is not synced.</summary>
    public PackedWriter(string path, bool spilledRun = false)
    {
        _file = new FileStream(path, FileMode.CreateNew, FileAccess.Write, FileShare.None, BufferLength);
        _spilledRun = spilledRun;
        _hash = spilledRun ? null : new PackedHashBuilder();
        PackedFormat.WriteHeader(_buffer);
        _buffered = _unchecked = PackedFormat.HeaderLength;
    }

    /// <summary>Pairs written so far.</summary>
    public long Pairs { get; private set; }

    /// <summary>Key and value bytes written so far.</summary>
    public long PayloadBytes => KeyBytes + ValueBytes;

    private long KeyBytes { get; set; }

    private long ValueBytes { get; set; }

    /// <summary>The last key written (empty before the first pair).</summary>
    public ReadOnlySpan<byte> LastKey => _previousLength < 0 ? default : _previous.AsSpan(0, _previousLength);

    private ReadOnlySpan<byte> BlockFirstKey => _firstKeys.WrittenSpan[(int)_index[^1].KeyOffset..];

    /// <summary>Appends a pair whose key is greater than every key before it.</summary>
    /// <exception cref="ArgumentException">The key is not greater than the previous one (a duplicate or out of order).</exception>
    public void Add(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        if (_previousLength >= 0 && key.SequenceCompareTo(LastKey) <= 0)
        {
            throw new ArgumentException(key.SequenceEqual(LastKey)
                ? $"The key {PackedKeys.Describe(key)} appears twice; a packed store holds each key once."
                : $"The key {PackedKeys.Describe(key)} comes after a greater key; the writer needs ascending keys.", nameof(key));
        }

        if (_blockStart < 0)
        {
            StartBlock(key);
        }

        // Every pair starts below TargetBlockLength in its block (the block closes past it): the hash slot's 12 bits hold it.
        var shared = _blockPairs == 0 ? 0 : key.CommonPrefixLength(BlockFirstKey);
        _hash?.Add(key, (int)(_position - _blockStart));
        if (_buffer.Length - _buffered < 3 * Varint.MaxBytes)
        {
            FlushBuffer();
        }

        var lengths = _buffered;
        _buffered += Varint.Write(_buffer.AsSpan(_buffered), (uint)shared);
        _buffered += Varint.Write(_buffer.AsSpan(_buffered), (uint)(key.Length - shared));
        _buffered += Varint.Write(_buffer.AsSpan(_buffered), (uint)value.Length);
        _position += _buffered - lengths;
        Append(key[shared..]);
        Append(value);
        Remember(key);
        _blockPairs++;
        Pairs++;
        KeyBytes += key.Length;
        ValueBytes += value.Length;
        if (_position - _blockStart >= PackedFormat.TargetBlockLength)
        {
            EndBlock();
        }
    }

    /// <summary>Writes the index region (entries, first keys, hash table), its page table and the footer, and flushes the file to disk.</summary>
    public void Finish()
    {
        if (_blockStart >= 0)
        {
            EndBlock();
        }

        FlushBuffer();

        // First-key offsets are absolute: the key area follows the entries.
        var indexOffset = _position;
        var keyArea = indexOffset + ((long)_index.Count * PackedFormat.IndexEntryLength);
        var region = new PackedPageWriter(_file);
        var entry = new byte[PackedFormat.IndexEntryLength];
        foreach (var block in _index)
        {
            (block with { KeyOffset = keyArea + block.KeyOffset }).Write(entry);
            region.Write(entry);
        }

        region.Write(_firstKeys.WrittenSpan);
        region.Write(new byte[(int)((8 - ((indexOffset + region.Written) & 7)) & 7)]); // the hash table starts 8-byte aligned
        var hashOffset = indexOffset + region.Written;
        var slots = _hash?.Write(region, _index) ?? 0;
        var pageTableOffset = indexOffset + region.Written;
        var pageTableCrc = region.WriteTable();
        Span<byte> footer = stackalloc byte[PackedFormat.FooterLength];
        new PackedFooter(indexOffset, hashOffset, slots, pageTableOffset, _index.Count, Pairs, KeyBytes, ValueBytes, PackedFormat.PageLength, pageTableCrc).Write(footer);
        _file.Write(footer);
        _file.Flush(flushToDisk: !_spilledRun);
    }

    public void Dispose() => _file.Dispose();

    private void StartBlock(ReadOnlySpan<byte> firstKey)
    {
        _blockStart = _position;
        _blockCrc = Crc32C.Seed;
        _unchecked = _buffered;
        _blockPairs = 0;
        _index.Add(new PackedBlockEntry(_blockStart, 0, 0, _firstKeys.WrittenCount, firstKey.Length, 0));
        _firstKeys.Write(firstKey);
    }

    private void EndBlock()
    {
        _blockCrc = Crc32C.Append(_blockCrc, _buffer.AsSpan(_unchecked, _buffered - _unchecked));
        _unchecked = _buffered;
        _index[^1] = _index[^1] with
        {
            Length = checked((uint)(_position - _blockStart)),
            Crc = Crc32C.Finish(_blockCrc),
            Pairs = _blockPairs,
        };
        _blockStart = -1;
    }

    private void Append(ReadOnlySpan<byte> bytes)
    {
        if (bytes.Length > _buffer.Length - _buffered)
        {
            FlushBuffer();
            if (bytes.Length > _buffer.Length)
            {
                _blockCrc = Crc32C.Append(_blockCrc, bytes);
                _file.Write(bytes);
                _position += bytes.Length;
                return;
            }
        }

        bytes.CopyTo(_buffer.AsSpan(_buffered));
        _buffered += bytes.Length;
        _position += bytes.Length;
    }

    /// <summary>Writes the buffer to the file (taking the CRC of the current block's part of it first).</summary>
    private void FlushBuffer()
    {
        if (_blockStart >= 0)
        {
            _blockCrc = Crc32C.Append(_blockCrc, _buffer.AsSpan(_unchecked, _buffered - _unchecked));
        }

        _file.Write(_buffer, 0, _buffered);
        _buffered = _unchecked = 0;
        var written = _position - _writtenBack; // the buffer is empty: every byte up to _position went to the file
        if (!_spilledRun && written >= PackedWriteback.Interval)
        {
            PackedWriteback.Start(_file, _writtenBack, written);
            _writtenBack = _position;
        }
    }

    private void Remember(ReadOnlySpan<byte> key)
    {
        if (_previous.Length < key.Length)
        {
            _previous = new byte[Math.Max(key.Length, _previous.Length * 2)];
        }

        key.CopyTo(_previous);
        _previousLength = key.Length;
    }
}
