using System.IO.MemoryMappedFiles;

namespace DataStore.Packed;

/// <summary>
/// A packed file mapped into memory: header, footer and page table are checked when it opens; each index page and
/// each block is checked against its CRC-32C the first time it is read, and remembered (the file is immutable, so
/// once is enough). Every index entry and hash slot is also checked to point inside the file before it is followed.
/// </summary>
/// <remarks>
/// The mapping lives until the file is disposed and every cursor that holds it (<see cref="Hold"/>) has let go,
/// so a span handed out by a cursor never points into unmapped memory, even when the store is disposed first.
/// </remarks>
internal sealed unsafe class PackedFile : IDisposable
{
    private readonly MemoryMappedFile _map;
    private readonly MemoryMappedViewAccessor _view;
    private readonly byte* _base;
    private readonly ulong[] _verified;
    private readonly PackedFooter _footer;
    private readonly PackedPages _pages;
    private readonly long _keyArea;

    private PackedFile(string filePath, string storePath, MemoryMappedFile map, MemoryMappedViewAccessor view, byte* pointer, long length, PackedFooter footer)
    {
        FilePath = filePath;
        StorePath = storePath;
        _map = map;
        _view = view;
        _base = pointer;
        Length = length;
        _footer = footer;
        _verified = new ulong[(footer.BlockCount + 63) / 64];
        _pages = new PackedPages(pointer, footer, storePath, filePath);
        _keyArea = footer.IndexOffset + (footer.BlockCount * PackedFormat.IndexEntryLength);
    }

    public string FilePath { get; }

    public string StorePath { get; }

    /// <summary>The file's length in bytes.</summary>
    public long Length { get; }

    /// <summary>The counts the footer records.</summary>
    public PackedFooter Footer => _footer;

    public int BlockCount => (int)_footer.BlockCount;

    /// <summary>The index region's pages, for verification.</summary>
    public PackedPages Pages => _pages;

    /// <summary>Maps <paramref name="filePath"/> and checks its header, footer and page table.</summary>
    /// <exception cref="StoreFormatException">The file is damaged, truncated, or of a newer format.</exception>
    public static PackedFile Open(string filePath, string storePath)
    {
        var length = new FileInfo(filePath).Length;
        if (length < PackedFormat.HeaderLength + PackedFormat.FooterLength)
        {
            throw PackedDamage.Error(storePath, filePath, $"it is {length} bytes long, shorter than an empty packed file: it was truncated");
        }

        var stream = new FileStream(filePath, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        MemoryMappedFile map;
        try
        {
            map = MemoryMappedFile.CreateFromFile(stream, null, 0, MemoryMappedFileAccess.Read, HandleInheritability.None, leaveOpen: false);
        }
        catch
        {
            stream.Dispose();
            throw;
        }

        MemoryMappedViewAccessor? view = null;
        byte* pointer = null;
        try
        {
            view = map.CreateViewAccessor(0, length, MemoryMappedFileAccess.Read);
            view.SafeMemoryMappedViewHandle.AcquirePointer(ref pointer);
            pointer += view.PointerOffset;
            var footer = PackedLayoutCheck.Run(pointer, length, storePath, filePath);
            return new PackedFile(filePath, storePath, map, view, pointer, length, footer);
        }
        catch
        {
            if (pointer is not null)
            {
                view!.SafeMemoryMappedViewHandle.ReleasePointer();
            }

            view?.Dispose();
            map.Dispose();
            throw;
        }
    }

    /// <summary><paramref name="length"/> mapped bytes from <paramref name="offset"/>; the caller has checked the bounds.</summary>
    public ReadOnlySpan<byte> Span(long offset, int length) => new(_base + offset, length);

    /// <summary>The index entry of block <paramref name="block"/>, checked to describe a block and a first key inside the file.</summary>
    /// <exception cref="StoreFormatException">Its index page fails its check, or the entry points outside the file.</exception>
    public PackedBlockEntry Entry(int block)
    {
        var at = _footer.IndexOffset + ((long)block * PackedFormat.IndexEntryLength);
        var entry = PackedBlockEntry.Read(_pages.Read(at, PackedFormat.IndexEntryLength));
        if (entry.Offset < PackedFormat.HeaderLength || entry.Length == 0 || entry.Offset + entry.Length > _footer.IndexOffset || entry.Length > int.MaxValue
            || entry.KeyOffset < _keyArea || entry.KeyLength <= 0 || entry.KeyOffset + entry.KeyLength > _footer.HashOffset || entry.Pairs <= 0)
        {
            throw PackedDamage.Error(StorePath, FilePath, $"index entry {block} (at offset {at}) does not describe a block inside the file");
        }

        return entry;
    }

    /// <summary>The first key of block <paramref name="block"/>, from the index.</summary>
    public ReadOnlySpan<byte> FirstKey(int block)
    {
        var entry = Entry(block);
        return _pages.Read(entry.KeyOffset, entry.KeyLength);
    }

    /// <summary>Hash slot <paramref name="slot"/> (0 when empty).</summary>
    public ulong Slot(long slot) =>
        System.Buffers.Binary.BinaryPrimitives.ReadUInt64LittleEndian(_pages.Read(_footer.HashOffset + (slot * sizeof(ulong)), sizeof(ulong)));

    /// <summary>The bytes of block <paramref name="block"/>, checked against its CRC-32C the first time.</summary>
    /// <exception cref="StoreFormatException">The block fails its check.</exception>
    public ReadOnlySpan<byte> Block(int block)
    {
        var entry = Entry(block);
        var data = Span(entry.Offset, (int)entry.Length);
        var bit = 1UL << (block & 63);
        if ((Volatile.Read(ref _verified[block >> 6]) & bit) == 0)
        {
            Verify(block, entry, data);
            Interlocked.Or(ref _verified[block >> 6], bit);
        }

        return data;
    }

    /// <summary>The last block whose first key is not above <paramref name="key"/>; -1 when the key is below every block.</summary>
    public int FindBlock(ReadOnlySpan<byte> key)
    {
        int low = 0, high = BlockCount;
        while (low < high)
        {
            var middle = (low + high) >>> 1;
            if (FirstKey(middle).SequenceCompareTo(key) <= 0)
            {
                low = middle + 1;
            }
            else
            {
                high = middle;
            }
        }

        return low - 1;
    }

    /// <summary>Keeps the mapping alive until <see cref="Let"/>; false when the file is already closed.</summary>
    public bool Hold()
    {
        var held = false;
        try
        {
            _view.SafeMemoryMappedViewHandle.DangerousAddRef(ref held);
        }
        catch (ObjectDisposedException)
        {
        }

        return held;
    }

    /// <summary>Ends a <see cref="Hold"/>; the mapping goes with the last one after <see cref="Dispose"/>.</summary>
    public void Let() => _view.SafeMemoryMappedViewHandle.DangerousRelease();

    public void Dispose()
    {
        _view.SafeMemoryMappedViewHandle.ReleasePointer();
        _view.Dispose();
        _map.Dispose();
    }

    private void Verify(int block, PackedBlockEntry entry, ReadOnlySpan<byte> data)
    {
        if (PackedFormat.Crc(data) != entry.Crc)
        {
            throw PackedDamage.Error(StorePath, FilePath,
                $"block {block} ({entry.Length} bytes at offset {entry.Offset}) fails its CRC-32C check: the file was changed or damaged after it was built");
        }
    }
}
