using System.Net.Sockets;
using Microsoft.Extensions.Logging;

namespace DataStore.Sharing;

/// <summary>
/// One client connection in the owner, on a session thread (<see cref="SessionThreads"/>): checks the peer's user and hello, then answers requests
/// one at a time until the client goes away or the owner closes. Whatever happens, its scan is released and no
/// exception leaves the thread.
/// </summary>
internal sealed class BrokerSession(Socket socket, BrokerServer server, IKeyValueStore engine, ILogger logger)
{
    private const int PollMicroseconds = 50_000;

    // Bounds a half-sent request (a stuck or hostile peer) and an answer the client does not read, so closing never hangs.
    private const int TransferTimeoutMilliseconds = 30_000;

    private readonly MessageWriter _answer = new();
    private byte[] _request = new byte[4096];
    private int? _peer;

    public void Run()
    {
        using var executor = new BrokerExecutor(engine, server.Scans, () => server.Compaction.ThrowIfShared(engine, _peer ?? 0));
        try
        {
            if (!Accepted())
            {
                return;
            }

            _peer = server.Peers.Connected(PeerCredentials.PeerProcessId(socket));

            while (ReceiveRequest() is { } length)
            {
                var answer = executor.Execute(_request, length, _answer);
                using (BrokerSteps.Time(BrokerStep.OwnerAnswer, timed: IsBatch))
                {
                    BrokerFrames.Send(socket, answer);
                }

                executor.ReadAhead(); // a scan's next chunk, read while the client reads this one
            }

            if (server.IsClosing)
            {
                BrokerErrors.WriteClosing(_answer);
                BrokerFrames.Send(socket, _answer);
                socket.Shutdown(SocketShutdown.Send);
            }
        }
        catch (BrokerProtocolException e)
        {
            BrokerLog.PeerRefused(logger, engine.Path, e.Message);
        }
        catch (Exception e) when (e is SocketException or IOException or ObjectDisposedException)
        {
            // The client went away; its scan is released below.
        }
        catch (Exception e)
        {
            BrokerLog.PeerRefused(logger, engine.Path, $"the session failed: {e.GetType().Name}: {e.Message}");
        }
        finally
        {
            if (_peer is { } peer)
            {
                server.Peers.Disconnected(peer);
            }

            socket.Dispose();
        }
    }

    private bool Accepted()
    {
        if (!PeerCredentials.IsSameUser(socket))
        {
            // Answered before its hello, so a client that makes no check of its own still hears why.
            BrokerErrors.Write(_answer, new DataStoreException(StoreFailure.AccessDenied, engine.Path, engine.Backend,
                $"the owner process {Environment.ProcessId} runs as user {PeerCredentials.EffectiveUserId} and serves only that user's processes, not user {PeerCredentials.PeerUserId(socket)}."));
            socket.SendTimeout = TransferTimeoutMilliseconds;
            BrokerFrames.Send(socket, _answer);
            BrokerLog.PeerRefused(logger, engine.Path, $"it runs as user {PeerCredentials.PeerUserId(socket)}, not {PeerCredentials.EffectiveUserId}");
            return false;
        }

        socket.ReceiveTimeout = TransferTimeoutMilliseconds;
        socket.SendTimeout = TransferTimeoutMilliseconds;
        var length = BrokerFrames.Receive(socket, ref _request);
        var reader = new MessageReader(_request.AsSpan(0, length));
        if (length < 7 || (MessageKind)reader.Byte() != MessageKind.Hello || (uint)reader.Int32() != BrokerProtocol.Magic)
        {
            throw new BrokerProtocolException("its first message is not a hello");
        }

        var version = (ushort)(reader.Byte() | (reader.Byte() << 8));
        if (version != BrokerProtocol.Version)
        {
            BrokerErrors.Write(_answer, new DataStoreException(StoreFailure.Unavailable, engine.Path, engine.Backend,
                $"the owner process {Environment.ProcessId} speaks broker protocol version {BrokerProtocol.Version}, and this process version {version}; " +
                "update both programs to the same DataStore version, or close the owner."));
            BrokerFrames.Send(socket, _answer);
            BrokerLog.PeerRefused(logger, engine.Path, $"it speaks protocol version {version}, not {BrokerProtocol.Version}");
            return false;
        }

        _answer.Start(MessageKind.Ok).Int32(BrokerProtocol.Version).Int32(Environment.ProcessId)
            .Int32((int)(engine.Capabilities | StoreCapabilities.SharedAcrossProcesses)).Byte((byte)engine.Durability);
        BrokerFrames.Send(socket, _answer);
        return true;
    }

    // A client's batch, whose steps are timed (the wait for it, its receipt and the answer's send here; its decode and apply in the executor).
    private bool IsBatch => (MessageKind)_request[0] == MessageKind.Write;

    /// <summary>
    /// Waits for the next request and reads it into the request buffer; returns its length, or null once the owner is
    /// closing (a request read then is not applied: the client hears that the owner is closing and sends it to the next
    /// owner). A batch's wait and read are recorded once the request shows it is one.
    /// </summary>
    private int? ReceiveRequest()
    {
        var waiting = BrokerSteps.Now();
        if (!WaitForRequest())
        {
            return null;
        }

        var ready = BrokerSteps.Now();
        var length = BrokerFrames.Receive(socket, ref _request);
        if (server.IsClosing)
        {
            return null;
        }

        if (IsBatch)
        {
            BrokerSteps.Record(BrokerStep.OwnerIdle, waiting, ready);
            BrokerSteps.Lap(BrokerStep.OwnerReceive, ready);
        }

        return length;
    }

    private bool WaitForRequest()
    {
        while (!server.IsClosing)
        {
            if (socket.Poll(PollMicroseconds, SelectMode.SelectRead))
            {
                return true;
            }
        }

        return false;
    }
}
