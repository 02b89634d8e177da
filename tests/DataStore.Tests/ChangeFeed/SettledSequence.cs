namespace DataStore.Tests.ChangeFeed;

/// <summary>
/// The store's latest sequence once it stops moving: after a writer is killed, a write it sent to the owner process may
/// still be applied (the owner runs a request it received whole, ADR 0015), so a test that reads the latest sequence and
/// then scans must wait for that commit first.
/// </summary>
internal static class SettledSequence
{
    /// <summary>The latest sequence, read until it is the same for 5 readings 100 ms apart (at most 30 s).</summary>
    public static long Of(IKeyValueStore store)
    {
        var (latest, same) = (store.ChangeSequence(), 0);
        for (var i = 0; i < 300 && same < 5; i++)
        {
            Thread.Sleep(100);
            var now = store.ChangeSequence();
            (latest, same) = (now, now == latest ? same + 1 : 0);
        }

        return latest;
    }
}
