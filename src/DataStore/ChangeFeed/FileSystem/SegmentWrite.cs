using DataStore.Platform;

namespace DataStore.ChangeFeed.FileSystem;

/// <summary>
/// One append to a change-log segment at a known offset: on Linux <c>open</c>, <c>pwrite</c>, <c>fsync</c>, <c>close</c>
/// through <see cref="PosixWrites"/> (a <see cref="FileStream"/> adds an <c>fstat</c>, an <c>fstatfs</c>, a <c>flock</c>
/// pair and an <c>lseek</c>), elsewhere or with <c>DATASTORE_FILESYSTEM_PORTABLE_IO=1</c> through .NET's file API.
/// </summary>
internal static class SegmentWrite
{
    /// <summary>Writes <paramref name="frame"/> at <paramref name="offset"/> of <paramref name="segment"/>, flushed to disk when <paramref name="sync"/>.</summary>
    public static void Append(string segment, long offset, byte[] frame, bool sync)
    {
        if (PosixWrites.Enabled)
        {
            var fd = PosixWrites.OpenWriteAt(PosixWrites.CurrentDirectory, System.Text.Encoding.UTF8.GetBytes(segment + "\0"));
            if (fd < 0)
            {
                throw new FileNotFoundException($"the change-log segment '{segment}' is gone", segment);
            }

            try
            {
                PosixWrites.WriteAt(fd, frame, offset);
                if (sync)
                {
                    PosixWrites.Flush(fd);
                }
            }
            finally
            {
                PosixFile.CloseFile(fd);
            }

            return;
        }

        using var handle = File.OpenHandle(segment, FileMode.Open, FileAccess.Write, FileShare.ReadWrite | FileShare.Delete);
        RandomAccess.Write(handle, frame, offset);
        if (sync)
        {
            RandomAccess.FlushToDisk(handle);
        }
    }
}
