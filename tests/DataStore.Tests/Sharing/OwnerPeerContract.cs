using System.Net.Sockets;
using DataStore.Sharing;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.Sharing;

/// <summary>The owner refuses a peer that breaks the protocol or speaks another version, and serves the others on (ADR 0015).</summary>
public abstract class OwnerPeerContract : StoreContract
{
    [Fact]
    public void A_peer_that_sends_garbage_or_a_half_frame_is_dropped_and_the_owner_serves_on()
    {
        var owner = Open();
        owner.Put("a"u8, "1"u8);

        using (var garbage = Connect())
        {
            garbage.Send([0xFF, 0xFF, 0xFF, 0x7F, 1, 2, 3, 4, 5, 6, 7, 8]); // a 2 GiB frame
            Assert.True(IsDropped(garbage));
        }

        using (var half = Connect())
        {
            half.Send([10, 0, 0, 0, (byte)MessageKind.Hello, 1, 2]); // 3 of 10 bytes, then gone
        }

        using (var stranger = Connect())
        {
            stranger.Send([5, 0, 0, 0, (byte)MessageKind.Get, 0, 0, 0, 0]); // a request before any hello
            Assert.True(IsDropped(stranger));
        }

        var client = Open();
        Assert.Equal(StoreRole.Client, client.Sharing.Role);
        StoreAssert.Holds(client, "a"u8.ToArray(), "1"u8.ToArray());
    }

    [Fact]
    public void A_client_of_another_protocol_version_is_refused_naming_both_versions()
    {
        var owner = Open();
        using var socket = Connect();
        var hello = new MessageWriter().Start(MessageKind.Hello).Int32(unchecked((int)BrokerProtocol.Magic)).Byte(99).Byte(0);
        BrokerFrames.Send(socket, hello);

        var answer = new byte[256];
        var length = BrokerFrames.Receive(socket, ref answer);

        Assert.Equal(MessageKind.Error, (MessageKind)answer[0]);
        var error = Assert.IsType<DataStoreException>(BrokerErrors.Read(answer.AsSpan(0, length), StorePath, Backend), exactMatch: false);
        Assert.Contains($"version {BrokerProtocol.Version}", error.Message);
        Assert.Contains("version 99", error.Message);
        owner.Put("still"u8, "serving"u8);
        StoreAssert.Holds(Open(), "still"u8.ToArray(), "serving"u8.ToArray());
    }

    private Socket Connect() =>
        BrokerEndpoint.TryConnect(BrokerEndpoint.SocketPath(Path.GetFullPath(StorePath))) ?? throw new InvalidOperationException("no owner listens");

    // True when the owner closed the connection within 10 s.
    private static bool IsDropped(Socket socket)
    {
        socket.ReceiveTimeout = 10_000;
        var buffer = new byte[64];
        try
        {
            while (socket.Receive(buffer) > 0)
            {
            }

            return true;
        }
        catch (SocketException e) when (e.SocketErrorCode == SocketError.ConnectionReset)
        {
            return true;
        }
    }
}
