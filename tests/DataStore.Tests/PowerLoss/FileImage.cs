namespace DataStore.Tests.PowerLoss;

/// <summary>A file's bytes as the power-loss replay sees them: a length and the 4 KiB pages written so far (sparse).</summary>
public sealed class FileImage
{
    public const int PageSize = 4096;
    private readonly Dictionary<long, byte[]> _pages;

    public FileImage() => _pages = [];

    private FileImage(FileImage other)
    {
        Length = other.Length;
        _pages = other._pages.ToDictionary(p => p.Key, p => (byte[])p.Value.Clone());
    }

    public long Length { get; private set; }

    public FileImage Clone() => new(this);

    public void Write(long offset, ReadOnlySpan<byte> data)
    {
        for (var done = 0; done < data.Length;)
        {
            var at = offset + done;
            var page = Page(at / PageSize);
            var inPage = (int)(at % PageSize);
            var n = Math.Min(PageSize - inPage, data.Length - done);
            data.Slice(done, n).CopyTo(page.AsSpan(inPage));
            done += n;
        }

        Length = Math.Max(Length, offset + data.Length);
    }

    /// <summary>Sets the length: a shorter file loses its tail (zeroed, as a later extension reads zeros).</summary>
    public void SetLength(long length)
    {
        if (length < Length)
        {
            foreach (var index in _pages.Keys.Where(i => i * PageSize >= length).ToList())
            {
                _pages.Remove(index);
            }

            if (_pages.TryGetValue(length / PageSize, out var last))
            {
                last.AsSpan((int)(length % PageSize)).Clear();
            }
        }

        Length = length;
    }

    public void Zero(long offset, long length)
    {
        for (var at = offset; at < offset + length;)
        {
            var n = (int)Math.Min(PageSize - (at % PageSize), offset + length - at);
            if (_pages.TryGetValue(at / PageSize, out var page))
            {
                page.AsSpan((int)(at % PageSize), n).Clear();
            }

            at += n;
        }
    }

    public void SaveTo(string path)
    {
        using var stream = new FileStream(path, FileMode.CreateNew, FileAccess.Write);
        stream.SetLength(Length);
        foreach (var (index, page) in _pages.OrderBy(p => p.Key))
        {
            var start = index * PageSize;
            if (start >= Length)
            {
                continue;
            }

            stream.Position = start;
            stream.Write(page, 0, (int)Math.Min(PageSize, Length - start));
        }
    }

    private byte[] Page(long index)
    {
        if (!_pages.TryGetValue(index, out var page))
        {
            page = new byte[PageSize];
            _pages.Add(index, page);
        }

        return page;
    }
}
