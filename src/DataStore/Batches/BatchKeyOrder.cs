namespace DataStore.Batches;

/// <summary>
/// The order in which to apply a batch's operations so that an engine's B-tree is walked from left to right: by key,
/// equal keys in the order they were added. Puts and deletes of different keys commute, so this order gives the same
/// store as the batch's own; range deletes do not, so a batch holding one applies as written.
/// </summary>
internal static class BatchKeyOrder
{
    /// <summary>Below this many operations the batch applies as written (sorting would cost more than it saves).</summary>
    public const int MinOperations = 32;

    /// <summary>
    /// Fills <paramref name="order"/> (grown when too short) with the indices of the batch's operations in key order;
    /// false, and nothing filled, when the batch is small or holds a range delete and so applies as written.
    /// </summary>
    public static bool TrySort(WriteBatch batch, ref int[] order)
    {
        var count = batch.OperationCount;
        if (count < MinOperations)
        {
            return false;
        }

        for (var i = 0; i < count; i++)
        {
            if (batch.Operation(i).Kind is not (BatchEntryKind.Put or BatchEntryKind.Delete))
            {
                return false;
            }
        }

        if (order.Length < count)
        {
            order = new int[Math.Max(count, order.Length * 2)];
        }

        var indices = order.AsSpan(0, count);
        for (var i = 0; i < count; i++)
        {
            indices[i] = i;
        }

        indices.Sort(new ByKey(batch));
        return true;
    }

    private readonly struct ByKey(WriteBatch batch) : IComparer<int>
    {
        public int Compare(int x, int y)
        {
            var order = batch.First(batch.Operation(x)).SequenceCompareTo(batch.First(batch.Operation(y)));
            return order != 0 ? order : x.CompareTo(y);
        }
    }
}
