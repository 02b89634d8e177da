using System.Text;

namespace DataStore.FileSystem;

/// <summary>
/// A streaming scan's view of what changed since it opened: for each key a later write changed, the key's state
/// when the scan opened (its first pre-image after that moment), read from <c>scans/before/</c> (see
/// <see cref="PreImages"/>). Holds only changed keys not yet passed. Call holding the store's shared lock.
/// </summary>
internal sealed class PreImageOverlay(string root, long openedAt, bool keysOnly)
{
    private readonly string _records = Path.Combine(root, PreImages.Folder, PreImages.Records);
    private readonly HashSet<string> _read = [];
    private readonly SortedDictionary<byte[], byte[]?> _before = new(KeyOrder.Instance);

    /// <summary>
    /// Turns <paramref name="disk"/>, the pairs now on disk in [<paramref name="from"/>, <paramref name="to"/>) (an empty
    /// <paramref name="to"/> is no bound), into the pairs there when the scan opened.
    /// </summary>
    public ScanBuffer Apply(ScanBuffer disk, byte[] from, byte[] to)
    {
        Load(from);
        if (_before.Count == 0)
        {
            return disk;
        }

        var changed = new List<KeyValuePair<byte[], byte[]?>>();
        foreach (var entry in _before)
        {
            if (to.Length > 0 && entry.Key.AsSpan().SequenceCompareTo(to) >= 0)
            {
                break;
            }

            changed.Add(entry);
        }

        if (changed.Count == 0)
        {
            return disk;
        }

        var merged = new ScanBuffer();
        var d = 0;
        foreach (var (key, value) in changed)
        {
            for (; d < disk.Count && disk.Key(d).SequenceCompareTo(key) < 0; d++)
            {
                merged.Add(disk.Key(d), disk.Value(d));
            }

            if (d < disk.Count && disk.Key(d).SequenceEqual(key))
            {
                d++;
            }

            if (value is not null)
            {
                merged.Add(key, value);
            }

            _before.Remove(key);
        }

        for (; d < disk.Count; d++)
        {
            merged.Add(disk.Key(d), disk.Value(d));
        }

        return merged;
    }

    /// <summary>Reads the records written since the last call, keeping the first pre-image of each key at or after <paramref name="from"/>.</summary>
    private void Load(byte[] from)
    {
        if (!Directory.Exists(_records))
        {
            return;
        }

        var names = new List<string>();
        foreach (var path in Directory.EnumerateFiles(_records))
        {
            var name = Path.GetFileName(path);
            if (!_read.Contains(name) && name.Length > 20 && long.TryParse(name.AsSpan(0, 19), out var commit) && commit > openedAt)
            {
                names.Add(name);
            }
        }

        // Records sort by write, then by order within it: the first one of a key holds its state when the scan opened.
        names.Sort(StringComparer.Ordinal);
        foreach (var name in names)
        {
            _read.Add(name);
            var path = Path.Combine(_records, name);
            if (KeyFile.Read(Encoding.UTF8.GetBytes(path + "\0"), withValue: !keysOnly, out var key, out var value) != ReadStatus.Found)
            {
                throw new InvalidDataException($"the scan's record of an older value '{path}' is missing or damaged");
            }

            if (key.SequenceCompareTo(from) >= 0 && !_before.ContainsKey(key.ToArray()))
            {
                _before.Add(key.ToArray(), name.EndsWith(".a", StringComparison.Ordinal) ? null : value.ToArray());
            }
        }
    }
}
