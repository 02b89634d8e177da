using DataStore.Batches;

namespace DataStore.Sharing;

/// <summary>A <see cref="WriteBatch"/> on the wire: its operations, then its preconditions, each a kind and two byte strings.</summary>
internal static class BatchCodec
{
    public static void Write(MessageWriter writer, WriteBatch batch)
    {
        writer.Int32(batch.OperationCount);
        var operations = new OperationWriter(writer);
        batch.VisitOperations(ref operations);

        writer.Int32(batch.PreconditionCount);
        for (var i = 0; i < batch.PreconditionCount; i++)
        {
            Entry(writer, batch, batch.Precondition(i));
        }
    }

    /// <summary>
    /// Decodes the batch that <paramref name="reader"/> is at in <paramref name="message"/> into <paramref name="batch"/>
    /// (cleared first: a session reuses one batch). The batch's keys and values are not copied: they stay in
    /// <paramref name="message"/>, which must not change while the batch is used (the engine copies them as it applies it).
    /// </summary>
    public static void Read(ref MessageReader reader, byte[] message, WriteBatch batch)
    {
        batch.ClearAndBorrow(message);
        for (var pass = 0; pass < 2; pass++)
        {
            var count = reader.Int32();
            for (var i = 0; i < count; i++)
            {
                var kind = (BatchEntryKind)reader.Byte();
                var (first, firstLength) = reader.BytesAt();
                var (second, secondLength) = reader.BytesAt();
                if (!(pass == 0 ? kind.IsOperation() : kind.IsPrecondition()))
                {
                    throw new BrokerProtocolException($"a batch entry of kind {(byte)kind} in the wrong place");
                }

                batch.AddBorrowed(kind, first, firstLength, second, secondLength);
            }
        }
    }

    private static void Entry(MessageWriter writer, WriteBatch batch, in BatchEntry entry) =>
        Entry(writer, entry.Kind, batch.First(entry), batch.Second(entry));

    private static void Entry(MessageWriter writer, BatchEntryKind kind, ReadOnlySpan<byte> first, ReadOnlySpan<byte> second) =>
        writer.Byte((byte)kind).Bytes(first).Bytes(second);

    private readonly struct OperationWriter(MessageWriter writer) : IBatchOperationVisitor
    {
        public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) => Entry(writer, BatchEntryKind.Put, key, value);

        public void Delete(ReadOnlySpan<byte> key) => Entry(writer, BatchEntryKind.Delete, key, default);

        public void DeletePrefix(ReadOnlySpan<byte> prefix) => Entry(writer, BatchEntryKind.DeletePrefix, prefix, default);

        public void DeleteRange(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end) => Entry(writer, BatchEntryKind.DeleteRange, start, end);
    }
}
