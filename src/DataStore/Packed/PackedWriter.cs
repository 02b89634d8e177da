using System.Buffers;
using DataStore.Integrity;
using DataStore.Transfer;

namespace DataStore.Packed;

/// <summary>
/// Writes a packed file from pairs given in strictly ascending key order: each pair is streamed straight to the file
/// (no block buffer, so a 256 MiB value costs no memory), and only the index (one entry per block) is kept until
/// <see cref="Finish"/>.
/// </summary>
internal sealed class PackedWriter : IDisposable
{
    private readonly FileStream _file;
    private readonly List<PackedBlockEntry> _index = [];
    private readonly ArrayBufferWriter<byte> _firstKeys = new();
    private byte[] _previous = new byte[256];
    private int _previousLength = -1;
    private long _position = PackedFormat.HeaderLength;
    private long _blockStart = -1;
    private uint _blockCrc;
    private int _blockPairs;

    public PackedWriter(string path)
    {
        _file = new FileStream(path, FileMode.CreateNew, FileAccess.Write, FileShare.None, 1 << 20);
        Span<byte> header = stackalloc byte[PackedFormat.HeaderLength];
        PackedFormat.WriteHeader(header);
        _file.Write(header);
    }

    /// <summary>Pairs written so far.</summary>
    public long Pairs { get; private set; }

    /// <summary>Key and value bytes written so far.</summary>
    public long PayloadBytes => KeyBytes + ValueBytes;

    private long KeyBytes { get; set; }

    private long ValueBytes { get; set; }

    /// <summary>The last key written (empty before the first pair).</summary>
    public ReadOnlySpan<byte> LastKey => _previousLength < 0 ? default : _previous.AsSpan(0, _previousLength);

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

        var shared = _blockPairs == 0 ? 0 : key.CommonPrefixLength(LastKey);
        Span<byte> lengths = stackalloc byte[3 * Varint.MaxBytes];
        var used = Varint.Write(lengths, (uint)shared);
        used += Varint.Write(lengths[used..], (uint)(key.Length - shared));
        used += Varint.Write(lengths[used..], (uint)value.Length);
        Append(lengths[..used]);
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

    /// <summary>Writes the index and footer and flushes the file to disk.</summary>
    public void Finish()
    {
        if (_blockStart >= 0)
        {
            EndBlock();
        }

        // First-key offsets are absolute: the key area follows the entries.
        var keyArea = _position + ((long)_index.Count * PackedFormat.IndexEntryLength);
        var entry = new byte[PackedFormat.IndexEntryLength];
        var indexCrc = Crc32C.Seed;
        foreach (var block in _index)
        {
            (block with { KeyOffset = keyArea + block.KeyOffset }).Write(entry);
            _file.Write(entry);
            indexCrc = Crc32C.Append(indexCrc, entry);
        }

        _file.Write(_firstKeys.WrittenSpan);
        indexCrc = Crc32C.Append(indexCrc, _firstKeys.WrittenSpan);
        Span<byte> footer = stackalloc byte[PackedFormat.FooterLength];
        var indexLength = keyArea - _position + _firstKeys.WrittenCount;
        new PackedFooter(_position, indexLength, _index.Count, Pairs, KeyBytes, ValueBytes, Crc32C.Finish(indexCrc)).Write(footer);
        _file.Write(footer);
        _file.Flush(flushToDisk: true);
    }

    public void Dispose() => _file.Dispose();

    private void StartBlock(ReadOnlySpan<byte> firstKey)
    {
        _blockStart = _position;
        _blockCrc = Crc32C.Seed;
        _blockPairs = 0;
        _index.Add(new PackedBlockEntry(_blockStart, 0, 0, _firstKeys.WrittenCount, firstKey.Length, 0));
        _firstKeys.Write(firstKey);
    }

    private void EndBlock()
    {
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
        _file.Write(bytes);
        _blockCrc = Crc32C.Append(_blockCrc, bytes);
        _position += bytes.Length;
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
