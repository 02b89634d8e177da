using System.Buffers.Binary;
using System.Globalization;
using System.Net.Sockets;
using DataStore.Sharing;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.Sharing;

/// <summary>
/// Issue 20 item 5: a seeded mutation loop against the owner's frame reader (ADR 0015). Each round connects, sends a
/// hello and a few messages of random kinds and bytes, mutated (bits flipped, a frame length replaced by an absurd
/// one, the stream cut short or padded with noise), and leaves; every 25 rounds and at the end the owner must still
/// write, and a new client must read what it wrote. CI runs <see cref="DefaultRounds"/> rounds;
/// <c>DATASTORE_BROKER_FUZZ_ROUNDS=n</c> runs more, <c>DATASTORE_BROKER_FUZZ_SEED=n</c> replays.
/// </summary>
public abstract class BrokerFrameFuzzContract : StoreContract
{
    public const int DefaultRounds = 150;

    [Fact]
    public void An_owner_fed_mutated_frames_drops_the_peers_and_serves_on()
    {
        var seed = Setting("DATASTORE_BROKER_FUZZ_SEED") ?? Random.Shared.Next();
        var rounds = Setting("DATASTORE_BROKER_FUZZ_ROUNDS") ?? DefaultRounds;
        var random = new Random(seed);
        TestContext.Current.TestOutputHelper?.WriteLine($"{Backend}: {rounds} rounds, seed {seed}");
        var owner = Open();
        for (var round = 0; round < rounds; round++)
        {
            using (var socket = Connect())
            {
                Feed(socket, Mutate(Stream(random), random), random);
            }

            if ((round + 1) % 25 == 0 || round == rounds - 1)
            {
                var key = Bytes.Utf8($"fuzz/{round}");
                owner.Put(key, key);
                using var client = KeyValueStore.Open(Options());
                Assert.True(client.Sharing.Role == StoreRole.Client, $"seed {seed}, round {round}: the new store should be a client, but is {client.Sharing.Role}");
                Assert.True(client.Get(key) is { } value && value.AsSpan().SequenceEqual(key), $"seed {seed}, round {round}: a client did not read what the owner wrote");
            }
        }
    }

    // A hello (usually valid), then one to three messages of random kinds with random bytes, as frames.
    private static List<byte> Stream(Random random)
    {
        var bytes = new List<byte>();
        var hello = new byte[7];
        hello[0] = (byte)MessageKind.Hello;
        BinaryPrimitives.WriteUInt32LittleEndian(hello.AsSpan(1), BrokerProtocol.Magic);
        BinaryPrimitives.WriteUInt16LittleEndian(hello.AsSpan(5), random.Next(4) == 0 ? (ushort)random.Next(65_536) : BrokerProtocol.Version);
        Frame(bytes, hello);
        for (var i = random.Next(1, 4); i > 0; i--)
        {
            var message = new byte[1 + random.Next(64)];
            random.NextBytes(message);
            Frame(bytes, message);
        }

        return bytes;
    }

    private static void Frame(List<byte> bytes, byte[] message)
    {
        var header = new byte[BrokerFrames.HeaderSize];
        BinaryPrimitives.WriteUInt32LittleEndian(header, (uint)message.Length);
        bytes.AddRange(header);
        bytes.AddRange(message);
    }

    private static byte[] Mutate(List<byte> bytes, Random random)
    {
        for (var i = random.Next(1, 4); i > 0 && bytes.Count > 0; i--)
        {
            var at = random.Next(bytes.Count);
            switch (random.Next(4))
            {
                case 0:
                    bytes[at] ^= (byte)(1 << random.Next(8));
                    break;
                case 1: // an absurd frame length, possibly with the "more frames" bit
                    var word = BitConverter.GetBytes(random.Next(2) == 0 ? uint.MaxValue - (uint)random.Next(16) : (uint)random.Next(BrokerProtocol.MaxFrame - 16, BrokerProtocol.MaxFrame + 16));
                    for (var j = 0; j < 4 && at + j < bytes.Count; j++)
                    {
                        bytes[at + j] = word[j];
                    }

                    break;
                case 2:
                    bytes.RemoveRange(at, bytes.Count - at);
                    break;
                default:
                    var noise = new byte[random.Next(1, 32)];
                    random.NextBytes(noise);
                    bytes.InsertRange(at, noise);
                    break;
            }
        }

        return [.. bytes];
    }

    // Sends what it can (the owner may close first), then waits briefly for an answer or the close, and leaves.
    private static void Feed(Socket socket, byte[] bytes, Random random)
    {
        try
        {
            socket.Send(bytes);
            socket.ReceiveTimeout = random.Next(2) == 0 ? 1 : 200;
            var buffer = new byte[256];
            while (socket.Receive(buffer) > 0)
            {
            }
        }
        catch (SocketException)
        {
        }
    }

    private Socket Connect() =>
        BrokerEndpoint.TryConnect(BrokerEndpoint.SocketPath(Path.GetFullPath(StorePath))) ?? throw new InvalidOperationException("no owner listens");

    private static int? Setting(string name) =>
        int.TryParse(Environment.GetEnvironmentVariable(name), NumberStyles.Integer, CultureInfo.InvariantCulture, out var value) ? value : null;
}

public sealed class RocksDbBrokerFrameFuzzContract : BrokerFrameFuzzContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class LiteDbBrokerFrameFuzzContract : BrokerFrameFuzzContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;
}
