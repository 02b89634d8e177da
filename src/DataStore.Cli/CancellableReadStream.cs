namespace DataStore.Cli;

/// <summary>
/// A read-only view of a stream (stdin) whose blocking reads give up when a token is cancelled, so Ctrl+C stops an
/// import that waits on a silent pipe.
/// </summary>
/// <remarks>
/// The blocking reads run on one dedicated thread, never on the thread pool: a busy pool (a loaded machine, the
/// import's own work) must not delay either the reads or the cancellation. A read abandoned by cancellation keeps
/// waiting on that background thread until the process ends; its data is lost.
/// </remarks>
internal sealed class CancellableReadStream : Stream
{
    private const int ChunkSize = 64 * 1024;

    private readonly Stream _inner;
    private readonly CancellationToken _cancellationToken;
    private readonly SemaphoreSlim _wanted = new(0);
    private readonly SemaphoreSlim _ready = new(0);
    private readonly byte[] _chunk = new byte[ChunkSize];
    private Thread? _reader;
    private int _chunkStart;
    private int _chunkEnd;
    private Exception? _failure;
    private bool _waiting;
    private volatile bool _disposed;

    public CancellableReadStream(Stream inner, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(inner);
        _inner = inner;
        _cancellationToken = cancellationToken;
    }

    public override bool CanRead => true;

    public override bool CanSeek => false;

    public override bool CanWrite => false;

    public override long Length => throw new NotSupportedException();

    public override long Position
    {
        get => throw new NotSupportedException();
        set => throw new NotSupportedException();
    }

    public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

    public override int Read(Span<byte> buffer)
    {
        _cancellationToken.ThrowIfCancellationRequested();
        if (buffer.IsEmpty)
        {
            return 0;
        }

        if (_chunkStart == _chunkEnd)
        {
            FillChunk();
        }

        var count = Math.Min(buffer.Length, _chunkEnd - _chunkStart);
        _chunk.AsSpan(_chunkStart, count).CopyTo(buffer);
        _chunkStart += count;
        return count;
    }

    public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken token = default)
    {
        token.ThrowIfCancellationRequested();
        return ValueTask.FromResult(Read(buffer.Span));
    }

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken token) =>
        ReadAsync(buffer.AsMemory(offset, count), token).AsTask();

    public override void Flush()
    {
    }

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    protected override void Dispose(bool disposing)
    {
        if (disposing && !_disposed)
        {
            _disposed = true;
            if (_reader is not null)
            {
                _wanted.Release(); // the reader thread ends after the read it may be blocked in
            }
        }

        base.Dispose(disposing);
    }

    /// <summary>Asks the reader thread for the next chunk and waits for it, or for cancellation.</summary>
    private void FillChunk()
    {
        if (!_waiting)
        {
            _reader ??= StartReader();
            _wanted.Release();
            _waiting = true;
        }

        _ready.Wait(_cancellationToken); // a cancelled wait leaves the request pending; the stream is done then
        _waiting = false;
        if (_failure is not null)
        {
            throw new IOException($"Reading the input failed: {_failure.Message}", _failure);
        }
    }

    private Thread StartReader()
    {
        var thread = new Thread(ReadChunks) { IsBackground = true, Name = "datastore stdin reader" };
        thread.Start();
        return thread;
    }

    /// <summary>The reader thread: one blocking read per request; end of input is a chunk of 0 bytes.</summary>
    private void ReadChunks()
    {
        while (true)
        {
            _wanted.Wait();
            if (_disposed)
            {
                return;
            }

            try
            {
                _chunkStart = 0;
                _chunkEnd = _inner.Read(_chunk, 0, ChunkSize);
            }
            catch (Exception e) // any failure goes to the reading thread, never out of this one
            {
                _chunkEnd = 0;
                _failure = e;
            }

            _ready.Release();
        }
    }
}
