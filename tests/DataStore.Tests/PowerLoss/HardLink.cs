using System.ComponentModel;
using System.Runtime.InteropServices;

namespace DataStore.Tests.PowerLoss;

/// <summary>Makes a second name for a file (<c>link(2)</c>), as a replayed disk must for the hard links the log made.</summary>
public static partial class HardLink
{
    public static void Create(string existing, string path)
    {
        if (Link(existing, path) != 0)
        {
            throw new Win32Exception(Marshal.GetLastPInvokeError(), $"link '{existing}' to '{path}'");
        }
    }

    [LibraryImport("libc", EntryPoint = "link", StringMarshalling = StringMarshalling.Utf8, SetLastError = true)]
    private static partial int Link(string existing, string path);
}
