using System.Buffers.Binary;
using System.Net.Sockets;

namespace DataStore.Sharing;

/// <summary>Sends and receives whole messages as frames (<see cref="BrokerProtocol"/>) over a connected socket.</summary>
internal static class BrokerFrames
{
    public const int HeaderSize = 4;

    /// <summary>Sends the message built in <paramref name="writer"/>: one send for a message that fits one frame.</summary>
    public static void Send(Socket socket, MessageWriter writer)
    {
        var length = writer.MessageLength;
        var buffer = writer.Buffer;
        if (length <= BrokerProtocol.MaxFrame)
        {
            BinaryPrimitives.WriteUInt32LittleEndian(buffer, (uint)length);
            SendAll(socket, buffer.AsSpan(0, HeaderSize + length));
            return;
        }

        Span<byte> header = stackalloc byte[HeaderSize];
        for (var offset = 0; offset < length; offset += BrokerProtocol.MaxFrame)
        {
            var size = Math.Min(BrokerProtocol.MaxFrame, length - offset);
            var more = offset + size < length ? BrokerProtocol.MoreFrames : 0;
            BinaryPrimitives.WriteUInt32LittleEndian(header, (uint)size | more);
            SendAll(socket, header);
            SendAll(socket, buffer.AsSpan(HeaderSize + offset, size));
        }
    }

    /// <summary>
    /// Receives one whole message into <paramref name="buffer"/> (grown as the frames arrive) and returns its length.
    /// With <paramref name="wait"/>, the socket's receive timeout is one of its steps, and the wait goes on until it ends.
    /// </summary>
    /// <exception cref="EndOfStreamException">The peer closed the connection before a message began.</exception>
    /// <exception cref="BrokerProtocolException">A frame was oversized or cut off.</exception>
    /// <exception cref="TimeoutException"><paramref name="wait"/> ended the wait.</exception>
    public static int Receive(Socket socket, ref byte[] buffer, AnswerWait? wait = null)
    {
        Span<byte> header = stackalloc byte[HeaderSize];
        var length = 0;
        while (true)
        {
            if (!ReceiveAll(socket, header, atStart: length == 0, wait))
            {
                throw new EndOfStreamException("the peer closed the connection");
            }

            var word = BinaryPrimitives.ReadUInt32LittleEndian(header);
            var size = (int)(word & ~BrokerProtocol.MoreFrames);
            if (size > BrokerProtocol.MaxFrame || (long)length + size > BrokerProtocol.MaxMessage)
            {
                throw new BrokerProtocolException($"a frame of {size} bytes (the limit is {BrokerProtocol.MaxFrame}, and {BrokerProtocol.MaxMessage} a message)");
            }

            if (length + size > buffer.Length)
            {
                Array.Resize(ref buffer, (int)Math.Min(Math.Max((long)length + size, (long)buffer.Length * 2), BrokerProtocol.MaxMessage));
            }

            if (!ReceiveAll(socket, buffer.AsSpan(length, size), atStart: false, wait))
            {
                throw new BrokerProtocolException("the connection closed in the middle of a frame");
            }

            length += size;
            if ((word & BrokerProtocol.MoreFrames) == 0)
            {
                return length;
            }
        }
    }

    private static void SendAll(Socket socket, ReadOnlySpan<byte> data)
    {
        while (!data.IsEmpty)
        {
            data = data[socket.Send(data, SocketFlags.None)..];
        }
    }

    // False when the peer closed before the first byte and atStart allows that; a close later is a cut-off frame.
    private static bool ReceiveAll(Socket socket, Span<byte> destination, bool atStart, AnswerWait? wait)
    {
        var received = 0;
        while (received < destination.Length)
        {
            var count = ReceiveSome(socket, destination[received..], wait);
            if (count == -1)
            {
                continue; // a step of the wait passed: the socket is as it was, nothing was read
            }

            if (count == 0)
            {
                if (received == 0 && atStart)
                {
                    return false;
                }

                throw new BrokerProtocolException("the connection closed in the middle of a frame");
            }

            received += count;
        }

        return true;
    }

    // What one receive read; -1 when a step of the wait passed with nothing to read and the wait goes on.
    private static int ReceiveSome(Socket socket, Span<byte> destination, AnswerWait? wait)
    {
        try
        {
            return socket.Receive(destination, SocketFlags.None);
        }
        catch (SocketException e) when (wait is not null && e.SocketErrorCode is SocketError.TimedOut or SocketError.WouldBlock)
        {
            wait.StepPassed();
            return -1;
        }
    }
}
