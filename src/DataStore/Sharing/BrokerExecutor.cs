namespace DataStore.Sharing;

/// <summary>
/// Runs one connection's requests against the owner's engine and writes the answers. Holds the connection's one open
/// scan: an engine cursor (a snapshot where the engine has them) that streams to the client chunk by chunk.
/// </summary>
internal sealed class BrokerExecutor(IKeyValueStore engine, ScanCount scans, Action beforeCompact) : IDisposable
{
    // A client asks for one page of change-log records (256); a damaged request asking more reads no more than this.
    private const int MaxChangesPerPage = 4096;

    private IKeyValueCursor? _cursor;

    /// <summary>Runs <paramref name="request"/>; an engine failure becomes an error answer. A malformed request throws <see cref="BrokerProtocolException"/>.</summary>
    public void Execute(ReadOnlySpan<byte> request, MessageWriter answer)
    {
        try
        {
            Dispatch(request, answer);
        }
        catch (BrokerProtocolException)
        {
            throw;
        }
        catch (Exception e)
        {
            BrokerErrors.Write(answer, e);
        }
    }

    public void Dispose() => CloseScan();

    private void Dispatch(ReadOnlySpan<byte> request, MessageWriter answer)
    {
        var reader = new MessageReader(request);
        var kind = (MessageKind)reader.Byte();
        switch (kind)
        {
            case MessageKind.Get:
                Get(reader.Bytes(), answer);
                return;
            case MessageKind.HaveKey:
                answer.Start(MessageKind.Ok).Byte(engine.HaveKey(reader.Bytes()) ? (byte)1 : (byte)0);
                return;
            case MessageKind.Put:
                engine.Put(reader.Bytes(), reader.Bytes());
                answer.Start(MessageKind.Ok);
                return;
            case MessageKind.Delete:
                engine.Delete(reader.Bytes());
                answer.Start(MessageKind.Ok);
                return;
            case MessageKind.DeleteRange:
                answer.Start(MessageKind.Ok).Int64(engine.DeleteRange(reader.Bytes(), reader.Bytes()));
                return;
            case MessageKind.Write:
                var batch = BatchCodec.Read(ref reader);
                answer.Start(MessageKind.Ok).Int32(engine.TryWrite(batch, out var failure) ? -1 : failure.Index);
                return;
            case MessageKind.Compact:
                beforeCompact();
                engine.Compact();
                answer.Start(MessageKind.Ok);
                return;
            case MessageKind.Backup:
                engine.BackupAsync(reader.Text()).GetAwaiter().GetResult();
                answer.Start(MessageKind.Ok);
                return;
            case MessageKind.CheckIntegrity:
                var problems = EngineIntegrity.Check(engine);
                answer.Start(MessageKind.Ok).Int32(problems.Count);
                foreach (var problem in problems)
                {
                    answer.Text(problem);
                }

                return;
            case MessageKind.ReadChanges:
                ReadChanges(reader.Int64(), reader.Int32(), answer);
                return;
            case MessageKind.ScanOpen:
                CloseScan();
                var start = reader.Bytes();
                var end = reader.Bytes();
                _cursor = engine.ScanRange(start, end, keysOnly: reader.Byte() != 0);
                scans.Opened();
                answer.Start(MessageKind.Ok);
                return;
            case MessageKind.ScanNext:
                NextChunk(answer);
                return;
            case MessageKind.ScanClose:
                CloseScan();
                answer.Start(MessageKind.Ok);
                return;
            default:
                throw new BrokerProtocolException($"an unknown request kind {(byte)kind}");
        }
    }

    private void Get(ReadOnlySpan<byte> key, MessageWriter answer)
    {
        answer.Start(MessageKind.Ok);
        var at = answer.BeginLength();
        var found = engine.Get(key, answer);
        answer.EndLength(at, found);
    }

    // At most one chunk's worth of records (at least one), so a page never outgrows a scan chunk by much.
    private void ReadChanges(long after, int max, MessageWriter answer)
    {
        var page = SharedStore.EngineFeed(engine).ReadChanges(after, Math.Clamp(max, 0, MaxChangesPerPage));
        var records = page.Records;
        var bytes = 0L;
        var count = 0;
        while (count < records.Count && (count == 0 || bytes + records[count].Record.Length <= BrokerProtocol.ChunkBytes))
        {
            bytes += records[count++].Record.Length;
        }

        SharedStore.WritePage(answer, count == records.Count ? page : page with { Records = records.Take(count).ToList() });
    }

    // A chunk: for each pair 1, key, value; then 0 when more chunks follow or 2 at the end of the scan.
    private void NextChunk(MessageWriter answer)
    {
        var cursor = _cursor ?? throw new BrokerProtocolException("a scan step without an open scan");
        answer.Start(MessageKind.Ok);
        var start = answer.MessageLength;
        for (var pairs = 0; pairs < BrokerProtocol.ChunkPairs && answer.MessageLength - start < BrokerProtocol.ChunkBytes; pairs++)
        {
            if (!cursor.MoveNext())
            {
                answer.Byte(2);
                CloseScan();
                return;
            }

            answer.Byte(1).Bytes(cursor.Key).Bytes(cursor.Value);
        }

        answer.Byte(0);
    }

    private void CloseScan()
    {
        if (_cursor is { } cursor)
        {
            _cursor = null;
            scans.Closed();
            cursor.Dispose();
        }
    }
}
