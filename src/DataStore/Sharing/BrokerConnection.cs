using System.Net.Sockets;

namespace DataStore.Sharing;

/// <summary>One client connection to the owner, used by one thread at a time: a request is built in <see cref="Request"/>, then <see cref="Call"/> sends it and receives the answer.</summary>
internal sealed class BrokerConnection : IDisposable
{
    private readonly Socket _socket;
    private byte[] _answer = new byte[4096];
    private int _answerLength;
    private AnswerWait? _wait;

    private BrokerConnection(Socket socket, TimeSpan answerTimeout)
    {
        _socket = socket;
        _socket.ReceiveTimeout = (int)Math.Min(answerTimeout.TotalMilliseconds, int.MaxValue);
    }

    /// <summary>The request being built.</summary>
    public MessageWriter Request { get; } = new();

    /// <summary>The last answer, valid until the next call.</summary>
    public ReadOnlySpan<byte> Answer => _answer.AsSpan(0, _answerLength);

    /// <summary>True once a call on this connection failed; it is then dropped, never reused.</summary>
    public bool Broken { get; private set; }

    /// <summary>
    /// Connects and shakes hands; null when no owner listens at <paramref name="socketPath"/> or none answers the hello
    /// within <paramref name="helloTimeout"/> (default <paramref name="answerTimeout"/>). Then an answer is waited for up
    /// to <paramref name="answerTimeout"/>, or <paramref name="stoppedOwnerLimit"/> once the owner is seen stopped (<see cref="AnswerWait"/>).
    /// </summary>
    /// <exception cref="DataStoreException">The owner speaks another protocol version, or is another user's process.</exception>
    public static BrokerConnection? TryOpen(string socketPath, TimeSpan answerTimeout, TimeSpan stoppedOwnerLimit, Func<Exception, Exception> refused, out OwnerHello hello, TimeSpan? helloTimeout = null)
    {
        hello = default;
        var socket = BrokerEndpoint.TryConnect(socketPath);
        if (socket is null)
        {
            return null;
        }

        var connection = new BrokerConnection(socket, helloTimeout ?? answerTimeout);
        try
        {
            if (!PeerCredentials.IsSameUser(socket))
            {
                throw refused(new UnauthorizedAccessException(
                    $"the process listening at '{socketPath}' runs as user {PeerCredentials.PeerUserId(socket)}, not as this process's user {PeerCredentials.EffectiveUserId}; a store is shared only among one user's processes"));
            }

            connection.Request.Start(MessageKind.Hello).Int32(unchecked((int)BrokerProtocol.Magic))
                .Byte((byte)BrokerProtocol.Version).Byte(BrokerProtocol.Version >> 8);
            connection.Call();
            var answer = connection.Answer;
            if ((MessageKind)answer[0] == MessageKind.Error)
            {
                throw refused(BrokerErrors.Read(answer, socketPath, StoreBackend.InMemory));
            }

            var reader = new MessageReader(answer[1..]);
            _ = reader.Int32();
            hello = new OwnerHello(reader.Int32(), (StoreCapabilities)reader.Int32(), (Durability)reader.Byte());
            connection._wait = new AnswerWait(PeerCredentials.PeerProcessId(socket), stoppedOwnerLimit, answerTimeout);
            socket.ReceiveTimeout = (int)connection._wait.Step.TotalMilliseconds;
            socket.SendTimeout = (int)Math.Min(answerTimeout.TotalMilliseconds, int.MaxValue); // a request larger than the socket's buffer, to an owner that reads none of it
            return connection;
        }
        catch (BrokerLostException)
        {
            connection.Dispose();
            return null; // an owner closing as we arrived: try again
        }
        catch
        {
            connection.Dispose();
            throw;
        }
    }

    /// <summary>Sends <see cref="Request"/> and receives the answer into <see cref="Answer"/>.</summary>
    /// <exception cref="BrokerLostException">The owner went away, is closing, or broke the protocol.</exception>
    public void Call()
    {
        // An owner that closed while this connection sat idle has told it so (or hung up): nothing is sent then.
        if (Broken || _socket.Poll(0, SelectMode.SelectRead))
        {
            throw Lost(sent: false, null);
        }

        var sending = Request.Message[0] == (byte)MessageKind.Write ? BrokerSteps.Now() : default;
        Send();
        var sent = BrokerSteps.Lap(BrokerStep.ClientSend, sending);
        Receive();
        BrokerSteps.Lap(BrokerStep.ClientAwaitAnswer, sent);
    }

    /// <summary>Sends <see cref="Request"/> without waiting for its answer (a scan asks for its next chunk ahead); <see cref="Receive"/> takes the answer.</summary>
    /// <exception cref="BrokerLostException">The owner went away (nothing was sent).</exception>
    public void Send()
    {
        try
        {
            BrokerFrames.Send(_socket, Request);
        }
        catch (Exception e) when (e is SocketException or IOException or ObjectDisposedException)
        {
            throw Lost(sent: false, e);
        }
    }

    /// <summary>Receives the answer to the request sent last into <see cref="Answer"/>.</summary>
    /// <exception cref="BrokerLostException">The owner went away, is closing, broke the protocol, or stopped answering (<see cref="AnswerWait"/>).</exception>
    public void Receive()
    {
        try
        {
            _wait?.Start();
            _answerLength = BrokerFrames.Receive(_socket, ref _answer, _wait);
        }
        catch (Exception e) when (e is SocketException or IOException or ObjectDisposedException or TimeoutException)
        {
            throw Lost(sent: true, e);
        }

        if (_answerLength == 0 || (MessageKind)_answer[0] == MessageKind.Error && BrokerErrors.IsClosing(Answer))
        {
            throw Lost(sent: false, null);
        }
    }

    public void Dispose()
    {
        Broken = true;
        _socket.Dispose();
    }

    private BrokerLostException Lost(bool sent, Exception? cause)
    {
        Broken = true;
        return new BrokerLostException(sent, cause);
    }
}
