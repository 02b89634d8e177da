namespace DataStore.TestHost;

/// <summary>
/// <c>hold-on-cue</c>: holds the store as a busy process would (the engine's write lock where the engine shares the
/// store between processes; where DataStore brokers it, the open store itself, this process being its owner), prints
/// <c>LOCKED</c>, and lets the lock go at a line on standard input, printing <c>RELEASED</c>; takes it again at the next
/// line, and ends at the end of input. A test can stop it (SIGSTOP) while it holds, then continue it and have it
/// release at once, with no fixed wait.
/// </summary>
internal static class HoldOnCue
{
    public static int Run(IKeyValueStore store)
    {
        do
        {
            var held = store.Backend switch
            {
                StoreBackend.Sqlite => SqliteWriteLock.Hold(store.Path, WaitForCue),
                StoreBackend.Lmdb => LmdbWriteLock.Hold(store.Path, WaitForCue),
                StoreBackend.FileSystem => FileSystemWriteLock.Hold(store.Path, WaitForCue),
                _ => HoldAsOwner(),
            };
            if (held != 0)
            {
                return held;
            }
        }
        while (Console.ReadLine() is not null);

        return 0;
    }

    // The owner serves other processes' calls: continued, it answers them; stopped, they time out.
    private static int HoldAsOwner()
    {
        Console.WriteLine("LOCKED");
        WaitForCue();
        Console.WriteLine("RELEASED");
        return 0;
    }

    private static void WaitForCue() => Console.ReadLine();
}
