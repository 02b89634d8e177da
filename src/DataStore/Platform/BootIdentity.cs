using System.Security.Cryptography;
using System.Text;

namespace DataStore.Platform;

/// <summary>
/// Which boot of the machine this process runs in, so a store can tell whether the operating system restarted (a
/// power loss or an OS crash may have dropped unsynced writes) since it last recorded something.
/// </summary>
/// <remarks>
/// Linux: a hash of <c>/proc/sys/kernel/random/boot_id</c>. Elsewhere, and when that file cannot be read: unknown (0),
/// which callers treat as "may have restarted". The environment variable <c>DATASTORE_BOOT_ID</c> replaces the identity;
/// tests that replay a power loss in the same boot set it.
/// </remarks>
internal static class BootIdentity
{
    private const string LinuxBootId = "/proc/sys/kernel/random/boot_id";

    /// <summary>A non-zero number naming this boot, or 0 when it cannot be known.</summary>
    public static ulong Current { get; } = Read();

    private static ulong Read()
    {
        var text = Environment.GetEnvironmentVariable("DATASTORE_BOOT_ID");
        if (string.IsNullOrEmpty(text) && OperatingSystem.IsLinux())
        {
            try
            {
                text = File.ReadAllText(LinuxBootId).Trim();
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                text = null;
            }
        }

        if (string.IsNullOrEmpty(text))
        {
            return 0;
        }

        var hash = BitConverter.ToUInt64(SHA256.HashData(Encoding.UTF8.GetBytes(text)));
        return hash == 0 ? 1 : hash;
    }
}
