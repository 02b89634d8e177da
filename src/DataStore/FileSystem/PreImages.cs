namespace DataStore.FileSystem;

/// <summary>
/// The writers' side of streaming scans (ADR 0022): while a scan that reads in chunks is registered in
/// <c>scans/</c>, each write keeps the pre-image of every key it changes in <c>scans/before/</c> (a copy of the old
/// key file, or a record that the key was absent), numbered by the write, so the scan still returns the store as it
/// was when it opened. With no live scan the folder is removed, and a write pays one failed lookup.
/// Call holding the store's exclusive lock.
/// </summary>
internal sealed class PreImages(string root, SharedState state)
{
    /// <summary>The folder, in the store directory, of scan registrations and pre-images.</summary>
    public const string Folder = "scans";

    /// <summary>The sub-folder of pre-image records, named <c>commit-sequence.p</c> (present) or <c>.a</c> (absent).</summary>
    public const string Records = "before";

    private const string OldSuffix = ".old-";
    private static long s_removed;
    private readonly string _scans = Path.Combine(root, Folder);
    private readonly string _before = Path.Combine(root, Folder, Records);
    private long _commit;
    private int _sequence;

    /// <summary>True when the current write keeps pre-images (a scan is open).</summary>
    public bool Active => _commit != 0;

    /// <summary>Starts a write: numbers it when a live scan is registered; otherwise clears what dead or closed scans left.</summary>
    public void BeginWrite()
    {
        _commit = 0;
        if (!Directory.Exists(_scans))
        {
            return;
        }

        if (ScanRegistration.CountLive(_scans) > 0)
        {
            Directory.CreateDirectory(_before);
            _commit = state.NextScanCommit();
            _sequence = 0;
            return;
        }

        // Thousands of pre-images deleted here would hold this write (a writer waited 23.6 s after a backup of 1,000,000
        // keys): move the folder aside, which is one rename, and delete it on the thread pool.
        var old = $"{_scans}{OldSuffix}{Environment.ProcessId}-{Interlocked.Increment(ref s_removed)}";
        Directory.Move(_scans, old);
        _ = Task.Run(() => Remove(old));
    }

    /// <summary>Removes pre-image folders a process that died before deleting them left (Compact calls this).</summary>
    public void RemoveLeftovers()
    {
        foreach (var old in Directory.EnumerateDirectories(root, Folder + OldSuffix + "*"))
        {
            Remove(old);
        }
    }

    private static void Remove(string folder)
    {
        try
        {
            Directory.Delete(folder, recursive: true);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // Left for Compact.
        }
    }

    /// <summary>Keeps the file at <paramref name="path"/> holding <paramref name="key"/> (or that it is absent) before the write changes it.</summary>
    public void Keep(string path, ReadOnlySpan<byte> key)
    {
        if (_commit == 0)
        {
            return;
        }

        var record = Path.Combine(_before, $"{_commit:D19}-{_sequence++:D9}");
        try
        {
            File.Copy(path, record + ".p");
        }
        catch (FileNotFoundException)
        {
            KeyFile.Write(record + ".a", key, [], flush: false);
        }
        catch (DirectoryNotFoundException)
        {
            KeyFile.Write(record + ".a", key, [], flush: false);
        }
    }
}
