using System.Text;

namespace DataStore.FileSystem;

/// <summary>
/// Checks a FileSystem store's files in steps (one directory's listing, then 64 of its key files), each under the
/// shared lock with no change in progress, so writers get in between (a key written after its directory was listed,
/// or moved by a later split, is not checked; one deleted meanwhile is skipped): every key file parses
/// and passes its checksum, holds a key that starts with its directory's prefix and is named after that key; split
/// directories hold only their marker, their own key and child directories, and every child their marker records; no leaf holds more than the limit; no
/// journal or stale temporary file is left over.
/// </summary>
internal static class FileSystemIntegrity
{
    private const int MaxProblems = 100;

    /// <summary>Key files checked per hold of the shared lock (a leaf holds up to 4,096); 256 held a writer up to 0.2 s on a busy machine.</summary>
    private const int FilesPerStep = 64;

    /// <summary>
    /// Checks the store, running each step (the leftovers, then one directory) through <paramref name="underLock"/>,
    /// which holds the shared lock for that step only, so writers get in between directories.
    /// </summary>
    public static IReadOnlyList<string> Check(string store, int maxEntries, Action<Action> underLock, CancellationToken cancellationToken)
    {
        var problems = new List<string>();
        underLock(() => CheckLeftovers(store, problems));
        var pending = new Stack<(string Path, byte[] Prefix)>();
        pending.Push((System.IO.Path.Combine(store, "data"), []));
        while (pending.TryPop(out var node) && problems.Count < MaxProblems)
        {
            cancellationToken.ThrowIfCancellationRequested();
            var keyFiles = new List<(string Path, string Name)>();
            underLock(() => CheckDirectory(node, maxEntries, PreparedSplitRecord.Exists(store), pending, keyFiles, problems));
            for (var first = 0; first < keyFiles.Count; first += FilesPerStep)
            {
                cancellationToken.ThrowIfCancellationRequested();
                var slice = keyFiles.GetRange(first, Math.Min(FilesPerStep, keyFiles.Count - first));
                underLock(() => slice.ForEach(file => CheckKeyFile(file.Path, file.Name, node.Prefix, problems)));
            }
        }

        return problems;
    }

    private static void CheckLeftovers(string store, List<string> problems)
    {
        // A split's record (split.pending) is normal until the sync after the split; a split a crash interrupted shows
        // as directories that do not belong in the tree.
        if (File.Exists(System.IO.Path.Combine(store, BatchJournal.FileName)))
        {
            problems.Add($"'{BatchJournal.FileName}' is left over from an unfinished change that no writer completed.");
        }

        // A Put writes its temporary file before it takes the lock: only files of processes that are gone are stale.
        var temporary = System.IO.Path.Combine(store, "tmp");
        var stale = Directory.Exists(temporary) ? TemporaryFiles.Stale(temporary).Count() : 0;
        if (stale > 0)
        {
            problems.Add($"{stale} temporary file(s) are left over in tmp/ from a writer that stopped (Compact removes them).");
        }
    }

    /// <remarks>While a split is prepared (<paramref name="preparing"/>), a leaf's child directories and a split directory's old names are normal.</remarks>
    private static void CheckDirectory((string Path, byte[] Prefix) node, int maxEntries, bool preparing, Stack<(string Path, byte[] Prefix)> pending,
        List<(string Path, string Name)> keyFileList, List<string> problems)
    {
        var rest = new List<byte>();
        var split = File.Exists(System.IO.Path.Combine(node.Path, KeyNames.SplitMarker));
        var keyFiles = 0;
        var present = new bool[256];
        foreach (var entry in new DirectoryInfo(node.Path).EnumerateFileSystemInfos())
        {
            if (entry is DirectoryInfo)
            {
                if (split && KeyNames.TryParseChild(entry.Name, out var b))
                {
                    present[b] = true;
                    pending.Push((entry.FullName, [.. node.Prefix, b]));
                }
                else if (!(preparing && !split && KeyNames.TryParseChild(entry.Name, out _)))
                {
                    problems.Add($"Directory '{entry.FullName}' does not belong in the key tree.");
                }
            }
            else if (entry.Name[0] == 'k' && (!split || entry.Name == "k"))
            {
                keyFiles++;
                keyFileList.Add((entry.FullName, entry.Name));
            }
            else if (!(split && (entry.Name == KeyNames.SplitMarker || (preparing && PreparedSplitRecord.IsOldName(entry.Name, rest)))) &&
                !(node.Prefix.Length == 0 && entry.Name == TreeRoot.MarkerName))
            {
                problems.Add($"File '{entry.FullName}' does not belong in the key tree.");
            }
        }

        var lost = split ? SplitMarker.FirstLost(SplitMarker.RecordedChildren(node.Path), present, _ => true) : -1;
        if (lost >= 0)
        {
            problems.Add(SplitMarker.Lost(System.IO.Path.Combine(node.Path, KeyNames.ChildName((byte)lost))).Message + ".");
        }

        if (!split && keyFiles > maxEntries)
        {
            problems.Add($"Directory '{node.Path}' holds {keyFiles} keys, more than the limit of {maxEntries}.");
        }
    }

    private static void CheckKeyFile(string path, string name, byte[] prefix, List<string> problems)
    {
        var status = KeyFile.Read(Encoding.UTF8.GetBytes(path + "\0"), withValue: true, out var key, out _);
        if (status == ReadStatus.Missing)
        {
            return; // deleted by a writer since its directory was listed
        }

        if (status != ReadStatus.Found)
        {
            problems.Add($"Key file '{path}' is {(status == ReadStatus.Damaged ? "damaged (short, wrong header or failed checksum)" : "unreadable")}; its key reads as absent.");
            return;
        }

        if (!key.StartsWith(prefix))
        {
            problems.Add($"Key file '{path}' holds a key that does not start with its directory's prefix.");
            return;
        }

        Span<byte> expected = stackalloc byte[KeyNames.MaxNameLength];
        var stem = Encoding.ASCII.GetString(expected[..KeyNames.Write(key[prefix.Length..], 0, expected)]);
        var hashed = KeyNames.IsHashed(key[prefix.Length..]);
        if (name != stem && !(hashed && name.StartsWith(stem + "-", StringComparison.Ordinal) && int.TryParse(name.AsSpan(stem.Length + 1), out _)))
        {
            problems.Add($"Key file '{path}' holds a key whose name would be '{stem}'.");
        }
    }
}
