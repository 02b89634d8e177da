using System.Collections.Concurrent;
using DataStore.Platform;
using Microsoft.Win32.SafeHandles;

namespace DataStore.FileSystem;

/// <summary>
/// Open handles on leaf directories (Linux and macOS), so a point read opens its file relative to the directory
/// and the kernel walks one path component instead of the whole tree. Directories of the tree are never removed
/// while a store exists, so a handle stays valid; at most <see cref="Limit"/> are kept, the rest use full paths.
/// </summary>
internal sealed class DirectoryHandles : IDisposable
{
    private const int Limit = 4096;
    private readonly ConcurrentDictionary<string, SafeFileHandle> _open = new(StringComparer.Ordinal);
    private volatile bool _disposed;

    /// <summary>The handle of <paramref name="node"/>'s directory, or null when it does not exist, the limit is reached or the platform has none.</summary>
    public SafeFileHandle? Find(LayoutNode node)
    {
        if (OperatingSystem.IsWindows() || _disposed)
        {
            return null;
        }

        if (_open.TryGetValue(node.Path, out var handle))
        {
            return handle;
        }

        if (_open.Count >= Limit)
        {
            return null;
        }

        Span<byte> pathZ = stackalloc byte[node.PathBytes.Length + 1];
        node.PathBytes.CopyTo(pathZ);
        pathZ[^1] = 0;
        var fd = PosixFile.OpenDirectory(pathZ);
        if (fd < 0)
        {
            return null;
        }

        var opened = new SafeFileHandle(fd, ownsHandle: true);
        var kept = _open.GetOrAdd(node.Path, opened);
        if (kept != opened)
        {
            opened.Dispose();
        }

        if (_disposed)
        {
            Dispose();
        }

        return kept;
    }

    public void Dispose()
    {
        _disposed = true;
        foreach (var key in _open.Keys)
        {
            if (_open.TryRemove(key, out var handle))
            {
                handle.Dispose();
            }
        }
    }
}
