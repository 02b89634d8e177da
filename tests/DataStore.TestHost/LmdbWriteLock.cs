using System.Runtime.InteropServices;

namespace DataStore.TestHost;

/// <summary>Holds the LMDB backend's cross-process writer lock (an exclusive flock on its side file), as a busy writer process would.</summary>
internal static partial class LmdbWriteLock
{
    private const int LockExclusive = 2;

    public static int Hold(string storePath, int milliseconds)
    {
        using var file = new FileStream(Path.Combine(storePath, "lmdb-writer.lock"), FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.ReadWrite);
        if (Flock((int)file.SafeFileHandle.DangerousGetHandle(), LockExclusive) != 0)
        {
            Console.WriteLine($"FAILED errno {Marshal.GetLastPInvokeError()}");
            return 1;
        }

        Console.WriteLine("LOCKED");
        Thread.Sleep(milliseconds);
        Console.WriteLine("RELEASED");
        return 0;
    }

    [DllImport("libc", EntryPoint = "flock", SetLastError = true)]
    private static extern int Flock(int fd, int operation);
}
