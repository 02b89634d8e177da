using System.Runtime.InteropServices;
using System.Text;
using DataStore.Platform;

namespace DataStore.FileSystem;

/// <summary>
/// The open directories of a leaf whose split is being prepared (<see cref="SplitPreparation"/>): the leaf and the child
/// directories made inside it, opened by this preparation alone (never through <see cref="DirectoryHandles"/>: a stopped
/// preparation's children are removed, and no cached handle may outlive them), and the names of a key in both.
/// </summary>
internal sealed class PreparedChildren : IDisposable
{
    private readonly string _leaf;
    private readonly int[] _children = new int[256];
    private readonly byte[] _name = new byte[KeyNames.MaxNameLength + 1];
    private readonly byte[] _childName = new byte[KeyNames.MaxNameLength + 1];
    private readonly List<byte> _rest = [];

    public PreparedChildren(string leaf)
    {
        _leaf = leaf;
        Array.Fill(_children, -1);
        Leaf = Open(leaf);
    }

    /// <summary>The leaf directory's descriptor.</summary>
    public int Leaf { get; }

    /// <summary>True once a hashed name was met: its child name depends on the chain there, so the leaf splits the old way.</summary>
    public bool SawHashed { get; private set; }

    /// <summary>True when the child directory for <paramref name="b"/> is not made yet.</summary>
    public bool IsNew(byte b) => _children[b] < 0;

    /// <summary>The child byte of a leaf's plain key name, with the key's name in that child (NUL-terminated, valid until the next call); false for other names.</summary>
    public bool ChildNameOf(string name, out byte b, out ReadOnlySpan<byte> childZ)
    {
        b = 0;
        childZ = default;
        switch (KeyNames.Classify(name, _rest))
        {
            case NameKind.Plain when _rest.Count > 0:
                b = _rest[0];
                var length = KeyNames.Write(CollectionsMarshal.AsSpan(_rest)[1..], 0, _childName);
                _childName[length] = 0;
                childZ = _childName.AsSpan(0, length + 1);
                return true;
            case NameKind.Hashed:
                SawHashed = true;
                return false;
            default:
                return false;
        }
    }

    /// <summary><paramref name="name"/> as NUL-terminated bytes (valid until the next call).</summary>
    public ReadOnlySpan<byte> NameZ(string name)
    {
        var length = Encoding.ASCII.GetBytes(name, _name);
        _name[length] = 0;
        return _name.AsSpan(0, length + 1);
    }

    /// <summary>The child directory for <paramref name="b"/>, made and opened the first time.</summary>
    public int Child(byte b)
    {
        if (_children[b] < 0)
        {
            var path = Path.Combine(_leaf, KeyNames.ChildName(b));
            Directory.CreateDirectory(path);
            _children[b] = Open(path);
        }

        return _children[b];
    }

    public void Dispose()
    {
        foreach (var fd in _children)
        {
            if (fd >= 0)
            {
                PosixFile.CloseFile(fd);
            }
        }

        PosixFile.CloseFile(Leaf);
    }

    private static int Open(string path)
    {
        var fd = PosixFile.OpenDirectory(Encoding.UTF8.GetBytes(path + "\0"));
        return fd >= 0 ? fd : throw new DirectoryNotFoundException($"'{path}' is missing");
    }
}
