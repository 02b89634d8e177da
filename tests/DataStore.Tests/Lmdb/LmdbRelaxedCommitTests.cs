using DataStore.Lmdb;

namespace DataStore.Tests.Lmdb;

/// <summary>
/// Relaxed commits without a sync (ADR 0006): the last synced state is recorded in <c>lmdb-synced.state</c> and pinned;
/// an open after a restart of the machine goes back to it, an open in the same boot keeps every write. The power-loss
/// side is <c>LmdbPowerLossContract</c>; these check the pieces a power loss does not reach.
/// </summary>
public sealed class LmdbRelaxedCommitTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    private string SideFile(string store) => Path.Combine(store, LmdbSyncedState.FileName);

    [Fact]
    public void Relaxed_commits_skip_their_sync_only_once_a_synced_state_is_recorded()
    {
        Assert.SkipUnless(OperatingSystem.IsLinux(), "the boot id that tells a restart apart is read on Linux only; elsewhere every commit syncs its pages");
        using var store = LmdbTestStores.OpenSmall(StorePath);
        store.Put("a"u8, "1"u8);
        Assert.True(store.Environment.CommitsWithoutSync, "a Relaxed store on Linux should commit without a sync");
        Assert.NotNull(new LmdbSyncedState(SideFile(StorePath)).Read());
    }

    [Fact]
    public void A_Durable_put_commits_without_a_page_sync_and_returns_once_the_synced_record_holds_it()
    {
        Assert.SkipUnless(OperatingSystem.IsLinux(), "the boot id that tells a restart apart is read on Linux only; elsewhere every commit syncs its pages");
        using var relaxed = LmdbTestStores.OpenSmall(StorePath);
        using var durable = LmdbTestStores.OpenSmall(StorePath, durability: Durability.Durable);
        durable.Put("a"u8, "1"u8);
        var before = new LmdbSyncedState(SideFile(StorePath)).Read()!;
        durable.Put("b"u8, "2"u8);
        Assert.True(relaxed.Environment.CommitsWithoutSync, "with the synced state recorded, a Durable store's commits skip their page sync too");
        var after = new LmdbSyncedState(SideFile(StorePath)).Read()!;
        Assert.True(after.Transaction > before.Transaction, "a Durable put returned before a record named its commit: a restart would take it back");
    }

    [Fact]
    public void A_store_from_before_without_the_side_file_opens_with_every_pair_and_gets_one()
    {
        Assert.SkipUnless(OperatingSystem.IsLinux(), "the side file is written on Linux only");
        using (var store = KeyValueStore.Open(new DataStoreOptions { Path = StorePath, Backend = StoreBackend.Lmdb }))
        {
            store.Put("kept"u8, "1"u8);
        }

        File.Delete(SideFile(StorePath));
        var (code, output) = ChildProcess.Run(["put", StorePath, "Lmdb", "-", "new", "2"], TimeSpan.FromMinutes(1), ["env", "DATASTORE_BOOT_ID=a-later-boot"]);
        Assert.True(code == 0, output);
        Assert.Equal(StringToBoot("a-later-boot"), new LmdbSyncedState(SideFile(StorePath)).Read()?.Boot);
        (code, output) = ChildProcess.Run(["count", StorePath, "Lmdb", "-", "kept"], TimeSpan.FromMinutes(1), ["env", "DATASTORE_BOOT_ID=a-later-boot"]);
        Assert.True(code == 0 && output.Contains("COUNT 1", StringComparison.Ordinal), output);
    }

    [Fact]
    public void After_a_restart_the_store_opens_at_the_last_synced_state_and_in_the_same_boot_with_every_write()
    {
        Assert.SkipUnless(OperatingSystem.IsLinux(), "the boot id that tells a restart apart is read on Linux only");
        var options = new DataStoreOptions { Path = StorePath, Backend = StoreBackend.Lmdb, SyncInterval = TimeSpan.FromHours(1) };
        var afterRestart = _directory.Sub("after-restart");
        var sameBoot = _directory.Sub("same-boot");
        using (var store = KeyValueStore.Open(options))
        {
            var batch = new WriteBatch();
            for (var i = 0; i < 200; i++)
            {
                batch.Put(System.Text.Encoding.ASCII.GetBytes($"late/{i:D4}"), new byte[300]);
            }

            store.Write(batch); // after the open's sync: only in the page cache, like a process killed before its next sync
            Copy(StorePath, afterRestart);
            Copy(StorePath, sameBoot);
        }

        // Without going back, the restarted open would keep the unsynced batch; a power loss might have kept only part of its pages.
        var (code, output) = ChildProcess.Run(["count", afterRestart, "Lmdb", "-", "late/"], TimeSpan.FromMinutes(1), ["env", "DATASTORE_BOOT_ID=after-a-restart"]);
        Assert.True(code == 0 && output.Contains("COUNT 0", StringComparison.Ordinal), $"after a restart: {output}");
        (code, output) = ChildProcess.Run(["check-integrity", afterRestart, "Lmdb", "-"], TimeSpan.FromMinutes(1), ["env", "DATASTORE_BOOT_ID=after-a-restart"]);
        Assert.True(code == 0, $"after a restart: {output}");
        (code, output) = ChildProcess.Run(["count", sameBoot, "Lmdb", "-", "late/"], TimeSpan.FromMinutes(1));
        Assert.True(code == 0 && output.Contains("COUNT 200", StringComparison.Ordinal), $"same boot: {output}");
    }

    [Fact]
    public void Two_processes_write_one_is_killed_and_after_the_next_writer_records_a_restart_keeps_every_acknowledged_write_of_both()
    {
        Assert.SkipUnless(OperatingSystem.IsLinux(), "the boot id that tells a restart apart is read on Linux only");
        using (KeyValueStore.Open(new DataStoreOptions { Path = StorePath, Backend = StoreBackend.Lmdb }))
        {
        }

        int killedAcks;
        using (var killed = ChildProcess.Start(["put-loop", StorePath, "Lmdb", "Relaxed", "killed", "1000000"]))
        {
            killed.WaitForLine(l => l == "ACK 300", TimeSpan.FromMinutes(1));
            using var survivor = ChildProcess.Start(["put-loop", StorePath, "Lmdb", "Relaxed", "survivor", "2000"]);
            survivor.WaitForLine(l => l == "ACK 100", TimeSpan.FromMinutes(1));
            killed.KillHard();
            killedAcks = int.Parse(killed.LastLine("ACK ")!["ACK ".Length..], System.Globalization.CultureInfo.InvariantCulture);
            survivor.WaitForLine(l => l == "ACK 2000", TimeSpan.FromMinutes(2));
        }

        // The next writer in this boot records and pins before it writes, and syncs as it closes: a restart after that
        // keeps everything both acknowledged (without it, the killed process's last unsynced second may go), and the file is whole.
        var (code, output) = ChildProcess.Run(["put", StorePath, "Lmdb", "Relaxed", "next", "1"], TimeSpan.FromMinutes(1));
        Assert.True(code == 0, output);
        (code, output) = ChildProcess.Run(["count", StorePath, "Lmdb", "-", "killed/"], TimeSpan.FromMinutes(1), ["env", "DATASTORE_BOOT_ID=after-a-restart"]);
        var count = int.Parse(output.Split("COUNT ")[1].Split('\n')[0].Trim(), System.Globalization.CultureInfo.InvariantCulture);
        Assert.True(code == 0 && count >= killedAcks, $"{killedAcks} acknowledged by the killed process, {output}");
        (code, output) = ChildProcess.Run(["count", StorePath, "Lmdb", "-", "survivor/"], TimeSpan.FromMinutes(1), ["env", "DATASTORE_BOOT_ID=after-a-restart"]);
        Assert.True(code == 0 && output.Contains("COUNT 2000", StringComparison.Ordinal), output);
        (code, output) = ChildProcess.Run(["check-integrity", StorePath, "Lmdb", "-"], TimeSpan.FromMinutes(1), ["env", "DATASTORE_BOOT_ID=after-a-restart"]);
        Assert.True(code == 0, output);
    }

    public void Dispose() => _directory.Dispose();

    private static ulong StringToBoot(string text)
    {
        var hash = BitConverter.ToUInt64(System.Security.Cryptography.SHA256.HashData(System.Text.Encoding.UTF8.GetBytes(text)));
        return hash == 0 ? 1 : hash;
    }

    private static void Copy(string from, string to)
    {
        Directory.CreateDirectory(to);
        foreach (var file in Directory.GetFiles(from))
        {
            File.Copy(file, Path.Combine(to, Path.GetFileName(file)));
        }
    }
}
