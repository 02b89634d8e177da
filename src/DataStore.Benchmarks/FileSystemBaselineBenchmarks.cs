using System.Runtime.InteropServices;
using System.Text;
using BenchmarkDotNet.Attributes;

namespace DataStore.Benchmarks;

/// <summary>
/// The floor for the FileSystem backend's rows in <see cref="CoreBenchmarks"/>: the bare minimum done by hand on
/// the same data shape (100,000 files of 128-byte values named by their 9-byte keys in hex, in one directory).
/// Get opens, reads and closes one file; HaveKey is one <c>stat</c>; Put writes a temporary file and renames it
/// over the key's file. The <c>Libc</c> rows make the same system calls through libc with a ready UTF-8 path,
/// as the backend does, so neither .NET's file handle nor path marshalling is in them.
/// </summary>
[MemoryDiagnoser]
[SuiteJob(warmupCount: 3, iterationCount: 15)]
public partial class FileSystemBaselineBenchmarks
{
    private static readonly int Preloaded = BenchmarkCommandLine.Keys;
    private const int ReadsPerInvoke = 1_000;
    private const int PutsPerInvoke = 100;
    private const int Mask = (1 << 16) - 1;

    private readonly byte[] _buffer = new byte[256];
    private string[] _hits = [];
    private string[] _mixed = [];
    private byte[][] _hitsZ = [];
    private byte[][] _mixedZ = [];
    private int[] _valueOffsets = [];
    private byte[] _pool = [];
    private string _directory = "";
    private int _next;
    private long _temporary;

    [GlobalSetup]
    public void Setup()
    {
        _pool = BenchmarkData.ValuePool(7);
        _directory = BenchmarkData.NewDirectory();
        Directory.CreateDirectory(_directory);
        var random = new Random(1);
        var order = Enumerable.Range(0, Preloaded).ToArray();
        random.Shuffle(order);
        foreach (var i in order)
        {
            File.WriteAllBytes(PathOf(2L * i), _pool.AsSpan(random.Next(_pool.Length - BenchmarkData.ValueSize), BenchmarkData.ValueSize).ToArray());
        }

        random = new Random(2);
        _hits = Enumerable.Range(0, Mask + 1).Select(_ => PathOf(2L * random.Next(Preloaded))).ToArray();
        _mixed = Enumerable.Range(0, Mask + 1).Select(i => PathOf(2L * random.Next(Preloaded) + (i & 1))).ToArray();
        _valueOffsets = Enumerable.Range(0, Mask + 1).Select(_ => random.Next(_pool.Length - BenchmarkData.ValueSize)).ToArray();
        _hitsZ = _hits.Select(p => Encoding.UTF8.GetBytes(p + "\0")).ToArray();
        _mixedZ = _mixed.Select(p => Encoding.UTF8.GetBytes(p + "\0")).ToArray();
    }

    [GlobalCleanup]
    public void Cleanup() => Directory.Delete(_directory, recursive: true);

    [Benchmark(OperationsPerInvoke = ReadsPerInvoke)]
    public int BaselineGet()
    {
        var total = 0;
        for (var i = 0; i < ReadsPerInvoke; i++)
        {
            using var handle = File.OpenHandle(_hits[_next++ & Mask]);
            total += RandomAccess.Read(handle, _buffer, 0);
        }

        return total;
    }

    [Benchmark(OperationsPerInvoke = ReadsPerInvoke)]
    public unsafe int BaselineGetLibc()
    {
        var total = 0;
        fixed (byte* buffer = _buffer)
        {
            for (var i = 0; i < ReadsPerInvoke; i++)
            {
                fixed (byte* path = _hitsZ[_next++ & Mask])
                {
                    var fd = Open(path, 0);
                    total += (int)Pread(fd, buffer, _buffer.Length, 0);
                    _ = Close(fd);
                }
            }
        }

        return total;
    }

    [Benchmark(OperationsPerInvoke = ReadsPerInvoke)]
    public int BaselineHaveKey()
    {
        var found = 0;
        for (var i = 0; i < ReadsPerInvoke; i++)
        {
            found += File.Exists(_mixed[_next++ & Mask]) ? 1 : 0;
        }

        return found;
    }

    [Benchmark(OperationsPerInvoke = ReadsPerInvoke)]
    public unsafe int BaselineHaveKeyLibc()
    {
        var found = 0;
        for (var i = 0; i < ReadsPerInvoke; i++)
        {
            fixed (byte* path = _mixedZ[_next++ & Mask])
            {
                found += Access(path, 0) == 0 ? 1 : 0;
            }
        }

        return found;
    }

    [Benchmark(OperationsPerInvoke = PutsPerInvoke)]
    public void BaselinePut()
    {
        for (var i = 0; i < PutsPerInvoke; i++)
        {
            var n = _next++ & Mask;
            var temporary = Path.Combine(_directory, $"tmp-{_temporary++}");
            using (var handle = File.OpenHandle(temporary, FileMode.Create, FileAccess.Write))
            {
                RandomAccess.Write(handle, _pool.AsSpan(_valueOffsets[n], BenchmarkData.ValueSize), 0);
            }

            File.Move(temporary, _hits[n], overwrite: true);
        }
    }

    private string PathOf(long id) => Path.Combine(_directory, Convert.ToHexStringLower(BenchmarkData.Key(id)));

    [LibraryImport("libc", EntryPoint = "open")]
    private static unsafe partial int Open(byte* path, int flags);

    [LibraryImport("libc", EntryPoint = "pread")]
    private static unsafe partial nint Pread(int fd, byte* buffer, nint count, long offset);

    [LibraryImport("libc", EntryPoint = "close")]
    private static partial int Close(int fd);

    [LibraryImport("libc", EntryPoint = "access")]
    private static unsafe partial int Access(byte* path, int mode);
}
