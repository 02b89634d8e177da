namespace DataStore.Lmdb;

/// <summary>
/// One thread's place at an environment's <see cref="LmdbMapGate"/>: whether the thread is inside LMDB's map now,
/// the reset read transaction it keeps for its next point read, and the read cursor it keeps for its next scan. Only the owning thread writes it, so entering
/// and leaving the gate and reusing the transaction take no interlocked operation.
/// </summary>
internal sealed class LmdbReaderSeat(LmdbMapGate gate, Thread owner)
{
    /// <summary>The gate this seat is at.</summary>
    public readonly LmdbMapGate Gate = gate;

    /// <summary>The thread this seat belongs to; a dead thread's seat goes to the next thread that asks.</summary>
    public Thread Owner = owner;

    /// <summary>How many calls of the owner are inside the gate (nested calls count each); 0 when outside.</summary>
    public int Depth;

    /// <summary>The owner's reset read transaction, ready to renew; 0 when it has none or is using it.</summary>
    public nint Transaction;

    /// <summary>A read cursor the owner's last scan left, ready to renew on its next scan's transaction; 0 when none.</summary>
    public nint Cursor;
}
