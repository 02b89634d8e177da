using System.Buffers.Binary;
using System.Net.Sockets;
using System.Runtime.InteropServices;

namespace DataStore.Sharing;

/// <summary>Who is at the other end of a local socket: <c>SO_PEERCRED</c> on Linux, <c>LOCAL_PEERCRED</c> on macOS.</summary>
/// <remarks>On Windows the socket lives in the user's own temporary directory, whose access list admits only that user; no check is made on the socket itself.</remarks>
internal static partial class PeerCredentials
{
    private const int LinuxSolSocket = 1;
    private const int LinuxPeerCred = 17;
    private const int MacSolLocal = 0;
    private const int MacLocalPeerCred = 1;
    private const int MacLocalPeerPid = 2;

    /// <summary>This process's effective user id (0 on Windows).</summary>
    public static uint EffectiveUserId { get; } = OperatingSystem.IsWindows() ? 0 : GetEffectiveUserId();

    /// <summary>True when the peer of <paramref name="socket"/> runs as this process's user (always true on Windows).</summary>
    public static bool IsSameUser(Socket socket) => PeerUserId(socket) is not { } peer || peer == EffectiveUserId;

    /// <summary>The peer's process id, or null where the OS gives no way to ask (Windows).</summary>
    public static int? PeerProcessId(Socket socket)
    {
        Span<byte> buffer = stackalloc byte[12];
        if (OperatingSystem.IsLinux())
        {
            // struct ucred { pid_t pid; uid_t uid; gid_t gid; }
            return socket.GetRawSocketOption(LinuxSolSocket, LinuxPeerCred, buffer) >= 4 ? BinaryPrimitives.ReadInt32LittleEndian(buffer) : null;
        }

        if (OperatingSystem.IsMacOS())
        {
            return socket.GetRawSocketOption(MacSolLocal, MacLocalPeerPid, buffer[..4]) >= 4 ? BinaryPrimitives.ReadInt32LittleEndian(buffer) : null;
        }

        return null;
    }

    /// <summary>The peer's user id, or null where the OS gives no way to ask.</summary>
    public static uint? PeerUserId(Socket socket)
    {
        Span<byte> buffer = stackalloc byte[128];
        if (OperatingSystem.IsLinux())
        {
            // struct ucred { pid_t pid; uid_t uid; gid_t gid; }
            var length = socket.GetRawSocketOption(LinuxSolSocket, LinuxPeerCred, buffer[..12]);
            return length >= 8 ? BinaryPrimitives.ReadUInt32LittleEndian(buffer[4..]) : uint.MaxValue;
        }

        if (OperatingSystem.IsMacOS())
        {
            // struct xucred { u_int cr_version; uid_t cr_uid; short cr_ngroups; gid_t cr_groups[16]; }
            var length = socket.GetRawSocketOption(MacSolLocal, MacLocalPeerCred, buffer[..76]);
            return length >= 8 ? BinaryPrimitives.ReadUInt32LittleEndian(buffer[4..]) : uint.MaxValue;
        }

        return null;
    }

    [LibraryImport("libc", EntryPoint = "geteuid")]
    private static partial uint GetEffectiveUserId();
}
