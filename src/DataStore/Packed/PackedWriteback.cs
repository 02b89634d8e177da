using System.Runtime.InteropServices;

namespace DataStore.Packed;

/// <summary>
/// Starts the kernel writing a file's bytes to disk while the build goes on (Linux <c>sync_file_range</c> with
/// <c>SYNC_FILE_RANGE_WRITE</c>, as RocksDB's <c>bytes_per_sync</c> does), so the fsync before the rename waits only for
/// the last few megabytes instead of the whole file. A hint only: the fsync stays the guarantee; elsewhere it does nothing.
/// </summary>
internal static partial class PackedWriteback
{
    /// <summary>Bytes written between two writeback requests.</summary>
    public const long Interval = 8 << 20;

    private const uint SyncFileRangeWrite = 2;

    /// <summary>Asks the kernel to start writing <paramref name="length"/> bytes from <paramref name="offset"/> of <paramref name="file"/>.</summary>
    public static void Start(FileStream file, long offset, long length)
    {
        if (!OperatingSystem.IsLinux())
        {
            return;
        }

        file.Flush(flushToDisk: false);
        var added = false;
        try
        {
            file.SafeFileHandle.DangerousAddRef(ref added);
            _ = SyncFileRange((int)file.SafeFileHandle.DangerousGetHandle(), offset, length, SyncFileRangeWrite);
        }
        finally
        {
            if (added)
            {
                file.SafeFileHandle.DangerousRelease();
            }
        }
    }

    [LibraryImport("libc", EntryPoint = "sync_file_range")]
    private static partial int SyncFileRange(int fd, long offset, long length, uint flags);
}
