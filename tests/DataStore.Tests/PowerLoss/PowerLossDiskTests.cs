namespace DataStore.Tests.PowerLoss;

/// <summary>The replayer's own rules, on hand-made logs: what a power loss keeps of data and of names.</summary>
public sealed class PowerLossDiskTests : IDisposable
{
    private const long Create = 0x41, SyncWrites = 0x1001; // O_CREAT | O_WRONLY; O_DSYNC | O_WRONLY
    private readonly TemporaryDirectory _directory = new();
    private int _index;

    [Fact]
    public void A_write_is_kept_only_once_its_file_and_its_directory_were_synced()
    {
        var disk = Replay(Open(3, "a", Create), Write(3, 0, "old"), Sync(3), Open(4, "", 0), Sync(4), Write(3, 0, "new"));
        Assert.Equal("old", Crash(disk)["a"]);
        Assert.Equal("new", Everything(disk)["a"]);

        var unnamed = Replay(Open(3, "b", Create), Write(3, 0, "data"), Sync(3));
        Assert.False(Crash(unnamed).ContainsKey("b"), "a file whose directory was never synced has no durable name");
    }

    [Fact]
    public void A_rename_over_an_old_file_is_undone_until_the_directory_is_synced()
    {
        var steps = new List<LogRecord> { Open(3, "key", Create), Write(3, 0, "v1"), Sync(3), Open(4, "", 0), Sync(4) };
        steps.AddRange([Open(5, "key.tmp", Create), Write(5, 0, "v2"), Sync(5), Rename("key.tmp", "key")]);
        var disk = Replay([.. steps]);
        Assert.Equal(new Dictionary<string, string> { ["key"] = "v1" }, Crash(disk));

        disk.Apply(Sync(4));
        Assert.Equal(new Dictionary<string, string> { ["key"] = "v2" }, Crash(disk));
    }

    [Fact]
    public void A_write_through_an_O_DSYNC_descriptor_or_before_a_syncfs_is_kept()
    {
        var disk = Replay(Open(4, "", 0), Open(3, "a", Create), Sync(4), Open(5, "a", SyncWrites), Write(5, 0, "dsync"), Open(6, "b", Create));
        Assert.Equal(new Dictionary<string, string> { ["a"] = "dsync" }, Crash(disk));

        disk.Apply(Record(LogKind.Syncfs, 4));
        Assert.Equal(new Dictionary<string, string> { ["a"] = "dsync", ["b"] = "" }, Crash(disk));
    }

    public void Dispose() => _directory.Dispose();

    private static PowerLossDisk Replay(params LogRecord[] records)
    {
        var disk = new PowerLossDisk();
        foreach (var record in records)
        {
            disk.Apply(record);
        }

        return disk;
    }

    private Dictionary<string, string> Crash(PowerLossDisk disk) => Saved(d => disk.SaveCrashState(d, CrashMode.SyncedOnly, new Random(1)));

    private Dictionary<string, string> Everything(PowerLossDisk disk) => Saved(disk.SaveEverything);

    private Dictionary<string, string> Saved(Action<string> save)
    {
        var target = _directory.Sub(Guid.NewGuid().ToString("N"));
        save(target);
        return Directory.EnumerateFiles(target).ToDictionary(f => Path.GetFileName(f), File.ReadAllText);
    }

    private LogRecord Open(int fd, string path, long flags) => Record(LogKind.Open, fd, flags, path.Length == 0 ? 1 : 0, path: path);

    private LogRecord Write(int fd, long offset, string text) => Record(LogKind.Write, fd, offset, text.Length, data: System.Text.Encoding.ASCII.GetBytes(text));

    private LogRecord Sync(int fd) => Record(LogKind.Fsync, fd);

    private LogRecord Rename(string from, string to) => Record(LogKind.Rename, -1, path: from, path2: to);

    private LogRecord Record(LogKind kind, int fd, long a = 0, long b = 0, string path = "", string path2 = "", byte[]? data = null) =>
        new(_index++, kind, fd, _index, a, b, 0, path, path2, data ?? []);
}
