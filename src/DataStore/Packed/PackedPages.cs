using System.Buffers.Binary;
using System.Numerics;

namespace DataStore.Packed;

/// <summary>
/// The index region of a mapped packed file (entries, first keys, hash table), checked page by page: each page's
/// CRC-32C is compared with the page table the first time any byte of it is read, and remembered in a bitmap (the
/// file never changes in place), so opening a file costs nothing per page and later reads cost one bit test.
/// </summary>
internal sealed unsafe class PackedPages
{
    private readonly byte* _file;
    private readonly long _start;
    private readonly long _end;
    private readonly long _table;
    private readonly int _shift;
    private readonly ulong[] _checked;
    private readonly string _storePath;
    private readonly string _filePath;

    public PackedPages(byte* file, PackedFooter footer, string storePath, string filePath)
    {
        _file = file;
        _start = footer.IndexOffset;
        _end = footer.PageTableOffset;
        _table = footer.PageTableOffset;
        _shift = BitOperations.Log2((uint)footer.PageLength);
        _checked = new ulong[(Count + 63) / 64];
        _storePath = storePath;
        _filePath = filePath;
    }

    /// <summary>Pages in the index region.</summary>
    public long Count => (_end - _start + (1L << _shift) - 1) >> _shift;

    /// <summary><paramref name="length"/> bytes at file offset <paramref name="offset"/>, after checking every page they lie on.</summary>
    /// <exception cref="StoreFormatException">The bytes lie outside the index region, or a page fails its check.</exception>
    public ReadOnlySpan<byte> Read(long offset, int length)
    {
        if (offset < _start || length <= 0 || offset + length > _end)
        {
            throw PackedDamage.Error(_storePath, _filePath, $"the index points at {length} bytes at offset {offset}, outside the index region");
        }

        var last = (offset + length - 1 - _start) >> _shift;
        for (var page = (offset - _start) >> _shift; page <= last; page++)
        {
            if ((Volatile.Read(ref _checked[page >> 6]) & (1UL << (int)(page & 63))) == 0)
            {
                Check(page);
            }
        }

        return new ReadOnlySpan<byte>(_file + offset, length);
    }

    /// <summary>Checks page <paramref name="page"/> against the page table.</summary>
    public void Check(long page)
    {
        var offset = _start + (page << _shift);
        var length = (int)Math.Min(1L << _shift, _end - offset);
        var expected = BinaryPrimitives.ReadUInt32LittleEndian(new ReadOnlySpan<byte>(_file + _table + (page * sizeof(uint)), sizeof(uint)));
        if (PackedFormat.Crc(new ReadOnlySpan<byte>(_file + offset, length)) != expected)
        {
            throw PackedDamage.Error(_storePath, _filePath,
                $"index page {page} ({length} bytes at offset {offset}) fails its CRC-32C check: the file was changed or damaged after it was built");
        }

        Interlocked.Or(ref _checked[page >> 6], 1UL << (int)(page & 63));
    }
}
