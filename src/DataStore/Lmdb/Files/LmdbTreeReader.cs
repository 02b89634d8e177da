using System.Buffers.Binary;
using System.Runtime.InteropServices;

namespace DataStore.Lmdb.Files;

/// <summary>
/// Walks one B+tree of an LMDB data file in key order with our own bounds-checked reads: every page it follows lies
/// inside the file and is of the kind its level needs, every node lies inside its page, keys ascend, no tree is
/// deeper than its meta page says, and the walk counts as many pairs as the meta page records. What it cannot see:
/// a damaged byte inside a key or value that keeps all of that true (LMDB keeps no checksums).
/// </summary>
internal sealed class LmdbTreeReader(LmdbDataFile file)
{
    private const ushort BranchPage = 0x01;
    private const ushort LeafPage = 0x02;
    private const ushort OverflowPage = 0x04;
    private const ushort BigData = 0x01;
    private const ushort SubData = 0x02;
    private const int TreeRecordSize = 48;
    private const int NodeHeader = 8;
    private const int MaxDepth = 64;

    private readonly LmdbFileLayout _layout = file.Meta.Layout;
    private readonly byte[]?[] _levels = new byte[]?[MaxDepth + 1];
    private byte[] _previous = [];
    private int _previousLength = -1;
    private bool _integerKeys;
    private List<(string Name, LmdbTree Tree)>? _named;
    private ulong _pairs;
    private long _pages;

    /// <summary>How many pages one <see cref="Walk"/> reads at most; past it the walk stops without finding damage (and without the pair count).</summary>
    public long PageBudget { get; init; } = long.MaxValue;

    /// <summary>True when the last walk stopped at <see cref="PageBudget"/>.</summary>
    public bool Stopped => _pages > PageBudget;

    /// <summary>
    /// Calls <paramref name="visit"/> with every pair of <paramref name="tree"/>, in key order. The free-page tree's
    /// keys are transaction ids in the machine's byte order (<c>MDB_INTEGERKEY</c>), so they ascend as integers, not
    /// as bytes (<paramref name="integerKeys"/>). A main tree that lists named trees (a store with the change feed, ADR 0020)
    /// adds each to <paramref name="named"/> instead of visiting it; without that list such a record is damage.
    /// </summary>
    public void Walk(LmdbTree tree, string name, Action<ReadOnlySpan<byte>, ReadOnlySpan<byte>> visit, CancellationToken cancellationToken = default,
        bool integerKeys = false, List<(string Name, LmdbTree Tree)>? named = null)
    {
        _integerKeys = integerKeys;
        _named = named;
        _previousLength = -1;
        _pairs = 0;
        _pages = 0;
        if (!tree.IsEmpty)
        {
            if (tree.Depth < 1 || tree.Depth > MaxDepth)
            {
                throw file.Damage($"its {name} tree records a depth of {tree.Depth}");
            }

            Visit(tree.Root, 1, tree.Depth, name, visit, cancellationToken);
        }

        if (!Stopped && _pairs != tree.Entries)
        {
            throw file.Damage($"its {name} tree holds {_pairs} pairs, but its meta page records {tree.Entries}");
        }
    }

    /// <summary>Checks that the root page of <paramref name="tree"/> lies inside the file and is of the kind its depth needs.</summary>
    public void CheckRoot(LmdbTree tree, string name)
    {
        if (tree.IsEmpty)
        {
            return;
        }

        var page = file.ReadPages(tree.Root, 1, $"the root page of its {name} tree");
        var flags = BinaryPrimitives.ReadUInt16LittleEndian(page.AsSpan(_layout.FlagsOffset));
        var expected = tree.Depth > 1 ? BranchPage : LeafPage;
        if ((flags & (BranchPage | LeafPage | OverflowPage)) != expected)
        {
            throw file.Damage($"the root page {tree.Root} of its {name} tree, {tree.Depth} levels deep, should be a {(expected == LeafPage ? "leaf" : "branch")} page but has flags 0x{flags:x}");
        }
    }

    private void Visit(ulong pageNumber, int level, int depth, string name, Action<ReadOnlySpan<byte>, ReadOnlySpan<byte>> visit, CancellationToken cancellationToken)
    {
        cancellationToken.ThrowIfCancellationRequested();
        if (++_pages > PageBudget)
        {
            return;
        }

        // One buffer per level, reused: a walk at open allocates a few pages, not one per page of the tree.
        var page = _levels[level] ??= new byte[file.Meta.PageSize];
        file.ReadPages(pageNumber, page, $"a page of its {name} tree");
        var flags = BinaryPrimitives.ReadUInt16LittleEndian(page.AsSpan(_layout.FlagsOffset));
        var expected = level < depth ? BranchPage : LeafPage;
        if ((flags & (BranchPage | LeafPage | OverflowPage)) != expected)
        {
            throw file.Damage($"page {pageNumber}, at level {level} of the {depth} of its {name} tree, should be a {(expected == LeafPage ? "leaf" : "branch")} page but has flags 0x{flags:x}");
        }

        var lower = BinaryPrimitives.ReadUInt16LittleEndian(page.AsSpan(_layout.LowerOffset));
        var count = _layout.NodeCount(lower);
        if (lower < _layout.HeaderSize - _layout.NodeBase || count < (level < depth ? 1 : 0) || _layout.HeaderSize + 2 * count > page.Length)
        {
            throw file.Damage($"page {pageNumber} of its {name} tree records an impossible node count ({lower})");
        }

        for (var i = 0; i < count; i++)
        {
            var offset = BinaryPrimitives.ReadUInt16LittleEndian(page.AsSpan(_layout.HeaderSize + 2 * i)) + _layout.NodeBase;
            if (offset < _layout.HeaderSize + 2 * count || offset + NodeHeader > page.Length)
            {
                throw file.Damage($"node {i} of page {pageNumber} of its {name} tree lies outside its page");
            }

            var node = page.AsSpan(offset);
            var low = BinaryPrimitives.ReadUInt16LittleEndian(node);
            var high = BinaryPrimitives.ReadUInt16LittleEndian(node[2..]);
            var nodeFlags = BinaryPrimitives.ReadUInt16LittleEndian(node[4..]);
            var keySize = BinaryPrimitives.ReadUInt16LittleEndian(node[6..]);
            if (NodeHeader + keySize > node.Length)
            {
                throw file.Damage($"node {i} of page {pageNumber} of its {name} tree has a key running past its page");
            }

            if (Stopped)
            {
                return;
            }

            if (level < depth)
            {
                var child = low | ((ulong)high << 16) | ((ulong)nodeFlags << 32);
                Visit(child, level + 1, depth, name, visit, cancellationToken);
                continue;
            }

            var key = node.Slice(NodeHeader, keySize);
            var dataOffset = NodeHeader + (_layout.EvenKeys ? (keySize + 1) & ~1 : keySize);
            var size = low | ((int)high << 16);
            Pair(key, nodeFlags, size, node[Math.Min(dataOffset, node.Length)..], pageNumber, name, visit);
        }
    }

    private void Pair(ReadOnlySpan<byte> key, ushort flags, int size, ReadOnlySpan<byte> data, ulong pageNumber, string name, Action<ReadOnlySpan<byte>, ReadOnlySpan<byte>> visit)
    {
        if (_previousLength >= 0 && Compare(key, _previous.AsSpan(0, _previousLength)) <= 0)
        {
            throw file.Damage($"a key on page {pageNumber} of its {name} tree is out of order");
        }

        if (_previous.Length < key.Length)
        {
            _previous = new byte[Math.Max(key.Length, 64)];
        }

        key.CopyTo(_previous);
        _previousLength = key.Length;
        _pairs++;
        if (flags == SubData && _named is not null)
        {
            if (size != TreeRecordSize || data.Length < TreeRecordSize)
            {
                throw file.Damage($"the named tree record on page {pageNumber} of its {name} tree holds {size} bytes, not LMDB's {TreeRecordSize}");
            }

            _named.Add((System.Text.Encoding.ASCII.GetString(key.TrimEnd((byte)0)), LmdbDataFile.ReadTree(data)));
            return;
        }

        if ((flags & ~BigData) != 0 || size < 0)
        {
            throw file.Damage($"a pair on page {pageNumber} of its {name} tree has node flags 0x{flags:x} that DataStore never writes");
        }

        if ((flags & BigData) == 0)
        {
            if (size > data.Length)
            {
                throw file.Damage($"a value on page {pageNumber} of its {name} tree runs past its page");
            }

            visit(key, data[..size]);
            return;
        }

        if (data.Length < _layout.BigDataSize)
        {
            throw file.Damage($"an overflow reference on page {pageNumber} of its {name} tree runs past its page");
        }

        var first = BinaryPrimitives.ReadUInt64LittleEndian(data);
        var pages = (int)(((long)_layout.HeaderSize - 1 + size) / file.Meta.PageSize + 1);
        var overflow = file.ReadPages(first, pages, $"the overflow pages of a value on page {pageNumber} of its {name} tree");
        var overflowFlags = BinaryPrimitives.ReadUInt16LittleEndian(overflow.AsSpan(_layout.FlagsOffset));
        if ((overflowFlags & OverflowPage) == 0)
        {
            throw file.Damage($"page {first}, which a value on page {pageNumber} of its {name} tree continues on, is not an overflow page");
        }

        visit(key, overflow.AsSpan(_layout.HeaderSize, size));
    }

    /// <summary>Key order: bytes (memcmp) in the main tree, native unsigned integers in the free-page tree.</summary>
    private int Compare(ReadOnlySpan<byte> key, ReadOnlySpan<byte> previous) => (_integerKeys, key.Length, previous.Length) switch
    {
        (true, 8, 8) => MemoryMarshal.Read<ulong>(key).CompareTo(MemoryMarshal.Read<ulong>(previous)),
        (true, 4, 4) => MemoryMarshal.Read<uint>(key).CompareTo(MemoryMarshal.Read<uint>(previous)),
        _ => key.SequenceCompareTo(previous),
    };
}
