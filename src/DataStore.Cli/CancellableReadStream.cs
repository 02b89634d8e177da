namespace DataStore.Cli;

/// <summary>
/// A read-only view of a stream (stdin) whose blocking reads give up when a token is cancelled, so Ctrl+C stops an
/// import that waits on a silent pipe.
/// </summary>
/// <remarks>A read abandoned by cancellation keeps waiting on a pool thread until the process ends; its data is lost.</remarks>
internal sealed class CancellableReadStream(Stream inner, CancellationToken cancellationToken) : Stream
{
    private byte[] _buffer = [];

    public override bool CanRead => true;

    public override bool CanSeek => false;

    public override bool CanWrite => false;

    public override long Length => throw new NotSupportedException();

    public override long Position
    {
        get => throw new NotSupportedException();
        set => throw new NotSupportedException();
    }

    public override int Read(byte[] buffer, int offset, int count) =>
        ReadAsync(buffer.AsMemory(offset, count), CancellationToken.None).AsTask().GetAwaiter().GetResult();

    public override int Read(Span<byte> buffer)
    {
        if (_buffer.Length < buffer.Length)
        {
            _buffer = new byte[buffer.Length];
        }

        var read = Read(_buffer, 0, buffer.Length);
        _buffer.AsSpan(0, read).CopyTo(buffer);
        return read;
    }

    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken token = default)
    {
        using var both = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, token);
        var read = Task.Run(() => inner.Read(buffer.Span), CancellationToken.None);
        return await read.WaitAsync(both.Token).ConfigureAwait(false);
    }

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken token) =>
        ReadAsync(buffer.AsMemory(offset, count), token).AsTask();

    public override void Flush()
    {
    }

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
}
