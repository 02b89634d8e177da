using LiteDB;

namespace DataStore.LiteDb;

/// <summary>
/// One point read (a key's document, or whether the key is present) as it waits for the engine's turn
/// (<see cref="LiteDbEngineGate.Read"/>): whichever point read holds the turn may run it on its own thread. One per
/// thread, reused: a thread runs one point read at a time.
/// </summary>
internal sealed class LiteDbPointRead
{
    [ThreadStatic]
    private static LiteDbPointRead? t_current;

    private readonly ManualResetEventSlim _signal = new();
    private LiteDbTable? _table;
    private byte[] _key = [];
    private bool _keyOnly;
    private BsonDocument? _document;
    private bool _found;
    private Exception? _failure;
    private volatile bool _done;

    /// <summary>The calling thread's point read, set up to read <paramref name="key"/> from <paramref name="table"/>.</summary>
    public static LiteDbPointRead For(LiteDbTable table, ReadOnlySpan<byte> key, bool keyOnly)
    {
        var read = t_current ??= new LiteDbPointRead();
        read._table = table;
        read._key = key.ToArray();
        read._keyOnly = keyOnly;
        read._document = null;
        read._found = false;
        read._failure = null;
        read._done = false;
        return read;
    }

    public bool IsDone => _done;

    /// <summary>Reads in LiteDB on the calling thread, which holds the engine's turn; a failure is kept for the thread that asked.</summary>
    public void Run()
    {
        try
        {
            if (_keyOnly)
            {
                _found = _table!.Contains(_key);
            }
            else
            {
                _document = _table!.Find(_key);
                _found = _document is not null;
            }
        }
        catch (Exception e)
        {
            _failure = e;
        }

        _done = true;
        _signal.Set();
    }

    /// <summary>True when the key was found.</summary>
    public bool Found => _found;

    /// <summary>The document read (null when the key is absent), let go of here.</summary>
    public BsonDocument? TakeDocument()
    {
        var document = _document;
        _document = null;
        return document;
    }

    /// <summary>Throws what the read threw, if it failed.</summary>
    public void ThrowIfFailed()
    {
        _table = null;
        if (_failure is { } failure)
        {
            _failure = null;
            System.Runtime.ExceptionServices.ExceptionDispatchInfo.Throw(failure);
        }
    }

    /// <summary>Clears the signal before the asking thread looks again whether its read ran or the turn is free.</summary>
    public void ResetSignal() => _signal.Reset();

    /// <summary>Wakes the asking thread: its read ran, or the turn was left free.</summary>
    public void Signal() => _signal.Set();

    /// <summary>Waits for <see cref="Signal"/>, at most <paramref name="timeout"/>.</summary>
    public void WaitForSignal(TimeSpan timeout) => _signal.Wait(timeout);
}
