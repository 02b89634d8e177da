namespace DataStore.Lmdb;

/// <summary>
/// A few idle native handles of one kind (reset read transactions, read cursors) shared by every thread: a thread
/// starts at its own slot, so threads seldom meet, and each slot is taken or filled with one interlocked operation.
/// </summary>
internal sealed class LmdbHandlePool
{
    private readonly nint[] _slots = new nint[Math.Max(8, (int)System.Numerics.BitOperations.RoundUpToPowerOf2((uint)Environment.ProcessorCount * 2))];

    /// <summary>An idle handle, or 0 when none is kept.</summary>
    public nint Take()
    {
        var mask = _slots.Length - 1;
        var start = Environment.CurrentManagedThreadId;
        for (var i = 0; i < _slots.Length; i++)
        {
            var handle = Interlocked.Exchange(ref _slots[(start + i) & mask], 0);
            if (handle != 0)
            {
                return handle;
            }
        }

        return 0;
    }

    /// <summary>Keeps <paramref name="handle"/>; false when every slot is full (the caller frees it).</summary>
    public bool TryKeep(nint handle)
    {
        var mask = _slots.Length - 1;
        var start = Environment.CurrentManagedThreadId;
        for (var i = 0; i < _slots.Length; i++)
        {
            if (Interlocked.CompareExchange(ref _slots[(start + i) & mask], handle, 0) == 0)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Empties the pool, handing each kept handle to <paramref name="free"/>.</summary>
    public void Drain(Action<nint> free)
    {
        for (var i = 0; i < _slots.Length; i++)
        {
            var handle = Interlocked.Exchange(ref _slots[i], 0);
            if (handle != 0)
            {
                free(handle);
            }
        }
    }
}
