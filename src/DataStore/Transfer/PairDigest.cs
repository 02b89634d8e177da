using System.Security.Cryptography;

namespace DataStore.Transfer;

/// <summary>
/// Computes a <see cref="StoreDigest"/>: the pair count, the key and value bytes, and a SHA-256 over each pair's
/// canonical encoding (varint key length, key, varint value length, value) in the order appended.
/// </summary>
/// <remarks>Export, import, migrate and verify all use this one type, so a dump's trailer and a store's digest agree by construction.</remarks>
internal sealed class PairDigest : IDisposable
{
    private const int BufferLength = 64 * 1024;

    private readonly IncrementalHash _hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
    private readonly byte[] _buffer = new byte[BufferLength];
    private int _buffered;

    /// <summary>Pairs appended so far.</summary>
    public long Pairs { get; private set; }

    /// <summary>Key and value bytes appended so far.</summary>
    public long Bytes { get; private set; }

    /// <summary>Adds one pair.</summary>
    public void Append(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        Pairs++;
        Bytes += key.Length + value.Length;
        Add(key);
        Add(value);
    }

    /// <summary>The SHA-256 of everything appended so far; the digest can keep growing afterwards.</summary>
    public byte[] CurrentHash()
    {
        Flush();
        return _hash.GetCurrentHash();
    }

    /// <summary>The digest of everything appended so far.</summary>
    public StoreDigest ToDigest() => new(Pairs, Bytes, Convert.ToHexStringLower(CurrentHash()));

    /// <summary>Releases the hash.</summary>
    public void Dispose() => _hash.Dispose();

    private void Add(ReadOnlySpan<byte> bytes)
    {
        if (_buffered + Varint.MaxBytes > BufferLength)
        {
            Flush();
        }

        _buffered += Varint.Write(_buffer.AsSpan(_buffered), (uint)bytes.Length);
        if (bytes.Length <= BufferLength - _buffered)
        {
            bytes.CopyTo(_buffer.AsSpan(_buffered));
            _buffered += bytes.Length;
            return;
        }

        Flush();
        _hash.AppendData(bytes);
    }

    private void Flush()
    {
        if (_buffered > 0)
        {
            _hash.AppendData(_buffer, 0, _buffered);
            _buffered = 0;
        }
    }
}
