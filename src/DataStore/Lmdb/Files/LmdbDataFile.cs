using System.Buffers.Binary;
using Microsoft.Win32.SafeHandles;

namespace DataStore.Lmdb.Files;

/// <summary>
/// Reads an LMDB data file with plain file reads, never through LMDB's memory map: its meta pages, and pages by
/// number with their bounds checked, so a damaged or truncated file is an error naming it instead of a crash.
/// Used before LMDB opens a file (the size check, the 0.9 conversion) and by verify.
/// </summary>
internal sealed class LmdbDataFile : IDisposable
{
    private const int MinPageSize = 512;
    private const int MaxPageSize = 65536;
    private readonly SafeFileHandle _handle;

    private LmdbDataFile(string directory, string path, SafeFileHandle handle, long length, LmdbMeta meta)
    {
        Directory = directory;
        Path = path;
        _handle = handle;
        Length = length;
        Meta = meta;
    }

    public string Directory { get; }

    public string Path { get; }

    public long Length { get; }

    public LmdbMeta Meta { get; }

    /// <summary>Opens <paramref name="path"/> and reads the meta page LMDB would open it at.</summary>
    public static LmdbDataFile Open(string directory, string path)
    {
        var handle = File.OpenHandle(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        try
        {
            var length = RandomAccess.GetLength(handle);
            var first = new byte[MinPageSize];
            Read(handle, first, 0, directory, path, "its first meta page");
            var layout = Identify(first) ?? throw Damaged(directory, path, "its first page is not an LMDB meta page of a format this DataStore reads (LMDB 0.9 or 1.0)");
            var pageSize = (int)BinaryPrimitives.ReadUInt32LittleEndian(first.AsSpan(layout.HeaderSize + 24));
            if (pageSize < MinPageSize || pageSize > MaxPageSize || (pageSize & (pageSize - 1)) != 0)
            {
                throw Damaged(directory, path, $"its meta page records a page size of {pageSize} bytes");
            }

            if (length < 2L * pageSize)
            {
                throw Damaged(directory, path, $"it is {length} bytes long, shorter than LMDB's two {pageSize}-byte meta pages: the file was truncated");
            }

            var second = new byte[MinPageSize];
            Read(handle, second, pageSize, directory, path, "its second meta page");
            var meta = Newest(ReadMeta(first, layout, pageSize), ReadMeta(second, layout, pageSize))
                ?? throw Damaged(directory, path, "neither of its two meta pages is valid");

            // The length again, now: a writer in another process may have committed between the first look and the
            // meta read, and its meta names pages the file had not reached then. A commit writes its pages before its
            // meta, so the file is at least this long for every page the meta just read names.
            return new LmdbDataFile(directory, path, handle, RandomAccess.GetLength(handle), meta);
        }
        catch
        {
            handle.Dispose();
            throw;
        }
    }

    /// <summary>The file's format from its first page, or null when it is neither LMDB 0.9's nor 1.0's.</summary>
    public static LmdbFileLayout? Identify(ReadOnlySpan<byte> firstPage)
    {
        foreach (var layout in (ReadOnlySpan<LmdbFileLayout>)[LmdbFileLayout.Lmdb09, LmdbFileLayout.Lmdb10])
        {
            if (BinaryPrimitives.ReadUInt32LittleEndian(firstPage[layout.HeaderSize..]) == LmdbFileLayout.Magic &&
                BinaryPrimitives.ReadUInt32LittleEndian(firstPage[(layout.HeaderSize + 4)..]) == layout.Version)
            {
                return layout;
            }
        }

        return null;
    }

    /// <summary>Reads <paramref name="count"/> consecutive pages from <paramref name="page"/> on, which must lie inside the file.</summary>
    public byte[] ReadPages(ulong page, int count, string what)
    {
        var buffer = new byte[checked(count * Meta.PageSize)];
        ReadPages(page, buffer, what);
        return buffer;
    }

    /// <summary>Fills <paramref name="buffer"/> (a whole number of pages) from <paramref name="page"/> on, which must lie inside the file.</summary>
    public void ReadPages(ulong page, byte[] buffer, string what)
    {
        var count = buffer.Length / Meta.PageSize;
        var pages = Length / Meta.PageSize;
        if (page < 2 || page > Meta.LastPage || count < 1 || (ulong)count > Meta.LastPage - page + 1)
        {
            throw Damaged(Directory, Path, $"{what} names page {page} (and {count - 1} after it), outside the {Meta.LastPage + 1} pages its meta page records");
        }

        if (page + (ulong)count > (ulong)pages)
        {
            throw Damaged(Directory, Path, $"{what} is page {page}, but the file ends after page {pages - 1} ({Length} bytes): the file was truncated");
        }

        Read(_handle, buffer, checked((long)page * Meta.PageSize), Directory, Path, what);
    }

    /// <summary>A damage error naming this file.</summary>
    public StoreFormatException Damage(string detail) => Damaged(Directory, Path, detail);

    public void Dispose() => _handle.Dispose();

    /// <summary>A <see cref="StoreFormatException"/> (Corrupt) saying which file is damaged and how.</summary>
    public static StoreFormatException Damaged(string directory, string path, string detail) =>
        new(StoreFailure.Corrupt, directory, StoreBackend.Lmdb, $"the LMDB data file {path} is damaged: {detail}.");

    private static LmdbMeta? ReadMeta(byte[] page, LmdbFileLayout layout, int pageSize)
    {
        var meta = page.AsSpan(layout.HeaderSize);
        if (BinaryPrimitives.ReadUInt32LittleEndian(meta) != LmdbFileLayout.Magic || BinaryPrimitives.ReadUInt32LittleEndian(meta[4..]) != layout.Version)
        {
            return null;
        }

        return new LmdbMeta(layout, pageSize, BinaryPrimitives.ReadUInt64LittleEndian(meta[120..]), BinaryPrimitives.ReadUInt64LittleEndian(meta[128..]), ReadTree(meta[24..]), ReadTree(meta[72..]));
    }

    /// <summary>A tree's root as an <c>MDB_db</c> records it (md_pad, md_flags, md_depth, three page counts, md_entries, md_root).</summary>
    public static LmdbTree ReadTree(ReadOnlySpan<byte> db) =>
        new(BinaryPrimitives.ReadUInt16LittleEndian(db[6..]), BinaryPrimitives.ReadUInt64LittleEndian(db[32..]), BinaryPrimitives.ReadUInt64LittleEndian(db[40..]));

    private static LmdbMeta? Newest(LmdbMeta? a, LmdbMeta? b) => a is null ? b : b is null || a.TransactionId >= b.TransactionId ? a : b;

    private static void Read(SafeFileHandle handle, byte[] buffer, long offset, string directory, string path, string what)
    {
        var done = 0;
        while (done < buffer.Length)
        {
            var read = RandomAccess.Read(handle, buffer.AsSpan(done), offset + done);
            if (read == 0)
            {
                throw Damaged(directory, path, $"{what} lies past the end of the file ({RandomAccess.GetLength(handle)} bytes): the file was truncated");
            }

            done += read;
        }
    }
}
