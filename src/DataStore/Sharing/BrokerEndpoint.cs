using System.Net.Sockets;
using System.Security.Cryptography;
using System.Text;

namespace DataStore.Sharing;

/// <summary>
/// The local socket between an owner and its clients: a Unix domain socket on every OS (Linux and macOS; Windows 10
/// 1803 and later have AF_UNIX too), named by a hash of the store's full path, in a directory only this user can use.
/// </summary>
/// <remarks>
/// The path stays within the 108-byte <c>sun_path</c> limit: <c>$XDG_RUNTIME_DIR</c> when set and short enough, else
/// <c>/tmp/datastore-&lt;uid&gt;</c> (mode 0700), or the user's temporary directory on Windows. Tested on Linux only.
/// </remarks>
internal static class BrokerEndpoint
{
    private const int MaxSocketPath = 100; // sun_path is 108 bytes (104 on macOS) with its terminating zero

    /// <summary>The socket path of the store in <paramref name="directory"/> (a full path).</summary>
    public static string SocketPath(string directory)
    {
        var full = System.IO.Path.TrimEndingDirectorySeparator(System.IO.Path.GetFullPath(directory));
        var hash = Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(full)))[..24];
        var name = $"datastore-{hash}.sock";
        var runtime = Environment.GetEnvironmentVariable("XDG_RUNTIME_DIR");
        if (!string.IsNullOrEmpty(runtime) && Directory.Exists(runtime) && Encoding.UTF8.GetByteCount(runtime) + name.Length + 1 <= MaxSocketPath)
        {
            return System.IO.Path.Combine(runtime, name);
        }

        return System.IO.Path.Combine(PrivateDirectory(), name);
    }

    /// <summary>Binds and listens on <paramref name="socketPath"/>, replacing a stale socket file (only the owner-lock holder calls this).</summary>
    public static Socket Listen(string socketPath)
    {
        if (File.Exists(socketPath))
        {
            File.Delete(socketPath);
        }

        var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        try
        {
            socket.Bind(new UnixDomainSocketEndPoint(socketPath));
            if (!OperatingSystem.IsWindows())
            {
                File.SetUnixFileMode(socketPath, UnixFileMode.UserRead | UnixFileMode.UserWrite);
            }

            socket.Listen(64);
            return socket;
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    /// <summary>Connects to the owner at <paramref name="socketPath"/>; null when nobody listens there (yet).</summary>
    public static Socket? TryConnect(string socketPath)
    {
        var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        try
        {
            socket.Connect(new UnixDomainSocketEndPoint(socketPath));
            return socket;
        }
        catch (SocketException e) when (e.SocketErrorCode is SocketError.ConnectionRefused or SocketError.AddressNotAvailable or SocketError.TryAgain
            || e.ErrorCode == 2 /* ENOENT */)
        {
            socket.Dispose();
            return null;
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    private static string PrivateDirectory()
    {
        if (OperatingSystem.IsWindows())
        {
            return System.IO.Path.GetTempPath();
        }

        var directory = $"/tmp/datastore-{PeerCredentials.EffectiveUserId}";
        Directory.CreateDirectory(directory, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        return directory;
    }
}
