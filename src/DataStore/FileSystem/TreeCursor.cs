namespace DataStore.FileSystem;

/// <summary>
/// A whole-store read that walks the key tree lazily, one directory at a time, in key order, while holding the
/// store's shared lock (so no writer in any process changes the tree until it is disposed). Memory is one
/// directory's listing per level of the tree plus the current pair, however many keys the store holds.
/// </summary>
/// <remarks>
/// The thread that opened it must not write to the store while it is open: the write waits for this cursor's
/// shared lock and times out. Disposing it (from any thread) lets the lock go.
/// </remarks>
internal sealed class TreeCursor : IKeyValueCursor
{
    private readonly Stack<Frame> _frames = new();
    private readonly bool _keysOnly;
    private readonly Func<Exception, Exception> _translate;
    private Action? _release;
    private byte[]? _key;
    private byte[] _value = [];

    /// <summary>Starts at <paramref name="root"/>; <paramref name="release"/> lets the shared lock go on dispose.</summary>
    public TreeCursor(LayoutNode root, bool keysOnly, Action release, Func<Exception, Exception> translate)
    {
        _frames.Push(new Frame(root));
        _keysOnly = keysOnly;
        _release = release;
        _translate = translate;
    }

    public ReadOnlySpan<byte> Key => Current;

    public ReadOnlySpan<byte> Value
    {
        get
        {
            _ = Current;
            return _value;
        }
    }

    private byte[] Current
    {
        get
        {
            ObjectDisposedException.ThrowIf(_release is null, this);
            return _key ?? throw new InvalidOperationException("Call MoveNext before reading the cursor, and stop when it returns false.");
        }
    }

    public bool MoveNext()
    {
        ObjectDisposedException.ThrowIf(_release is null, this);
        _key = null;
        _value = [];
        try
        {
            return Advance();
        }
        catch (Exception e) when (FileSystemErrors.IsFileSystemError(e))
        {
            throw _translate(e);
        }
    }

    public void Dispose()
    {
        var release = Interlocked.Exchange(ref _release, null);
        _frames.Clear();
        _key = null;
        _value = [];
        release?.Invoke();
    }

    private bool Advance()
    {
        while (_frames.TryPeek(out var frame))
        {
            if (frame.Node.IsSplit ? NextInSplit(frame) : NextInLeaf(frame))
            {
                return true;
            }
        }

        return false;
    }

    // Yields the split directory's own key first, then pushes its children in byte order; pops it when done.
    private bool NextInSplit(Frame frame)
    {
        var node = frame.Node;
        if (frame.Children is null)
        {
            frame.Children = [];
            foreach (var directory in TreeWalker.Entries(node.Path, directories: true))
            {
                if (KeyNames.TryParseChild(directory, out var b))
                {
                    frame.Children.Add(b);
                }
            }

            frame.Children.Sort();
            if (node.Prefix.Length > 0 && TreeWalker.Read(node, "k", _keysOnly, out var own) == ReadStatus.Found &&
                own.Key.AsSpan().SequenceEqual(node.Prefix))
            {
                (_key, _value) = own;
                return true;
            }
        }

        if (frame.Next < frame.Children.Count)
        {
            _frames.Push(new Frame(node.Child(frame.Children[frame.Next++])));
        }
        else
        {
            _frames.Pop();
        }

        return false;
    }

    // Lists the leaf's keys (reading the key of each hashed name), sorts them, and yields one pair per call.
    private bool NextInLeaf(Frame frame)
    {
        var node = frame.Node;
        if (frame.Files is null)
        {
            frame.Files = [];
            var rest = new List<byte>();
            foreach (var name in TreeWalker.Entries(node.Path, directories: false))
            {
                switch (KeyNames.Classify(name, rest))
                {
                    case NameKind.Plain:
                        frame.Files.Add(([.. node.Prefix, .. rest], name));
                        break;
                    case NameKind.Hashed when TreeWalker.Read(node, name, keysOnly: true, out var pair) == ReadStatus.Found:
                        frame.Files.Add((pair.Key, name));
                        break;
                }
            }

            frame.Files.Sort((x, y) => x.Key.AsSpan().SequenceCompareTo(y.Key));
        }

        while (frame.Next < frame.Files.Count)
        {
            var (key, name) = frame.Files[frame.Next++];
            if (_keysOnly)
            {
                _key = key;
                return true;
            }

            if (TreeWalker.Read(node, name, keysOnly: false, out var pair) == ReadStatus.Found && pair.Key.AsSpan().SequenceEqual(key))
            {
                (_key, _value) = pair;
                return true;
            }
        }

        _frames.Pop();
        return false;
    }

    /// <summary>One directory on the way down: its sorted listing, read when first visited, and how far the walk got.</summary>
    private sealed class Frame(LayoutNode node)
    {
        public LayoutNode Node { get; } = node;

        public List<byte>? Children { get; set; }

        public List<(byte[] Key, string Name)>? Files { get; set; }

        public int Next { get; set; }
    }
}
