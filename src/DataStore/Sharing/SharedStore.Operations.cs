using System.Buffers;
using System.Buffers.Binary;

namespace DataStore.Sharing;

// The operations: straight to the engine in the owner; as a request to the owner in a client.
internal sealed partial class SharedStore
{
    protected override void PutCore(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) => WriteKey(MessageKind.Put, key, value);

    protected override void DeleteCore(ReadOnlySpan<byte> key) => WriteKey(MessageKind.Delete, key, default);

    protected override bool GetCore(ReadOnlySpan<byte> key, IBufferWriter<byte> destination) => GetValue(key, destination, default) >= 0;

    protected override int GetCore(ReadOnlySpan<byte> key, Span<byte> destination) => GetValue(key, null, destination);

    protected override bool HaveKeyCore(ReadOnlySpan<byte> key)
    {
        while (true)
        {
            using var call = Begin(MessageKind.HaveKey);
            if (call.Engine is { } engine)
            {
                return engine.HaveKey(key);
            }

            call.Request.Bytes(key);
            if (Send(call, write: false))
            {
                return call.Answer[0] != 0;
            }
        }
    }

    protected override long DeleteRangeCore(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end)
    {
        while (true)
        {
            using var call = Begin(MessageKind.DeleteRange);
            if (call.Engine is { } engine)
            {
                return engine.DeleteRange(start, end);
            }

            call.Request.Bytes(start).Bytes(end);
            if (Send(call, write: true))
            {
                return BinaryPrimitives.ReadInt64LittleEndian(call.Answer);
            }
        }
    }

    protected override int WriteCore(WriteBatch batch)
    {
        while (true)
        {
            using var call = Begin(MessageKind.Write);
            var encoding = BrokerSteps.Now();
            if (call.Engine is { } engine)
            {
                var failed = engine.TryWrite(batch, out var failure) ? -1 : failure.Index;
                BrokerSteps.Lap(BrokerStep.OwnerOwnWrite, encoding);
                return failed;
            }

            BatchCodec.Write(call.Request, batch);
            BrokerSteps.Lap(BrokerStep.ClientEncode, encoding);
            if (Send(call, write: true))
            {
                return BinaryPrimitives.ReadInt32LittleEndian(call.Answer);
            }
        }
    }

    protected override void CompactCore()
    {
        while (true)
        {
            using var call = Begin(MessageKind.Compact);
            if (call.Engine is { } engine)
            {
                Server?.Compaction.ThrowIfShared(engine, Environment.ProcessId);
                engine.Compact();
                return;
            }

            if (Send(call, write: false))
            {
                return;
            }
        }
    }

    protected override IKeyValueCursor ScanCore(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end, bool keysOnly)
    {
        while (true)
        {
            var call = Begin(MessageKind.ScanOpen);
            if (call.Engine is { } engine)
            {
                return engine.ScanRange(start, end, keysOnly);
            }

            try
            {
                call.Request.Bytes(start).Bytes(end).Byte(keysOnly ? (byte)1 : (byte)0);
                if (Send(call, write: false))
                {
                    return new RemoteCursor(this, call.Client, call.Connection);
                }
            }
            catch
            {
                call.Dispose();
                throw;
            }

            call.Dispose();
        }
    }

    /// <summary>The owner writes its own online backup into <paramref name="destination"/> (an empty directory this method replaces).</summary>
    internal override void BackupCore(string destination, IProgress<StoreProgress>? progress, CancellationToken cancellationToken)
    {
        var target = System.IO.Path.GetFullPath(destination);
        Directory.Delete(target);
        while (true)
        {
            using var call = Begin(MessageKind.Backup);
            if (call.Engine is { } engine)
            {
                engine.BackupAsync(target, progress, cancellationToken).GetAwaiter().GetResult();
                return;
            }

            call.Request.Text(target);
            if (Send(call, write: true))
            {
                return;
            }
        }
    }

    /// <summary>The engine's own integrity check, run by the owner.</summary>
    internal override IReadOnlyList<string> CheckIntegrityCore(CancellationToken cancellationToken)
    {
        while (true)
        {
            using var call = Begin(MessageKind.CheckIntegrity);
            if (call.Engine is { } engine)
            {
                return EngineIntegrity.Check(engine);
            }

            if (Send(call, write: false))
            {
                var reader = new MessageReader(call.Answer);
                var problems = new string[reader.Int32()];
                for (var i = 0; i < problems.Length; i++)
                {
                    problems[i] = reader.Text();
                }

                return problems;
            }
        }
    }

    // A Put or a Delete of one key.
    private void WriteKey(MessageKind kind, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        while (true)
        {
            using var call = Begin(kind);
            if (call.Engine is { } engine)
            {
                if (kind == MessageKind.Put)
                {
                    engine.Put(key, value);
                }
                else
                {
                    engine.Delete(key);
                }

                return;
            }

            call.Request.Bytes(key);
            if (kind == MessageKind.Put)
            {
                call.Request.Bytes(value);
            }

            if (Send(call, write: true))
            {
                return;
            }
        }
    }

    // Writes the value to the writer, or copies it into the span when it fits; returns its length, or -1 when the key is absent.
    private int GetValue(ReadOnlySpan<byte> key, IBufferWriter<byte>? writer, Span<byte> span)
    {
        while (true)
        {
            using var call = Begin(MessageKind.Get);
            if (call.Engine is { } engine)
            {
                return writer is null ? engine.Get(key, span) : engine.Get(key, writer) ? 0 : -1;
            }

            call.Request.Bytes(key);
            if (Send(call, write: false))
            {
                var length = BinaryPrimitives.ReadInt32LittleEndian(call.Answer);
                if (length < 0)
                {
                    return -1;
                }

                var value = call.Answer.Slice(4, length);
                if (writer is not null)
                {
                    writer.Write(value);
                }
                else if (length <= span.Length)
                {
                    value.CopyTo(span);
                }

                return length;
            }
        }
    }

    private RemoteCall Begin(MessageKind kind)
    {
        while (true)
        {
            var role = _role;
            if (role is OwnerRole owner)
            {
                return new RemoteCall(owner.Engine, null, null);
            }

            var client = (BrokerClient)role;
            try
            {
                var connection = client.Rent();
                connection.Request.Start(kind);
                return new RemoteCall(null, client, connection);
            }
            catch (BrokerLostException)
            {
                HandOver(client);
            }
        }
    }

    // True with the answer; false when the owner went away before the request reached it (the store is handed over:
    // build the request again). A write the owner received but never answered is not sent again.
    private bool Send(in RemoteCall call, bool write)
    {
        try
        {
            call.Connection.Call();
        }
        catch (BrokerLostException lost)
        {
            if (lost.Sent && write)
            {
                var unknown = new OutcomeUnknownException(_directory, _backend, call.Client.Owner.ProcessId, lost);
                try
                {
                    HandOver(call.Client);
                }
                catch (DataStoreException)
                {
                    // The next call reports why no owner answers; this one's outcome is what the caller must hear.
                }

                throw unknown;
            }

            HandOver(call.Client);
            return false;
        }

        var answer = call.Connection.Answer;
        return (MessageKind)answer[0] == MessageKind.Error ? throw BrokerErrors.Read(answer, _directory, _backend) : true;
    }
}
