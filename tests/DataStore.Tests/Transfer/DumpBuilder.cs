using System.Buffers.Binary;
using System.Numerics;
using System.Security.Cryptography;

namespace DataStore.Tests.Transfer;

/// <summary>Crafts dumps byte by byte (with valid CRCs unless told otherwise), so tests can stage every kind of damage.</summary>
public sealed class DumpBuilder
{
    private readonly MemoryStream _body = new();
    private readonly MemoryStream _canonical = new();
    private long _pairs;
    private long _bytes;

    public uint Version { get; set; } = 1;

    public uint Flags { get; set; }

    public ulong PairsHint { get; set; } = ulong.MaxValue;

    /// <summary>The largest frame payload to cut the body into.</summary>
    public int FrameLength { get; set; } = 1 << 20;

    /// <summary>Appends a well-formed pair.</summary>
    public DumpBuilder Pair(byte[] key, byte[] value)
    {
        var encoded = Encode(key, value);
        _body.Write(encoded);
        _canonical.Write(encoded);
        _pairs++;
        _bytes += key.Length + value.Length;
        return this;
    }

    /// <summary>Appends raw body bytes (hostile lengths and the like), not counted in the trailer.</summary>
    public DumpBuilder Raw(params byte[] bytes)
    {
        _body.Write(bytes);
        return this;
    }

    /// <summary>Appends the end marker.</summary>
    public DumpBuilder End() => Raw(0);

    /// <summary>The whole dump: header, framed body, trailer (correct unless <paramref name="trailer"/> changes it).</summary>
    public byte[] Build(Action<byte[]>? trailer = null, bool withTrailer = true)
    {
        var output = new MemoryStream();
        var header = new byte[28];
        new byte[] { 0x89, (byte)'D', (byte)'S', (byte)'D', (byte)'U', (byte)'M', (byte)'P', 0x0A }.CopyTo(header, 0);
        BinaryPrimitives.WriteUInt32LittleEndian(header.AsSpan(8), Version);
        BinaryPrimitives.WriteUInt32LittleEndian(header.AsSpan(12), Flags);
        BinaryPrimitives.WriteUInt64LittleEndian(header.AsSpan(16), PairsHint);
        BinaryPrimitives.WriteUInt32LittleEndian(header.AsSpan(24), Crc(header.AsSpan(0, 24)));
        output.Write(header);
        var body = _body.ToArray();
        for (var at = 0; at < body.Length; at += FrameLength)
        {
            output.Write(Frame(body.AsSpan(at, Math.Min(FrameLength, body.Length - at))));
        }

        if (withTrailer)
        {
            var tail = new byte[52];
            BinaryPrimitives.WriteUInt64LittleEndian(tail, (ulong)_pairs);
            BinaryPrimitives.WriteUInt64LittleEndian(tail.AsSpan(8), (ulong)_bytes);
            SHA256.HashData(_canonical.ToArray()).CopyTo(tail, 16);
            trailer?.Invoke(tail);
            BinaryPrimitives.WriteUInt32LittleEndian(tail.AsSpan(48), Crc(tail.AsSpan(0, 48)));
            output.Write(tail);
        }

        return output.ToArray();
    }

    /// <summary>One frame: length, payload, CRC-32C.</summary>
    public static byte[] Frame(ReadOnlySpan<byte> payload)
    {
        var frame = new byte[payload.Length + 8];
        BinaryPrimitives.WriteUInt32LittleEndian(frame, (uint)payload.Length);
        payload.CopyTo(frame.AsSpan(4));
        BinaryPrimitives.WriteUInt32LittleEndian(frame.AsSpan(4 + payload.Length), Crc(payload));
        return frame;
    }

    /// <summary>The LEB128 encoding of <paramref name="value"/>.</summary>
    public static byte[] Varint(ulong value)
    {
        var bytes = new List<byte>();
        while (value >= 0x80)
        {
            bytes.Add((byte)(value | 0x80));
            value >>= 7;
        }

        bytes.Add((byte)value);
        return [.. bytes];
    }

    /// <summary>A pair's canonical encoding.</summary>
    public static byte[] Encode(byte[] key, byte[] value) => [.. Varint((ulong)key.Length), .. key, .. Varint((ulong)value.Length), .. value];

    public static uint Crc(ReadOnlySpan<byte> data)
    {
        var crc = ~0u;
        foreach (var b in data)
        {
            crc = BitOperations.Crc32C(crc, b);
        }

        return ~crc;
    }
}
