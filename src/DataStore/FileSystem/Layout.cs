using System.Text;

namespace DataStore.FileSystem;

/// <summary>
/// This process's cached view of which directories are split, dropped whenever the shared layout generation
/// changes (another process or thread split a directory).
/// </summary>
internal sealed class Layout(string dataDirectory, SharedState state, DirectoryHandles handles)
{
    private readonly byte[] _rootPath = Encoding.UTF8.GetBytes(dataDirectory);
    private Tuple<long, LayoutNode>? _tree;

    /// <summary>The root directory node under the current layout generation.</summary>
    public LayoutNode Root
    {
        get
        {
            var tree = Volatile.Read(ref _tree);
            var generation = state.LayoutGeneration;
            if (tree is null || tree.Item1 != generation)
            {
                tree = Tuple.Create(generation, new LayoutNode([], _rootPath, handles));
                Volatile.Write(ref _tree, tree);
            }

            return tree.Item2;
        }
    }

    /// <summary>The directory that holds <paramref name="key"/>'s file, and how many key bytes its prefix takes.</summary>
    public LayoutNode Resolve(ReadOnlySpan<byte> key, out int depth)
    {
        var node = Root;
        depth = 0;
        while (depth < key.Length && node.IsSplit)
        {
            node = node.Child(key[depth]);
            depth++;
        }

        return node;
    }

    /// <summary>The node of <paramref name="prefix"/> reached by walking split directories (used by recovery).</summary>
    public LayoutNode NodeOf(ReadOnlySpan<byte> prefix)
    {
        var node = Root;
        foreach (var b in prefix)
        {
            node = node.Child(b);
        }

        return node;
    }
}
