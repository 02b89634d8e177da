using System.Buffers.Binary;
using System.Net.Sockets;
using BenchmarkDotNet.Attributes;

namespace DataStore.Benchmarks;

/// <summary>
/// The broker's transport alone (ADR 0015): a round trip of one length-prefixed message over a Unix domain socket to
/// a thread that echoes it, with no engine and no request decoding. A 16-byte message is a point call's request and
/// answer; 256 KiB is a full scan chunk. What a client call costs beyond this is the owner's session and the engine.
/// </summary>
[MemoryDiagnoser]
[SuiteJob(warmupCount: 3, iterationCount: 15)]
public class BrokerTransportBenchmarks
{
    private const int RoundTripsPerInvoke = 200;

    private string _directory = "";
    private Socket _listener = null!;
    private Socket _client = null!;
    private Thread _echo = null!;
    private byte[] _message = [];
    private byte[] _answer = [];

    /// <summary>Bytes after the 4-byte header, each way.</summary>
    [Params(16, 262_144)]
    public int Payload { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _directory = BenchmarkData.NewDirectory();
        Directory.CreateDirectory(_directory);
        var endpoint = new UnixDomainSocketEndPoint(Path.Combine(_directory, "echo.sock"));
        _listener = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        _listener.Bind(endpoint);
        _listener.Listen(1);
        _client = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        _client.Connect(endpoint);
        var server = _listener.Accept();
        _echo = new Thread(() => Echo(server)) { IsBackground = true, Name = "echo" };
        _echo.Start();
        _message = new byte[4 + Payload];
        _answer = new byte[4 + Payload];
        BinaryPrimitives.WriteInt32LittleEndian(_message, Payload);
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _client.Dispose();
        _echo.Join();
        _listener.Dispose();
        Directory.Delete(_directory, recursive: true);
    }

    [Benchmark(OperationsPerInvoke = RoundTripsPerInvoke)]
    public int RoundTrip()
    {
        var total = 0;
        for (var i = 0; i < RoundTripsPerInvoke; i++)
        {
            SendAll(_client, _message);
            total += ReceiveMessage(_client, _answer);
        }

        return total;
    }

    private static void Echo(Socket server)
    {
        var buffer = new byte[4 + 262_144];
        using (server)
        {
            try
            {
                while (true)
                {
                    var length = ReceiveMessage(server, buffer);
                    if (length < 0)
                    {
                        return;
                    }

                    SendAll(server, buffer.AsSpan(0, 4 + length));
                }
            }
            catch (SocketException)
            {
                // The benchmark closed its end.
            }
        }
    }

    // Reads the 4-byte length, then the payload; -1 when the peer closed.
    private static int ReceiveMessage(Socket socket, byte[] buffer)
    {
        if (!ReceiveAll(socket, buffer.AsSpan(0, 4)))
        {
            return -1;
        }

        var length = BinaryPrimitives.ReadInt32LittleEndian(buffer);
        return ReceiveAll(socket, buffer.AsSpan(4, length)) ? length : -1;
    }

    private static bool ReceiveAll(Socket socket, Span<byte> target)
    {
        while (!target.IsEmpty)
        {
            var read = socket.Receive(target);
            if (read == 0)
            {
                return false;
            }

            target = target[read..];
        }

        return true;
    }

    private static void SendAll(Socket socket, ReadOnlySpan<byte> data)
    {
        while (!data.IsEmpty)
        {
            data = data[socket.Send(data)..];
        }
    }
}
