namespace DataStore.Sharing;

/// <summary>
/// Runs one connection's requests against the owner's engine and writes the answers. Holds the connection's one open
/// scan: an engine cursor (a snapshot where the engine has them) that streams to the client chunk by chunk, one chunk
/// read ahead of the client's request (<see cref="ReadAhead"/>).
/// </summary>
internal sealed class BrokerExecutor(IKeyValueStore engine, ScanCount scans, Action beforeCompact) : IDisposable
{
    // A client asks for one page of change-log records (256); a damaged request asking more reads no more than this.
    private const int MaxChangesPerPage = 4096;

    private readonly MessageWriter _chunk = new(); // the scan's next chunk (or the error that ended it), read ahead
    private readonly WriteBatch _batch = new(); // a client's batch, its keys and values left in the request
    private IKeyValueCursor? _cursor;
    private bool _chunkReady;

    /// <summary>Runs the request in the first <paramref name="length"/> bytes of <paramref name="request"/> and returns the answer to send: <paramref name="answer"/>, or a scan chunk read ahead. An engine failure becomes an error answer; a malformed request throws <see cref="BrokerProtocolException"/>.</summary>
    public MessageWriter Execute(byte[] request, int length, MessageWriter answer)
    {
        try
        {
            return Dispatch(request, length, answer);
        }
        catch (BrokerProtocolException)
        {
            throw;
        }
        catch (Exception e)
        {
            BrokerErrors.Write(answer, e);
            return answer;
        }
    }

    /// <summary>
    /// While a scan is open and its next chunk is not read yet, reads it (into the one chunk buffer, free again once the
    /// last chunk was sent), so the next <see cref="MessageKind.ScanNext"/> is answered at once. The connection then
    /// holds at most one chunk read ahead, released with the cursor.
    /// </summary>
    public void ReadAhead()
    {
        if (_cursor is null || _chunkReady)
        {
            return;
        }

        try
        {
            FillChunk(_cursor);
        }
        catch (Exception e)
        {
            CloseScan();
            BrokerErrors.Write(_chunk, e); // the error answers the client's next request for this scan
        }

        _chunkReady = true;
        scans.ChunkReadAhead();
    }

    public void Dispose() => CloseScan();

    private MessageWriter Dispatch(byte[] request, int length, MessageWriter answer)
    {
        var reader = new MessageReader(request.AsSpan(0, length));
        var kind = (MessageKind)reader.Byte();
        switch (kind)
        {
            case MessageKind.Get:
                Get(reader.Bytes(), answer);
                return answer;
            case MessageKind.HaveKey:
                return answer.Start(MessageKind.Ok).Byte(engine.HaveKey(reader.Bytes()) ? (byte)1 : (byte)0);
            case MessageKind.Put:
                engine.Put(reader.Bytes(), reader.Bytes());
                return answer.Start(MessageKind.Ok);
            case MessageKind.Delete:
                engine.Delete(reader.Bytes());
                return answer.Start(MessageKind.Ok);
            case MessageKind.DeleteRange:
                return answer.Start(MessageKind.Ok).Int64(engine.DeleteRange(reader.Bytes(), reader.Bytes()));
            case MessageKind.Write:
                var decoding = BrokerSteps.Now();
                BatchCodec.Read(ref reader, request, _batch); // the batch reads its keys and values in the request
                var applying = BrokerSteps.Lap(BrokerStep.OwnerDecode, decoding);
                var failed = engine.TryWrite(_batch, out var failure) ? -1 : failure.Index;
                BrokerSteps.Lap(BrokerStep.OwnerApply, applying);
                return answer.Start(MessageKind.Ok).Int32(failed);
            case MessageKind.Compact:
                beforeCompact();
                engine.Compact();
                return answer.Start(MessageKind.Ok);
            case MessageKind.Backup:
                engine.BackupAsync(reader.Text()).GetAwaiter().GetResult();
                return answer.Start(MessageKind.Ok);
            case MessageKind.CheckIntegrity:
                var problems = EngineIntegrity.Check(engine);
                answer.Start(MessageKind.Ok).Int32(problems.Count);
                foreach (var problem in problems)
                {
                    answer.Text(problem);
                }

                return answer;
            case MessageKind.ReadChanges:
                ReadChanges(reader.Int64(), reader.Int32(), answer);
                return answer;
            case MessageKind.ScanOpen:
                CloseScan();
                var start = reader.Bytes();
                var end = reader.Bytes();
                _cursor = engine.ScanRange(start, end, keysOnly: reader.Byte() != 0);
                scans.Opened();
                return answer.Start(MessageKind.Ok);
            case MessageKind.ScanNext:
                return NextChunk();
            case MessageKind.ScanClose:
                CloseScan();
                return answer.Start(MessageKind.Ok);
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

    // The chunk read ahead, or the next one read now; the chunk buffer is free again once the session has sent it.
    private MessageWriter NextChunk()
    {
        if (_chunkReady)
        {
            _chunkReady = false;
            scans.ChunkSent();
            return _chunk;
        }

        var cursor = _cursor ?? throw new BrokerProtocolException("a scan step without an open scan");
        try
        {
            FillChunk(cursor);
        }
        catch
        {
            CloseScan(); // the client hears the error and ends its scan without closing it
            throw;
        }

        return _chunk;
    }

    // A chunk: for each pair 1, key, value; then 0 when more chunks follow or 2 at the end of the scan (the last byte,
    // which tells a client whether to ask for the next chunk before it reads this one).
    private void FillChunk(IKeyValueCursor cursor)
    {
        var chunk = _chunk.Start(MessageKind.Ok);
        var start = chunk.MessageLength;
        for (var pairs = 0; pairs < BrokerProtocol.ChunkPairs && chunk.MessageLength - start < BrokerProtocol.ChunkBytes; pairs++)
        {
            if (!cursor.MoveNext())
            {
                chunk.Byte(BrokerProtocol.LastChunk);
                CloseScan();
                return;
            }

            chunk.Byte(1).Bytes(cursor.Key).Bytes(cursor.Value);
        }

        chunk.Byte(BrokerProtocol.MoreChunks);
    }

    private void CloseScan()
    {
        if (_chunkReady)
        {
            _chunkReady = false; // a chunk read ahead for a scan the client closes (or replaces) is dropped with it
            scans.ChunkSent();
        }

        if (_cursor is { } cursor)
        {
            _cursor = null;
            scans.Closed();
            cursor.Dispose();
        }
    }
}
