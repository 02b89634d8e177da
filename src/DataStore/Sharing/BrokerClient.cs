using System.Collections.Concurrent;

namespace DataStore.Sharing;

/// <summary>
/// A client's link to one owner process: a small pool of connections, so calls from many threads run at once (one
/// connection per concurrent call; an open scan keeps its connection until it is disposed).
/// </summary>
internal sealed class BrokerClient : IDisposable
{
    private const int MaxIdle = 16;

    private readonly string _socketPath;
    private readonly TimeSpan _answerTimeout;
    private readonly TimeSpan _stoppedOwnerLimit;
    private readonly Func<Exception, Exception> _refused;
    private readonly ConcurrentQueue<BrokerConnection> _idle = new();
    private volatile bool _disposed;

    private BrokerClient(string socketPath, TimeSpan answerTimeout, TimeSpan stoppedOwnerLimit, Func<Exception, Exception> refused, BrokerConnection first, OwnerHello hello)
    {
        _socketPath = socketPath;
        _answerTimeout = answerTimeout;
        _stoppedOwnerLimit = stoppedOwnerLimit;
        _refused = refused;
        Owner = hello;
        _idle.Enqueue(first);
    }

    /// <summary>The owner process and what it said about the store.</summary>
    public OwnerHello Owner { get; }

    /// <summary>
    /// Connects to the owner at <paramref name="socketPath"/>; null when none answers there within <paramref name="helloTimeout"/>.
    /// A call then waits for its answer up to <paramref name="answerTimeout"/>, or <paramref name="stoppedOwnerLimit"/> once the owner is seen stopped.
    /// </summary>
    public static BrokerClient? TryConnect(string socketPath, TimeSpan answerTimeout, TimeSpan stoppedOwnerLimit, TimeSpan helloTimeout, Func<Exception, Exception> refused)
    {
        var first = BrokerConnection.TryOpen(socketPath, answerTimeout, stoppedOwnerLimit, refused, out var hello, helloTimeout);
        return first is null ? null : new BrokerClient(socketPath, answerTimeout, stoppedOwnerLimit, refused, first, hello);
    }

    /// <summary>An idle connection, or a new one.</summary>
    /// <exception cref="BrokerLostException">The owner no longer answers (nothing was sent).</exception>
    public BrokerConnection Rent()
    {
        while (_idle.TryDequeue(out var idle))
        {
            if (!idle.Broken)
            {
                return idle;
            }

            idle.Dispose();
        }

        OwnerHello hello = default;
        var connection = _disposed ? null : BrokerConnection.TryOpen(_socketPath, _answerTimeout, _stoppedOwnerLimit, _refused, out hello);
        if (connection is null || hello.ProcessId != Owner.ProcessId)
        {
            connection?.Dispose();
            throw new BrokerLostException(sent: false, null);
        }

        return connection;
    }

    /// <summary>Gives back a connection after a call; a broken one, or one beyond the idle limit, is closed.</summary>
    public void Return(BrokerConnection connection)
    {
        if (connection.Broken || _disposed || _idle.Count >= MaxIdle)
        {
            connection.Dispose();
            return;
        }

        _idle.Enqueue(connection);
        if (_disposed && _idle.TryDequeue(out var late))
        {
            late.Dispose();
        }
    }

    public void Dispose()
    {
        _disposed = true;
        while (_idle.TryDequeue(out var connection))
        {
            connection.Dispose();
        }
    }
}
