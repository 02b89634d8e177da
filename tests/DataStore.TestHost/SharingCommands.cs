using System.Buffers.Binary;
using System.Text;
using DataStore;
using DataStore.Platform;
using DataStore.Sharing;

namespace DataStore.TestHost;

/// <summary>Commands for the owner-process (broker) tests.</summary>
internal static class SharingCommands
{
    /// <summary>Takes the owner lock of the store and serves nothing (as a process of an older DataStore would), printing <c>LOCKED</c>.</summary>
    public static int HoldOwnerLock(string storePath, int milliseconds)
    {
        Directory.CreateDirectory(storePath);
        using var ownerLock = FileLock.Open(Path.Combine(storePath, OwnerRole.LockFileName));
        if (!ownerLock.TryEnter(exclusive: true))
        {
            Console.WriteLine("BUSY");
            return 1;
        }

        Console.WriteLine("LOCKED");
        Thread.Sleep(milliseconds);
        return 0;
    }

    /// <summary>
    /// Puts <c>{tag}/{i}</c> = i for i = 1..count, printing <c>ACK i</c> after each put returns and <c>UNKNOWN i</c>
    /// when the owner died before answering it; goes on through hand-overs and prints its final role. Sleeps
    /// <paramref name="pauseMilliseconds"/> after each put, so a test can kill the owner mid-traffic.
    /// </summary>
    public static int WriteThroughHandOvers(IKeyValueStore store, string tag, int count, int pauseMilliseconds)
    {
        Console.WriteLine($"ROLE {store.Sharing.Role} {store.Sharing.OwnerProcessId}");
        for (var i = 1; i <= count; i++)
        {
            var key = Encoding.UTF8.GetBytes($"{tag}/").Concat(Number(i)).ToArray();
            try
            {
                store.Put(key, Number(i));
                Console.WriteLine($"ACK {i}");
            }
            catch (OutcomeUnknownException)
            {
                Console.WriteLine($"UNKNOWN {i}");
            }

            Thread.Sleep(pauseMilliseconds);
        }

        Console.WriteLine($"DONE {store.Sharing.Role} {store.Sharing.OwnerProcessId}");
        return 0;
    }

    private static byte[] Number(int value)
    {
        var bytes = new byte[4];
        BinaryPrimitives.WriteInt32BigEndian(bytes, value);
        return bytes;
    }

    /// <summary>
    /// Connects to the socket of the store's owner without any check of its own and says hello, printing what the owner
    /// did: <c>DENIED</c> (the connect itself was refused), <c>REFUSED cause: message</c>, <c>ANSWERED</c> or <c>DROPPED</c>.
    /// </summary>
    public static int PeerHello(string storePath)
    {
        var socketPath = BrokerEndpoint.SocketPath(Path.GetFullPath(storePath));
        try
        {
            using var socket = BrokerEndpoint.TryConnect(socketPath);
            if (socket is null)
            {
                Console.WriteLine($"NO-OWNER {socketPath}");
                return 1;
            }

            socket.ReceiveTimeout = 10_000;
            try
            {
                BrokerFrames.Send(socket, new MessageWriter().Start(MessageKind.Hello).Int32(unchecked((int)BrokerProtocol.Magic))
                    .Byte((byte)BrokerProtocol.Version).Byte(BrokerProtocol.Version >> 8));
            }
            catch (System.Net.Sockets.SocketException)
            {
                // An owner that refuses answers before the hello and hangs up: its answer is still there to read.
            }

            var answer = new byte[4096];
            var length = BrokerFrames.Receive(socket, ref answer);
            Console.WriteLine((MessageKind)answer[0] == MessageKind.Error && BrokerErrors.Read(answer.AsSpan(0, length), storePath, StoreBackend.InMemory) is DataStoreException e
                ? $"REFUSED {e.Cause}: {e.Message}"
                : "ANSWERED");
        }
        catch (System.Net.Sockets.SocketException e) when (e.SocketErrorCode == System.Net.Sockets.SocketError.AccessDenied)
        {
            Console.WriteLine($"DENIED {socketPath}: {e.Message}");
        }
        catch (Exception e) when (e is System.Net.Sockets.SocketException or IOException or BrokerProtocolException)
        {
            Console.WriteLine($"DROPPED {e.GetType().Name}: {e.Message}");
        }

        return 0;
    }
}
