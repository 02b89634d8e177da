using System.Buffers.Binary;

namespace DataStore.Sharing;

/// <summary>Reads the fields of one received message in order; a field past the end is a protocol error.</summary>
internal ref struct MessageReader(ReadOnlySpan<byte> message)
{
    private readonly ReadOnlySpan<byte> _message = message;
    private int _at;

    public readonly bool AtEnd => _at == _message.Length;

    public byte Byte() => Take(1)[0];

    public int Int32() => BinaryPrimitives.ReadInt32LittleEndian(Take(4));

    public long Int64() => BinaryPrimitives.ReadInt64LittleEndian(Take(8));

    public ReadOnlySpan<byte> Bytes()
    {
        var length = Int32();
        return length < 0 ? throw new BrokerProtocolException($"a negative length ({length})") : Take(length);
    }

    /// <summary>A byte string's place in the message (offset and length), for a caller that reads it there later.</summary>
    public (int Offset, int Length) BytesAt()
    {
        var length = Bytes().Length;
        return (_at - length, length);
    }

    public string Text() => System.Text.Encoding.UTF8.GetString(Bytes());

    private ReadOnlySpan<byte> Take(int count)
    {
        if (count > _message.Length - _at)
        {
            throw new BrokerProtocolException($"a field of {count} bytes past the end of a {_message.Length}-byte message");
        }

        var field = _message.Slice(_at, count);
        _at += count;
        return field;
    }
}
