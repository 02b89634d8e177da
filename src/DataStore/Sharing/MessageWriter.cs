using System.Buffers;
using System.Buffers.Binary;

namespace DataStore.Sharing;

/// <summary>Builds one outgoing message in a reusable buffer; the first 4 bytes are kept free for the frame header.</summary>
internal sealed class MessageWriter : IBufferWriter<byte>
{
    private byte[] _buffer = new byte[4096];
    private int _length = BrokerFrames.HeaderSize;

    /// <summary>The message built so far, after the reserved header.</summary>
    public ReadOnlySpan<byte> Message => _buffer.AsSpan(BrokerFrames.HeaderSize, _length - BrokerFrames.HeaderSize);

    /// <summary>The buffer with the header space in front, for the frame writer.</summary>
    public byte[] Buffer => _buffer;

    /// <summary>Bytes written after the header.</summary>
    public int MessageLength => _length - BrokerFrames.HeaderSize;

    public MessageWriter Start(MessageKind kind)
    {
        if (_buffer.Length > 4 * BrokerProtocol.MaxFrame)
        {
            _buffer = new byte[4096]; // give a huge value's buffer back instead of holding it for the connection's life
        }

        _length = BrokerFrames.HeaderSize;
        return Byte((byte)kind);
    }

    public MessageWriter Byte(byte value)
    {
        GetSpan(1)[0] = value;
        Advance(1);
        return this;
    }

    public MessageWriter Int32(int value)
    {
        BinaryPrimitives.WriteInt32LittleEndian(GetSpan(4), value);
        Advance(4);
        return this;
    }

    public MessageWriter Int64(long value)
    {
        BinaryPrimitives.WriteInt64LittleEndian(GetSpan(8), value);
        Advance(8);
        return this;
    }

    public MessageWriter Bytes(ReadOnlySpan<byte> value)
    {
        Int32(value.Length);
        value.CopyTo(GetSpan(value.Length));
        Advance(value.Length);
        return this;
    }

    public MessageWriter Text(string value) => Bytes(System.Text.Encoding.UTF8.GetBytes(value));

    /// <summary>Reserves a 4-byte length to fill in later with <see cref="EndLength(int)"/>; returns its offset.</summary>
    public int BeginLength()
    {
        var at = _length;
        Int32(0);
        return at;
    }

    /// <summary>Writes the count of bytes written since <see cref="BeginLength"/> into its reserved slot.</summary>
    public void EndLength(int at) => BinaryPrimitives.WriteInt32LittleEndian(_buffer.AsSpan(at), _length - at - 4);

    /// <summary>Ends a length begun with <see cref="BeginLength"/>, or writes -1 there when <paramref name="present"/> is false.</summary>
    public void EndLength(int at, bool present)
    {
        if (present)
        {
            EndLength(at);
            return;
        }

        BinaryPrimitives.WriteInt32LittleEndian(_buffer.AsSpan(at), -1);
        _length = at + 4;
    }

    public void Advance(int count) => _length += count;

    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        Reserve(sizeHint);
        return _buffer.AsMemory(_length);
    }

    public Span<byte> GetSpan(int sizeHint = 0)
    {
        Reserve(sizeHint);
        return _buffer.AsSpan(_length);
    }

    private void Reserve(int sizeHint)
    {
        var needed = (long)_length + Math.Max(sizeHint, 1);
        if (needed > _buffer.Length)
        {
            var size = (int)Math.Min(Math.Max(needed, (long)_buffer.Length * 2), Array.MaxLength);
            Array.Resize(ref _buffer, size);
        }
    }
}
