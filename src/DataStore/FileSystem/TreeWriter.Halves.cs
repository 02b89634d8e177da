using System.Runtime.CompilerServices;
using System.Runtime.ExceptionServices;
using DataStore.Batches;
using DataStore.Platform;

namespace DataStore.FileSystem;

// A large batch applied on two threads: its operations in key order (BatchKeyOrder) cut in two at a leaf boundary, so
// no two threads write in one directory, and a leaf (with every directory a split of it makes) belongs to one thread.
// Finding a key's leaf, splits and new directories stay one at a time (_applyGate); the key files' writes, where the
// kernel spends a batch's time, run side by side.
internal sealed partial class TreeWriter
{
    /// <summary>Batches with fewer operations apply on the calling thread alone.</summary>
    internal const int TwoThreadMinimum = 256;

    private readonly Lock _applyGate = new();

    /// <summary>Test counter: batches this thread applied on two threads.</summary>
    [ThreadStatic]
    internal static int TwoThreadBatchesForTests;

    /// <summary>
    /// Applies the operations <paramref name="order"/> lists (key order: puts and deletes only) on two threads, adding
    /// their directories to <paramref name="touched"/>; false, with nothing applied, when the batch is small, a scan keeps
    /// pre-images, or its keys share one leaf. A failure on either thread stops both and is rethrown here; the journal
    /// then completes the batch, as after any failure.
    /// </summary>
    private bool TryApplyInHalves(WriteBatch batch, int[] order, HashSet<string> touched)
    {
        var count = batch.OperationCount;
        if (count < TwoThreadMinimum || _preImages.Active || !PosixWrites.Enabled || Environment.ProcessorCount < 2)
        {
            return false;
        }

        var cut = LeafBoundary(batch, order);
        if (cut == 0)
        {
            return false;
        }

        var stop = new StrongBox<bool>();
        var hook = BeforeOperationForTests;
        var secondTouched = new HashSet<string>();
        // A thread of its own (not a pool thread, which a busy app may keep waiting, and which Wait could run here).
        var second = Task.Factory.StartNew(
            () =>
            {
                BeforeOperationForTests = hook;
                ApplyRange(batch, order, cut, count, secondTouched, stop);
            },
            CancellationToken.None,
            TaskCreationOptions.LongRunning,
            TaskScheduler.Default);

        ExceptionDispatchInfo? failure = null;
        try
        {
            ApplyRange(batch, order, 0, cut, touched, stop);
        }
        catch (Exception e)
        {
            failure = ExceptionDispatchInfo.Capture(e);
        }

        try
        {
            second.Wait();
        }
        catch (AggregateException e) when (e.InnerException is { } inner)
        {
            failure ??= ExceptionDispatchInfo.Capture(inner);
        }

        failure?.Throw();
        touched.UnionWith(secondTouched);
        TwoThreadBatchesForTests++;
        return true;
    }

    private void ApplyRange(WriteBatch batch, int[] order, int start, int end, HashSet<string> touched, StrongBox<bool> stop)
    {
        try
        {
            for (var i = start; i < end && !Volatile.Read(ref stop.Value); i++)
            {
                var entry = batch.Operation(order[i]);
                if (entry.Kind == BatchEntryKind.Put)
                {
                    BeforeOperationForTests?.Invoke();
                    touched.Add(Put(batch.First(entry), batch.Second(entry), flush: false));
                    continue;
                }

                lock (_applyGate)
                {
                    _ = ApplyOne(entry.Kind, batch.First(entry), batch.Second(entry), perFile: false, touched);
                }
            }
        }
        catch
        {
            Volatile.Write(ref stop.Value, true);
            throw;
        }
    }

    /// <summary>The index in <paramref name="order"/> nearest its middle where the keys' leaf changes, or 0 when there is none.</summary>
    private int LeafBoundary(WriteBatch batch, int[] order)
    {
        var count = batch.OperationCount;
        LayoutNode LeafAt(int i) => layout.Resolve(batch.First(batch.Operation(order[i])), out _);
        for (var step = 0; step < count / 2; step++)
        {
            foreach (var cut in (ReadOnlySpan<int>)[(count / 2) + step, (count / 2) - step])
            {
                if (cut > 0 && cut < count && LeafAt(cut) != LeafAt(cut - 1))
                {
                    return cut;
                }
            }
        }

        return 0;
    }
}
