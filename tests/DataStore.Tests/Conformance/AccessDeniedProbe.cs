namespace DataStore.Tests.Conformance;

/// <summary>
/// Opens a store and writes as a user the file permissions apply to. CI runs as root, which ignores them, so
/// as root the write runs in a child process as the unprivileged user 65534 (setpriv); as anyone else, in this process.
/// </summary>
[System.Runtime.Versioning.UnsupportedOSPlatform("windows")]
internal static class AccessDeniedProbe
{
    /// <summary>Makes <paramref name="storePath"/> read-only, asserts that a write there fails with AccessDenied naming the path, then makes it writable again.</summary>
    public static void AssertWriteDenied(string storePath, StoreBackend backend, TemporaryDirectory scratch)
    {
        MakeReadOnly(storePath);
        try
        {
            var (cause, message) = TryWrite(storePath, backend, scratch);
            Assert.True(cause == StoreFailure.AccessDenied, $"expected AccessDenied, got {cause}: {message}");
            Assert.Contains(storePath, message);
        }
        finally
        {
            MakeWritable(storePath);
        }
    }

    /// <summary>Tries to open <paramref name="storePath"/> and put one key; returns the failure's cause and message, or null if the write succeeded.</summary>
    public static (StoreFailure? Cause, string Message) TryWrite(string storePath, StoreBackend backend, TemporaryDirectory scratch)
    {
        if (Environment.UserName != "root")
        {
            try
            {
                using var store = KeyValueStore.Open(new DataStoreOptions { Path = storePath, Backend = backend });
                store.Put("probe"u8, "x"u8);
                return (null, "the write succeeded");
            }
            catch (DataStoreException e)
            {
                return (e.Cause, e.Message);
            }
        }

        Assert.SkipUnless(File.Exists("/usr/bin/setpriv"), "running as root without setpriv (util-linux): cannot drop privileges to test permissions");
        var host = CopyHostFor(scratch);
        var (code, output) = ChildProcess.Run(
            ["put", storePath, backend.ToString(), "-", "probe", "x"],
            wrapper: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"],
            hostAssembly: host);
        if (code == 0)
        {
            return (null, output);
        }

        Assert.True(code == 3, $"the unprivileged child failed in an unexpected way (exit {code}): {output}");
        var line = output.Split('\n').First(l => l.StartsWith("ERROR ", StringComparison.Ordinal));
        return (Enum.Parse<StoreFailure>(line.Split(' ')[1]), line);
    }

    /// <summary>Copies the test host where the unprivileged user can read it (the build tree may sit under a private directory).</summary>
    internal static string CopyHostFor(TemporaryDirectory scratch)
    {
        var source = Path.GetDirectoryName(ChildProcess.HostAssembly)!;
        var target = scratch.Sub("host");
        Directory.CreateDirectory(target);
        foreach (var file in Directory.EnumerateFiles(source, "*", SearchOption.AllDirectories).Where(file => !ForOtherPlatforms(Path.GetRelativePath(source, file))))
        {
            var destination = Path.Combine(target, Path.GetRelativePath(source, file));
            Directory.CreateDirectory(Path.GetDirectoryName(destination)!);
            File.Copy(file, destination);
        }

        OpenUp(scratch.Path);
        return Path.Combine(target, Path.GetFileName(ChildProcess.HostAssembly));
    }

    // The native libraries of other platforms (runtimes/<rid>/...), two thirds of the host's 166 MB: this one needs its own RID or a family of it.
    private static bool ForOtherPlatforms(string relative)
    {
        var parts = relative.Split(Path.DirectorySeparatorChar);
        var current = System.Runtime.InteropServices.RuntimeInformation.RuntimeIdentifier;
        return parts.Length > 2 && parts[0] == "runtimes" && parts[1] != current && !current.StartsWith(parts[1] + "-", StringComparison.Ordinal) && parts[1] != "unix";
    }

    /// <summary>Lets every user read and enter <paramref name="path"/> and its parents up to the system temp directory.</summary>
    private static void OpenUp(string path)
    {
        var temp = Path.GetFullPath(Path.GetTempPath()).TrimEnd('/');
        for (var directory = new DirectoryInfo(path); directory is not null && directory.FullName.TrimEnd('/') != temp; directory = directory.Parent)
        {
            directory.UnixFileMode |= UnixFileMode.OtherRead | UnixFileMode.OtherExecute | UnixFileMode.GroupRead | UnixFileMode.GroupExecute;
        }

        foreach (var entry in new DirectoryInfo(path).EnumerateFileSystemInfos("*", SearchOption.AllDirectories))
        {
            entry.UnixFileMode |= UnixFileMode.OtherRead | UnixFileMode.GroupRead |
                (entry is DirectoryInfo ? UnixFileMode.OtherExecute | UnixFileMode.GroupExecute : 0);
        }
    }

    /// <summary>Makes a directory and everything in it read-only for everyone (the owner may still enter it).</summary>
    private static void MakeReadOnly(string path)
    {
        foreach (var file in Directory.EnumerateFiles(path))
        {
            File.SetUnixFileMode(file, UnixFileMode.UserRead | UnixFileMode.GroupRead | UnixFileMode.OtherRead);
        }

        File.SetUnixFileMode(path, UnixFileMode.UserRead | UnixFileMode.UserExecute | UnixFileMode.GroupRead |
            UnixFileMode.GroupExecute | UnixFileMode.OtherRead | UnixFileMode.OtherExecute);
    }

    /// <summary>Gives the owner write access back, so the test can check the data and clean up.</summary>
    private static void MakeWritable(string path)
    {
        File.SetUnixFileMode(path, File.GetUnixFileMode(path) | UnixFileMode.UserWrite);
        foreach (var file in Directory.EnumerateFiles(path))
        {
            File.SetUnixFileMode(file, File.GetUnixFileMode(file) | UnixFileMode.UserWrite);
        }
    }
}
