namespace DataStore.Batches;

/// <summary>
/// What a walk over a <see cref="WriteBatch"/>'s operations (<see cref="WriteBatch.VisitOperations"/>) calls, once per
/// operation in the order they were added. Implemented by a struct, so the walk neither allocates nor boxes.
/// </summary>
/// <remarks>The spans are valid only during the call: they point into the batch's buffer (or the message it borrows).</remarks>
internal interface IBatchOperationVisitor
{
    void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value);

    void Delete(ReadOnlySpan<byte> key);

    void DeletePrefix(ReadOnlySpan<byte> prefix);

    /// <summary>A delete of [<paramref name="start"/>, <paramref name="end"/>); an empty bound is open.</summary>
    void DeleteRange(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end);
}
