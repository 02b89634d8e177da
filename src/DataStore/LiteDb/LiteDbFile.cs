using Microsoft.Win32.SafeHandles;

namespace DataStore.LiteDb;

/// <summary>
/// One of LiteDB's files (data or log) as the <see cref="Stream"/> LiteDB is given: unbuffered positional reads
/// and writes, and a <see cref="Flush()"/> whose meaning the store decides.
/// </summary>
/// <remarks>
/// LiteDB calls <c>Flush()</c> on a stream it was given (it fsyncs only its own <see cref="FileStream"/>s). The
/// data file fsyncs there, and first fsyncs the log when the log holds unsynced writes, so a checkpoint never
/// overwrites data pages before the log that holds them is durable. The log does not sync on <c>Flush()</c>:
/// the store syncs it before a durable write returns and in the background. The log does sync before a page
/// confirms a transaction (a write barrier): LiteDB's log pages carry no checksum, so a disk that wrote the
/// confirming page back before an earlier page of the log, or before the rest of the confirming page itself, would
/// have LiteDB apply stale bytes; the confirming page is written unconfirmed, synced, then confirmed by one byte. Emptying
/// the log (after a checkpoint) syncs the data file before and the log after.
/// LiteDB wraps each stream in its own lock, so <see cref="Position"/> is never used by two threads at once.
/// </remarks>
internal sealed class LiteDbFile : Stream
{
    private const int CopyBufferBytes = 1 << 20;

    // LiteDB 5's page size and the header byte that marks a transaction's last page in the log (BasePage.P_IS_CONFIRMED).
    private const int PageBytes = 8192;
    private const int ConfirmedOffset = 18;

    private readonly FileStream _file;
    private readonly SafeFileHandle _handle;
    private readonly LiteDbFile? _logBeforeMe;
    private readonly bool _isLog;
    private LiteDbFile? _checkpointTarget;
    private byte[]? _unconfirmed;
    private long _position;
    private volatile bool _dirty;

    private LiteDbFile(FileStream file, LiteDbFile? logBeforeMe)
    {
        _file = file;
        _handle = file.SafeFileHandle;
        _logBeforeMe = logBeforeMe;
        _isLog = logBeforeMe is null;
    }

    /// <summary>Opens or creates the log file.</summary>
    public static LiteDbFile OpenLog(string path) => new(Open(path), null);

    /// <summary>Opens or creates the data file, which syncs <paramref name="log"/> before it is overwritten.</summary>
    public static LiteDbFile OpenData(string path, LiteDbFile log)
    {
        var data = new LiteDbFile(Open(path), log);
        log._checkpointTarget = data;
        return data;
    }

    public override bool CanRead => true;

    public override bool CanSeek => true;

    public override bool CanWrite => true;

    public override long Length => RandomAccess.GetLength(_handle);

    public override long Position
    {
        get => _position;
        set => _position = value;
    }

    /// <summary>Fsyncs the file when it was written since its last sync.</summary>
    public void Sync()
    {
        if (_dirty)
        {
            _dirty = false;
            _file.Flush(flushToDisk: true);
        }
    }

    public override int Read(byte[] buffer, int offset, int count)
    {
        var read = RandomAccess.Read(_handle, buffer.AsSpan(offset, count), _position);
        _position += read;
        return read;
    }

    public override void Write(byte[] buffer, int offset, int count)
    {
        _logBeforeMe?.Sync();
        if (_isLog && ConfirmsATransaction(buffer, offset, count))
        {
            WriteConfirmingPage(buffer, offset);
        }
        else
        {
            RandomAccess.Write(_handle, new ReadOnlySpan<byte>(buffer, offset, count), _position);
        }

        _position += count;
        _dirty = true; // after the write, so a sync that clears the flag has the write to cover
    }

    public override void Flush()
    {
        if (_logBeforeMe is not null)
        {
            Sync();
        }
    }

    public override long Seek(long offset, SeekOrigin origin) => _position = origin switch
    {
        SeekOrigin.Begin => offset,
        SeekOrigin.Current => _position + offset,
        _ => Length + offset,
    };

    public override void SetLength(long value)
    {
        _logBeforeMe?.Sync();
        _checkpointTarget?.Sync(); // LiteDB empties the log after a checkpoint: the pages it copied are on disk first
        RandomAccess.SetLength(_handle, value);
        _dirty = true;
        if (_isLog)
        {
            // The cut is on disk before any later log write: LiteDB restarts transaction ids in an emptied log, so a
            // new page landing over an old log whose cut was lost would join an old, already applied transaction.
            Sync();
        }
    }

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            _file.Dispose();
        }

        base.Dispose(disposing);
    }

    /// <summary>
    /// Copies the file's bytes into a new file at <paramref name="target"/> through this file's own handle, reporting
    /// the running byte count. The caller keeps writers out meanwhile.
    /// </summary>
    public void CopyTo(string target, Action<long> copied, CancellationToken cancellationToken)
    {
        using var copy = new FileStream(target, FileMode.CreateNew, FileAccess.Write, FileShare.None, bufferSize: 0);
        var buffer = new byte[CopyBufferBytes];
        long offset = 0;
        int read;
        while ((read = RandomAccess.Read(_handle, buffer, offset)) > 0)
        {
            cancellationToken.ThrowIfCancellationRequested();
            copy.Write(buffer, 0, read);
            offset += read;
            copied(offset);
        }
    }

    /// <summary>
    /// Writes a transaction's last page in two steps: the whole page with its confirmation byte cleared, a sync (so
    /// every page of the transaction, this one included, is on disk), then the confirmation byte alone. A disk that
    /// writes back in 4 KiB pieces could otherwise keep the confirming page's first half (the byte that makes LiteDB
    /// apply the transaction) without its second (the page's slot footer): LiteDB then applied a half-written page
    /// ("invalid segment position in index footer"). The one-byte write is atomic: kept or lost, never torn.
    /// </summary>
    private void WriteConfirmingPage(byte[] buffer, int offset)
    {
        var unconfirmed = _unconfirmed ??= new byte[PageBytes];
        buffer.AsSpan(offset, PageBytes).CopyTo(unconfirmed);
        unconfirmed[ConfirmedOffset] = 0;
        RandomAccess.Write(_handle, unconfirmed, _position);
        _dirty = true;
        Sync();
        RandomAccess.Write(_handle, new ReadOnlySpan<byte>(buffer, offset + ConfirmedOffset, 1), _position + ConfirmedOffset);
    }

    private bool ConfirmsATransaction(byte[] buffer, int offset, int count) =>
        count == PageBytes && _position % PageBytes == 0 && buffer[offset + ConfirmedOffset] != 0;

    private static FileStream Open(string path) =>
        new(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.ReadWrite, bufferSize: 0, FileOptions.RandomAccess);
}
