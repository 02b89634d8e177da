using DataStore.Batches;
using DataStore.Sharing;

namespace DataStore.Tests.Sharing;

/// <summary>
/// A client's batch as the owner decodes it (ADR 0015): every entry exactly as sent, its keys and values read in the
/// received message instead of copied into the session's batch (the engine copies them as it applies the batch), and
/// the message forgotten when the batch is cleared.
/// </summary>
public sealed class BatchCodecTests
{
    [Fact]
    public void A_decoded_batch_reads_its_keys_and_values_in_the_message_without_copying_them()
    {
        var sent = new WriteBatch().RequireValue([9], [8, 7]).RequireAbsent([6]);
        for (var i = 0; i < 1_000; i++)
        {
            sent.Put([1, (byte)(i >> 8), (byte)i], Conformance.Bytes.Random(128, i));
        }

        sent.Delete([2]).DeletePrefix([3]).DeleteRange([4], [5]);
        var (message, decoded) = RoundTrip(sent);

        Assert.Equal(sent.OperationCount, decoded.OperationCount);
        Assert.Equal(sent.PreconditionCount, decoded.PreconditionCount);
        for (var i = 0; i < sent.OperationCount; i++)
        {
            AssertSame(sent, sent.Operation(i), decoded, decoded.Operation(i), $"operation {i}");
        }

        for (var i = 0; i < sent.PreconditionCount; i++)
        {
            AssertSame(sent, sent.Precondition(i), decoded, decoded.Precondition(i), $"precondition {i}");
        }

        // Not copied: the value the batch reads is the message's own bytes.
        var value = decoded.Second(decoded.Operation(0));
        var at = message.AsSpan().IndexOf(value);
        message[at] ^= 0xFF;
        Assert.Equal(message[at], decoded.Second(decoded.Operation(0))[0]);
    }

    [Fact]
    public void A_cleared_decoded_batch_forgets_the_message_and_never_writes_into_it()
    {
        var (message, decoded) = RoundTrip(new WriteBatch().Put([1], [2, 3]));
        var before = message.ToArray();

        decoded.Put([4], Conformance.Bytes.Random(300, 1)); // added after the decoded entries: copied into the batch's own chunks
        decoded.Clear();
        for (var i = 0; i < 2_000; i++)
        {
            decoded.Put([5, (byte)i], Conformance.Bytes.Random(100, i));
        }

        Assert.Equal(before, message);
        Assert.True(decoded.Second(decoded.Operation(1999)).SequenceEqual(Conformance.Bytes.Random(100, 1999)));
    }

    [Fact]
    public void A_decoded_entry_that_the_public_methods_would_refuse_is_refused()
    {
        Assert.Throws<ArgumentException>(() => RoundTrip(Encoded(BatchEntryKind.Put, [], [1])));
        Assert.Throws<ArgumentException>(() => RoundTrip(Encoded(BatchEntryKind.DeletePrefix, [], [])));
        Assert.Throws<ArgumentException>(() => RoundTrip(Encoded(BatchEntryKind.DeleteRange, [5], [4])));
        Assert.Throws<BrokerProtocolException>(() => RoundTrip(Encoded(BatchEntryKind.RequireAbsent, [1], [])));

        // A delete sent with a second byte string keeps none (the public Delete has none).
        var (_, decoded) = RoundTrip(Encoded(BatchEntryKind.Delete, [1], [2, 3]));
        Assert.True(decoded.Second(decoded.Operation(0)).IsEmpty);
    }

    private static (byte[] Message, WriteBatch Batch) RoundTrip(WriteBatch sent)
    {
        var writer = new MessageWriter();
        writer.Start(MessageKind.Write);
        BatchCodec.Write(writer, sent);
        return RoundTrip(writer.Message.ToArray());
    }

    private static (byte[] Message, WriteBatch Batch) RoundTrip(byte[] message)
    {
        var reader = new MessageReader(message);
        _ = reader.Byte();
        var decoded = new WriteBatch().Put([7], [7]); // a reused session batch: cleared by the decode
        BatchCodec.Read(ref reader, message, decoded);
        return (message, decoded);
    }

    // One operation of the given kind, bypassing WriteBatch's own checks, as a garbage peer could send it.
    private static byte[] Encoded(BatchEntryKind kind, byte[] first, byte[] second)
    {
        var writer = new MessageWriter();
        writer.Start(MessageKind.Write).Int32(1).Byte((byte)kind).Bytes(first).Bytes(second).Int32(0);
        return writer.Message.ToArray();
    }

    private static void AssertSame(WriteBatch sent, BatchEntry expected, WriteBatch decoded, BatchEntry actual, string what)
    {
        Assert.Equal(expected.Kind, actual.Kind);
        Assert.True(sent.First(expected).SequenceEqual(decoded.First(actual)), $"{what}: first");
        Assert.True(sent.Second(expected).SequenceEqual(decoded.Second(actual)), $"{what}: second");
    }
}
