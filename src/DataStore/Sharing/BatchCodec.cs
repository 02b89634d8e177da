using DataStore.Batches;

namespace DataStore.Sharing;

/// <summary>A <see cref="WriteBatch"/> on the wire: its operations, then its preconditions, each a kind and two byte strings.</summary>
internal static class BatchCodec
{
    public static void Write(MessageWriter writer, WriteBatch batch)
    {
        writer.Int32(batch.OperationCount);
        for (var i = 0; i < batch.OperationCount; i++)
        {
            Entry(writer, batch, batch.Operation(i));
        }

        writer.Int32(batch.PreconditionCount);
        for (var i = 0; i < batch.PreconditionCount; i++)
        {
            Entry(writer, batch, batch.Precondition(i));
        }
    }

    /// <summary>Decodes a batch into <paramref name="batch"/>, cleared first (a session reuses one batch and its buffers).</summary>
    public static void Read(ref MessageReader reader, WriteBatch batch)
    {
        batch.Clear();
        for (var pass = 0; pass < 2; pass++)
        {
            var count = reader.Int32();
            for (var i = 0; i < count; i++)
            {
                var kind = (BatchEntryKind)reader.Byte();
                var first = reader.Bytes();
                var second = reader.Bytes();
                _ = kind switch
                {
                    BatchEntryKind.Put when pass == 0 => batch.Put(first, second),
                    BatchEntryKind.Delete when pass == 0 => batch.Delete(first),
                    BatchEntryKind.DeletePrefix when pass == 0 => batch.DeletePrefix(first),
                    BatchEntryKind.DeleteRange when pass == 0 => batch.DeleteRange(first, second),
                    BatchEntryKind.RequireAbsent when pass == 1 => batch.RequireAbsent(first),
                    BatchEntryKind.RequireValue when pass == 1 => batch.RequireValue(first, second),
                    _ => throw new BrokerProtocolException($"a batch entry of kind {(byte)kind} in the wrong place"),
                };
            }
        }
    }

    private static void Entry(MessageWriter writer, WriteBatch batch, in BatchEntry entry) =>
        writer.Byte((byte)entry.Kind).Bytes(batch.First(entry)).Bytes(batch.Second(entry));
}
