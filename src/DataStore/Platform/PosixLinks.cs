using System.Runtime.InteropServices;

namespace DataStore.Platform;

/// <summary>
/// Hard links and inode numbers relative to open directories (Linux): what a FileSystem split prepared outside the
/// write lock needs (<c>linkat</c> to give a key file its name in a child directory, <c>fstatat</c> to tell whether
/// both names still are one file).
/// </summary>
internal static unsafe partial class PosixLinks
{
    private const int NoSuchFile = 2; // ENOENT
    private const int Interrupted = 4; // EINTR
    private const int AlreadyExists = 17; // EEXIST
    private const int NoFollow = 0x100; // AT_SYMLINK_NOFOLLOW
    private const int StatSize = 256; // larger than struct stat on every 64-bit Linux
    private const int InodeOffset = 8; // st_ino follows the 8-byte st_dev on x86-64 and arm64

    /// <summary>True where these calls exist: Linux (64-bit), with the direct write path on.</summary>
    public static readonly bool Available = Probe();

    /// <summary>What <see cref="LinkAt"/> did.</summary>
    public enum LinkResult
    {
        Linked,
        TargetExists,
        SourceMissing,
    }

    /// <summary>Gives the file <paramref name="fromZ"/> in <paramref name="fromDirectory"/> the name <paramref name="toZ"/> in <paramref name="toDirectory"/>.</summary>
    public static LinkResult LinkAt(int fromDirectory, ReadOnlySpan<byte> fromZ, int toDirectory, ReadOnlySpan<byte> toZ)
    {
        fixed (byte* from = fromZ)
        fixed (byte* to = toZ)
        {
            while (true)
            {
                if (Linkat(fromDirectory, from, toDirectory, to, 0) == 0)
                {
                    return LinkResult.Linked;
                }

                var errno = Marshal.GetLastPInvokeError();
                switch (errno)
                {
                    case Interrupted:
                        continue;
                    case AlreadyExists:
                        return LinkResult.TargetExists;
                    case NoSuchFile:
                        return LinkResult.SourceMissing;
                    default:
                        throw new IOException($"linkat '{System.Text.Encoding.UTF8.GetString(toZ[..^1])}' failed (errno {errno})", errno);
                }
            }
        }
    }

    /// <summary>The inode number of <paramref name="nameZ"/> in <paramref name="directory"/>, or 0 when it does not exist.</summary>
    public static ulong InodeAt(int directory, ReadOnlySpan<byte> nameZ)
    {
        var buffer = stackalloc byte[StatSize];
        fixed (byte* name = nameZ)
        {
            if (Fstatat(directory, name, buffer, NoFollow) == 0)
            {
                return *(ulong*)(buffer + InodeOffset);
            }

            var errno = Marshal.GetLastPInvokeError();
            return errno == NoSuchFile ? 0UL : throw new IOException($"fstatat '{System.Text.Encoding.UTF8.GetString(nameZ[..^1])}' failed (errno {errno})", errno);
        }
    }

    private static bool Probe()
    {
        if (!OperatingSystem.IsLinux() || !PosixWrites.Enabled || !Environment.Is64BitProcess)
        {
            return false;
        }

        try
        {
            return InodeAt(PosixWrites.CurrentDirectory, "/\0"u8) != 0;
        }
        catch (EntryPointNotFoundException)
        {
            return false; // a C library older than glibc 2.33 exports fstatat under another name
        }
    }

    [LibraryImport("libc", EntryPoint = "linkat", SetLastError = true)]
    private static partial int Linkat(int fromDirectory, byte* from, int toDirectory, byte* to, int flags);

    [LibraryImport("libc", EntryPoint = "fstatat", SetLastError = true)]
    private static partial int Fstatat(int directory, byte* name, byte* buffer, int flags);
}
