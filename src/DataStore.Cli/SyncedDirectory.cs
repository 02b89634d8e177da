using System.Runtime.InteropServices;

namespace DataStore.Cli;

/// <summary>
/// Makes a directory's entries durable: on Linux and macOS a file renamed into a directory survives a power loss only once
/// the directory is fsynced (.NET cannot open a directory as a file there). NTFS journals its directories: nothing to do on Windows.
/// </summary>
internal static partial class SyncedDirectory
{
    /// <summary>Fsyncs <paramref name="directory"/>.</summary>
    /// <exception cref="IOException">The directory cannot be opened or synced; the message names it and the error number.</exception>
    public static void Sync(string directory)
    {
        if (OperatingSystem.IsWindows())
        {
            return;
        }

        var descriptor = OpenReadOnly(directory, 0);
        var synced = descriptor >= 0 && FileSync(descriptor) == 0;
        var error = Marshal.GetLastPInvokeError();
        if (descriptor >= 0)
        {
            _ = CloseDescriptor(descriptor);
        }

        if (!synced)
        {
            throw new IOException($"the directory '{directory}' could not be synced (errno {error}).", error);
        }
    }

    [LibraryImport("libc", EntryPoint = "open", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int OpenReadOnly(string path, int flags);

    [LibraryImport("libc", EntryPoint = "fsync", SetLastError = true)]
    private static partial int FileSync(int descriptor);

    [LibraryImport("libc", EntryPoint = "close")]
    private static partial int CloseDescriptor(int descriptor);
}
