using DataStore.RocksDb.Interop;

namespace DataStore.Tests.RocksDb;

/// <summary>How the backend finds RocksDB's native library without RocksDbSharp: the package's file for the platform, or an error naming what was looked for.</summary>
public sealed class RocksDbLibraryTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Theory]
    [InlineData(true, false, "win-x64", "rocksdb.dll")]
    [InlineData(false, true, "osx-arm64", "librocksdb.dylib")]
    [InlineData(false, false, "linux-x64", "librocksdb.so")]
    [InlineData(false, false, "linux-arm64", "librocksdb.so")]
    [InlineData(false, false, "linux-musl-x64", "librocksdb-musl.so")]
    public void The_file_is_the_one_the_RocksDB_package_ships_for_the_platform(bool windows, bool macOs, string rid, string expected) =>
        Assert.Equal(expected, RocksDbLibrary.FileName(windows, macOs, rid));

    [Fact]
    public void A_musl_process_also_looks_in_the_folder_where_the_package_puts_its_musl_build()
    {
        var directories = RocksDbLibrary.Directories("/app", "linux-musl-x64", "linux-x64");

        Assert.Equal(["/app", Path.Combine("/app", "runtimes", "linux-musl-x64", "native"), Path.Combine("/app", "runtimes", "linux-x64", "native")], directories);
    }

    [Fact]
    public void The_packages_build_loads_from_the_applications_runtimes_folder()
    {
        Assert.SkipUnless(OperatingSystem.IsLinux() && Environment.Is64BitProcess, "the test host's RocksDB build is checked on linux-x64 and linux-arm64");
        var rid = $"linux-{System.Runtime.InteropServices.RuntimeInformation.ProcessArchitecture.ToString().ToLowerInvariant()}";

        var failure = RocksDbLibrary.TryLoad("librocksdb.so", RocksDbLibrary.Directories(AppContext.BaseDirectory, rid, rid), assembly: null, out var handle);

        Assert.Null(failure);
        Assert.NotEqual(0, handle);
    }

    [Fact]
    public void A_missing_library_is_reported_with_the_file_and_every_place_looked_in()
    {
        var empty = _directory.Sub("app");
        Directory.CreateDirectory(empty);

        var failure = RocksDbLibrary.TryLoad("librocksdb.so", RocksDbLibrary.Directories(empty, "linux-x64", "linux-x64"), assembly: null, out var handle);

        Assert.Equal(0, handle);
        Assert.NotNull(failure);
        Assert.Contains("librocksdb.so did not load", failure, StringComparison.Ordinal);
        Assert.StartsWith("the RocksDB backend's native library ships in the package DataStore.RocksDb; add a reference to it", failure, StringComparison.Ordinal);
        Assert.Contains(empty, failure, StringComparison.Ordinal);
        Assert.Contains(Path.Combine(empty, "runtimes", "linux-x64", "native"), failure, StringComparison.Ordinal);
    }

    [Fact]
    public void Another_library_under_the_name_is_refused_because_it_is_not_the_packages_build()
    {
        Assert.SkipUnless(OperatingSystem.IsLinux(), "uses the runtime's libSystem.Native.so as the impostor");
        var app = _directory.Sub("impostor");
        Directory.CreateDirectory(app);
        File.Copy(Path.Combine(Path.GetDirectoryName(typeof(object).Assembly.Location)!, "libSystem.Native.so"), Path.Combine(app, "librocksdb.so"));

        var failure = RocksDbLibrary.TryLoad("librocksdb.so", [app], assembly: null, out var handle);

        Assert.Equal(0, handle);
        Assert.Contains("lacks rocksdb_get_into_buffer", failure, StringComparison.Ordinal);
        Assert.Contains(Path.Combine(app, "librocksdb.so"), failure, StringComparison.Ordinal);
    }

    public void Dispose() => _directory.Dispose();
}
