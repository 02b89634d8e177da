using System.Globalization;
using DataStore.Tests.Cli;

namespace DataStore.Tests.Sqlite;

/// <summary>
/// Damage in the middle of the write-ahead log (issue 20 item 3): SQLite's recovery stops at the first frame whose
/// checksum fails and drops every later commit without an error. A store of 2,000 pairs is closed, then 200 more are
/// written in batches of 16 by a child killed with kill -9, so the log holds those 13 commits; one of its frames is
/// damaged in place and the store reopened. A torn tail (the last commit cut short) stays an ordinary recovery, and
/// after a restart of the machine (another boot, where unsynced frames may come back out of order) the log is left to
/// SQLite's recovery (ADR 0023, "Write-ahead log").
/// </summary>
public sealed class SqliteWalDamageTests : IDisposable
{
    private const int BasePairs = 2_000;
    private const int TailPairs = 200;
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    private string WalFile => Path.Combine(StorePath, "store.sqlite-wal");

    [Theory]
    [InlineData("one byte flipped in the page of frame 2", 2)]
    [InlineData("4 KiB zeroed from the start of frame 2", 2)]
    [InlineData("the log header zeroed", 0)]
    public void Damage_before_later_commits_is_an_error_naming_the_log_and_the_files_are_left_as_they_are(string damage, int frame)
    {
        var frameSize = FillWithLoggedTail();
        var offset = 32 + ((long)(frame - 1) * frameSize);
        switch (damage)
        {
            case "one byte flipped in the page of frame 2":
                Change(offset + 24 + 1_000, 1, flip: true);
                break;
            case "4 KiB zeroed from the start of frame 2":
                Change(offset, 4_096, flip: false);
                break;
            default:
                Change(0, 32, flip: false);
                break;
        }

        var before = Snapshot();
        var error = Assert.Throws<StoreFormatException>(() => KeyValueStore.Open(StorePath).Dispose());

        Assert.Equal(StoreFailure.Corrupt, error.Cause);
        Assert.Contains($"its write-ahead log '{WalFile}' is damaged", error.Message, StringComparison.Ordinal);
        Assert.Contains(frame == 0 ? "its header does not match its checksum" : $"frame {frame} (at byte {offset})", error.Message, StringComparison.Ordinal);
        Assert.Equal(before, Snapshot());
        var verify = DatastoreTool.Run(_directory.Path, ["verify", "--store", StorePath, "--quiet"]);
        verify.AssertFailed(4, "");
        Assert.Contains(verify.Lines, line => line.StartsWith("problem: ", StringComparison.Ordinal) && line.Contains("write-ahead log", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("cut inside its last frame")]
    [InlineData("one byte flipped in its last frame")]
    public void A_torn_last_commit_opens_with_every_earlier_commit(string damage)
    {
        var frameSize = FillWithLoggedTail();
        var length = new FileInfo(WalFile).Length;
        if (damage == "cut inside its last frame")
        {
            using var file = new FileStream(WalFile, FileMode.Open);
            file.SetLength(length - (frameSize / 2));
        }
        else
        {
            Change(length - 100, 1, flip: true);
        }

        using var store = KeyValueStore.Open(StorePath);
        var tail = store.EnumerateKeys("tail/"u8.ToArray()).Count();
        Assert.Equal(BasePairs, store.EnumerateKeys("base/"u8.ToArray()).Count());
        Assert.True(tail is > 0 and < TailPairs && tail % 16 == 0, $"{tail} tail pairs: expected whole batches of 16, the last one dropped");
    }

    [Fact]
    public void After_a_restart_of_the_machine_a_damaged_log_is_left_to_SQLite_recovery_as_a_power_loss_may_leave_it()
    {
        var frameSize = FillWithLoggedTail();
        Change(32 + frameSize + 24 + 1_000, 1, flip: true);

        var (code, output) = ChildProcess.Run(["count", StorePath, "Sqlite", "-", "tail/"], TimeSpan.FromMinutes(1), ["env", "DATASTORE_BOOT_ID=a-later-boot"]);

        Assert.True(code == 0, output);
        var tail = int.Parse(output.Split('\n').Single(l => l.StartsWith("COUNT ", StringComparison.Ordinal))[6..], CultureInfo.InvariantCulture);
        Assert.True(tail < 32 && tail % 16 == 0, $"{tail} tail pairs: SQLite's recovery keeps the commits before frame 2 and drops the rest");
    }

    [Fact]
    public void Opening_beside_a_writer_that_keeps_appending_and_starting_the_log_over_is_never_refused()
    {
        // A child writes 2,500 batches of 16 pairs of 1,000 bytes without pause (the log starts over about every 16 MiB)
        // while this process opens the store, reads a key and closes it again and again: each open walks a live log.
        using var writer = ChildProcess.Start(["fill-and-hang", StorePath, "Sqlite", "Relaxed", "x", "40000", "1000"]);
        writer.WaitForLine(l => l.StartsWith("ACK ", StringComparison.Ordinal), TimeSpan.FromSeconds(60));
        var opens = 0;
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(20);
        while (writer.LastLine("FILLED") is null && DateTime.UtcNow < deadline)
        {
            using var store = KeyValueStore.Open(StorePath);
            Assert.True(store.HaveKey(Key("x", 1)));
            opens++;
        }

        TestContext.Current.TestOutputHelper?.WriteLine($"{opens} opens while the child wrote; it reached {writer.LastLine("ACK ")}");
        Assert.True(opens > 0);
    }

    public void Dispose() => _directory.Dispose();

    private static byte[] Key(string tag, int i) => [.. System.Text.Encoding.UTF8.GetBytes(tag + "/"), .. BitConverterBigEndian(i)];

    private static byte[] BitConverterBigEndian(int i)
    {
        var bytes = new byte[4];
        System.Buffers.Binary.BinaryPrimitives.WriteInt32BigEndian(bytes, i);
        return bytes;
    }

    // The base pairs closed into the database file, the tail in the log of a killed writer; returns the log's frame size.
    private int FillWithLoggedTail()
    {
        var (code, output) = ChildProcess.Run(["damage-fill", StorePath, "Sqlite", "Relaxed", "base", BasePairs.ToString(CultureInfo.InvariantCulture), "close"]);
        Assert.True(code == 0, output);
        using (var child = ChildProcess.Start(["damage-fill", StorePath, "Sqlite", "Relaxed", "tail", TailPairs.ToString(CultureInfo.InvariantCulture), "hang"]))
        {
            child.WaitForLine(l => l == "FILLED", TimeSpan.FromSeconds(60));
            child.KillHard();
        }

        var header = new byte[32];
        using (var wal = File.OpenRead(WalFile))
        {
            wal.ReadExactly(header);
        }

        var frameSize = 24 + System.Buffers.Binary.BinaryPrimitives.ReadInt32BigEndian(header.AsSpan(8));
        var frames = (new FileInfo(WalFile).Length - 32) / frameSize;
        Assert.True(frames >= 13, $"the log holds {frames} frames; the test needs the tail's 13 commits in it");
        return frameSize;
    }

    private void Change(long offset, int length, bool flip)
    {
        using var file = new FileStream(WalFile, FileMode.Open, FileAccess.ReadWrite);
        var bytes = new byte[length];
        file.Position = offset;
        file.ReadExactly(bytes);
        for (var i = 0; i < length; i++)
        {
            bytes[i] = flip ? (byte)~bytes[i] : (byte)0;
        }

        file.Position = offset;
        file.Write(bytes);
    }

    // The engine's files and the log's record, which a refused open must leave as they are.
    private string Snapshot() => string.Join(", ", Directory.EnumerateFiles(StorePath)
        .Where(f => Path.GetFileName(f).StartsWith("store.sqlite", StringComparison.Ordinal) || Path.GetFileName(f) == "datastore-wal-begun")
        .Order(StringComparer.Ordinal)
        .Select(f => $"{Path.GetFileName(f)}:{Convert.ToHexString(System.Security.Cryptography.SHA256.HashData(File.ReadAllBytes(f)))[..16]}"));
}
