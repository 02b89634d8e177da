using System.Buffers.Binary;

namespace DataStore.Sharing;

/// <summary>
/// A client's scan: the owner holds the cursor (a snapshot where the engine has them) and sends it in chunks, one
/// chunk per <see cref="MoveNext"/> that runs past the last; the connection belongs to this cursor until it is disposed.
/// As soon as a chunk arrives that is not the last, the cursor asks for the next one, so the owner reads it while this
/// process reads the pairs of this one (at most one request, and so one chunk, in flight).
/// </summary>
/// <remarks>
/// <see cref="Key"/> and <see cref="Value"/> point into the current chunk and stay valid until the next
/// <see cref="MoveNext"/>. One thread at a time. If the owner goes away, <see cref="MoveNext"/> throws a
/// <see cref="DataStoreException"/> with <see cref="StoreFailure.OwnerChanged"/>: open the scan again.
/// </remarks>
internal sealed class RemoteCursor(SharedStore store, BrokerClient client, BrokerConnection connection) : IKeyValueCursor
{
    private const byte PairMarker = 1;

    private int _at = -1; // next marker in the current chunk; -1 before the first chunk
    private int _keyAt;
    private int _keyLength;
    private int _valueAt;
    private int _valueLength;
    private bool _ended;
    private bool _disposed;
    private bool _requested; // a ScanNext is on its way, its answer not yet received
    private BrokerLostException? _lostAsking; // the owner went away as the next chunk was asked for

    private bool _positioned;

    public ReadOnlySpan<byte> Key => _positioned ? connection.Answer.Slice(_keyAt, _keyLength) : throw NotPositioned();

    public ReadOnlySpan<byte> Value => _positioned ? connection.Answer.Slice(_valueAt, _valueLength) : throw NotPositioned();

    public bool MoveNext()
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        _positioned = false;
        if (_ended)
        {
            return false;
        }

        if (!store.TryEnterCall())
        {
            throw new ObjectDisposedException(nameof(SharedStore), $"The {store.Backend} store at '{store.Path}' has been disposed.");
        }

        try
        {
            while (true)
            {
                if (_at > 0)
                {
                    var answer = connection.Answer;
                    switch (answer[_at])
                    {
                        case PairMarker:
                            _keyLength = BinaryPrimitives.ReadInt32LittleEndian(answer[(_at + 1)..]);
                            _keyAt = _at + 5;
                            _valueLength = BinaryPrimitives.ReadInt32LittleEndian(answer[(_keyAt + _keyLength)..]);
                            _valueAt = _keyAt + _keyLength + 4;
                            _at = _valueAt + _valueLength;
                            _positioned = true;
                            return true;
                        case BrokerProtocol.LastChunk:
                            _ended = true;
                            return false;
                    }
                }

                Fetch();
            }
        }
        finally
        {
            store.ExitCall();
        }
    }

    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        try
        {
            if (_requested && !connection.Broken)
            {
                _requested = false;
                connection.Receive(); // the chunk asked for ahead: read past it, so the connection is in step again
                _ended |= (MessageKind)connection.Answer[0] == MessageKind.Error || connection.Answer[^1] == BrokerProtocol.LastChunk;
            }

            if (!_ended && !connection.Broken)
            {
                connection.Request.Start(MessageKind.ScanClose);
                connection.Call();
            }
        }
        catch (BrokerLostException)
        {
            // The owner went away; its cursor went with it.
        }

        client.Return(connection);
    }

    private static InvalidOperationException NotPositioned() =>
        new("The cursor is not on a pair: call MoveNext first, and read Key and Value only while it returns true.");

    private void Fetch()
    {
        if (!_requested && _lostAsking is null)
        {
            AskNext();
        }

        try
        {
            if (_lostAsking is { } lost)
            {
                throw lost;
            }

            _requested = false;
            connection.Receive();
        }
        catch (BrokerLostException lost)
        {
            _ended = true;
            throw store.ScanOwnerLost(client, lost);
        }

        var answer = connection.Answer;
        if ((MessageKind)answer[0] == MessageKind.Error)
        {
            _ended = true;
            throw BrokerErrors.Read(answer, store.Path, store.Backend);
        }

        _at = 1;
        if (answer[^1] == BrokerProtocol.MoreChunks)
        {
            AskNext();
        }
    }

    // Sends the request for the next chunk; a failure is raised when that chunk is needed, after the pairs in hand.
    private void AskNext()
    {
        connection.Request.Start(MessageKind.ScanNext);
        try
        {
            connection.Send();
            _requested = true;
        }
        catch (BrokerLostException lost)
        {
            _lostAsking = lost;
        }
    }
}
