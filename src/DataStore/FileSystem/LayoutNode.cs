using System.Text;
using DataStore.Platform;

namespace DataStore.FileSystem;

/// <summary>
/// One directory of the key tree, standing for a key prefix: a leaf holds the files of every key with that
/// prefix; a split directory (marked by <see cref="KeyNames.SplitMarker"/>) holds only the key equal to the prefix
/// and one child per next byte. Whether it is split is read from disk once and cached until the layout generation changes.
/// </summary>
internal sealed class LayoutNode
{
    private const int Unknown = 0;
    private const int Leaf = 1;
    private const int Split = 2;

    private readonly LayoutNode?[] _children = new LayoutNode?[256];
    private readonly DirectoryHandles _handles;
    private readonly LayoutNode? _parent;
    private int _state;
    private byte[]? _recordedChildren;
    private bool _recordedChildrenRead;
    private string? _path;
    private Microsoft.Win32.SafeHandles.SafeFileHandle? _directory;

    public LayoutNode(byte[] prefix, byte[] pathBytes, DirectoryHandles handles, LayoutNode? parent = null)
    {
        Prefix = prefix;
        PathBytes = pathBytes;
        _handles = handles;
        _parent = parent;
    }

    /// <summary>An open handle on this directory for reads relative to it, or null (see <see cref="DirectoryHandles"/>).</summary>
    public Microsoft.Win32.SafeHandles.SafeFileHandle? Directory => _directory ??= _handles.Find(this);

    /// <summary>The key prefix every key under this directory starts with.</summary>
    public byte[] Prefix { get; }

    /// <summary>The directory's path in UTF-8, without a trailing separator.</summary>
    public byte[] PathBytes { get; }

    /// <summary>The directory's path.</summary>
    public string Path => _path ??= Encoding.UTF8.GetString(PathBytes);

    /// <summary>True when the directory is split (read from disk the first time).</summary>
    public bool IsSplit
    {
        get
        {
            var state = Volatile.Read(ref _state);
            if (state == Unknown)
            {
                Span<byte> marker = stackalloc byte[PathBytes.Length + KeyNames.SplitMarker.Length + 2];
                var length = FilePath(Encoding.ASCII.GetBytes(KeyNames.SplitMarker), marker);
                state = MarkerExists(marker[..length]) ? Split : Leaf;
                Volatile.Write(ref _state, state);
            }

            return state == Split;
        }
    }

    /// <summary>The children this split directory's marker records (<see cref="SplitMarker"/>), or null; read from disk the first time.</summary>
    public byte[]? RecordedChildren
    {
        get
        {
            if (!Volatile.Read(ref _recordedChildrenRead))
            {
                _recordedChildren = SplitMarker.RecordedChildren(Path);
                Volatile.Write(ref _recordedChildrenRead, true);
            }

            return _recordedChildren;
        }
    }

    /// <summary>Throws when this directory is gone though its parent's marker records it (a deleted subtree, ADR 0013); call only when a read missed.</summary>
    /// <exception cref="InvalidDataException">The directory was recorded and is missing.</exception>
    public void ThrowIfLost()
    {
        if (_parent is not null && SplitMarker.Records(_parent.RecordedChildren, Prefix[^1]) && !System.IO.Directory.Exists(Path))
        {
            throw SplitMarker.Lost(Path);
        }
    }

    /// <summary>Throws when a child directory that this split directory's marker records is missing from <paramref name="present"/> and <paramref name="checkedChild"/> says it matters.</summary>
    /// <exception cref="InvalidDataException">A recorded child is missing.</exception>
    public void ThrowIfChildLost(bool[] present, Func<int, bool> checkedChild)
    {
        var lost = SplitMarker.FirstLost(RecordedChildren, present, checkedChild);
        if (lost >= 0)
        {
            throw SplitMarker.Lost(Child((byte)lost).Path);
        }
    }

    /// <summary>Records that the directory is now split.</summary>
    public void MarkSplit() => Volatile.Write(ref _state, Split);

    /// <summary>The child directory for next byte <paramref name="b"/> (which may not exist on disk).</summary>
    public LayoutNode Child(byte b)
    {
        var child = Volatile.Read(ref _children[b]);
        if (child is not null)
        {
            return child;
        }

        var path = new byte[PathBytes.Length + 4];
        PathBytes.CopyTo(path, 0);
        path[PathBytes.Length] = (byte)System.IO.Path.DirectorySeparatorChar;
        Encoding.ASCII.GetBytes(KeyNames.ChildName(b), path.AsSpan(PathBytes.Length + 1));
        var created = new LayoutNode([.. Prefix, b], path, _handles, this);
        return Interlocked.CompareExchange(ref _children[b], created, null) ?? created;
    }

    /// <summary>Writes this directory's path, a separator, <paramref name="name"/> and a NUL into <paramref name="destination"/>; returns the length with the NUL.</summary>
    public int FilePath(ReadOnlySpan<byte> name, Span<byte> destination)
    {
        PathBytes.CopyTo(destination);
        destination[PathBytes.Length] = (byte)System.IO.Path.DirectorySeparatorChar;
        name.CopyTo(destination[(PathBytes.Length + 1)..]);
        var length = PathBytes.Length + 1 + name.Length;
        destination[length] = 0;
        return length + 1;
    }

    /// <summary>The path of <paramref name="name"/> in this directory as a string.</summary>
    public string FilePathString(ReadOnlySpan<byte> name) => string.Concat(Path, System.IO.Path.DirectorySeparatorChar.ToString(), Encoding.ASCII.GetString(name));

    private static bool MarkerExists(ReadOnlySpan<byte> pathZ) =>
        OperatingSystem.IsWindows() ? File.Exists(Encoding.UTF8.GetString(pathZ[..^1])) : PosixFile.Exists(pathZ);
}
