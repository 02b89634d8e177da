namespace DataStore.TestHost;

/// <summary>
/// The <c>wide-batch-loop keys batches</c> command: batch i puts <c>keys</c> keys spread over 16 first bytes, all with
/// value i, printing <c>ACK i</c> after each returned; the parent kills this process at a random moment. On a FileSystem
/// store past one leaf such a batch applies on two threads (TreeWriter.Halves).
/// </summary>
internal static class WideBatchLoop
{
    public static int Run(IKeyValueStore store, int keys, int batches)
    {
        var batch = new WriteBatch();
        for (var i = 1; i <= batches; i++)
        {
            batch.Clear();
            for (var k = 0; k < keys; k++)
            {
                batch.Put(Key(k), Commands.Number(i));
            }

            store.Write(batch);
            Console.WriteLine($"ACK {i}");
        }

        return 0;
    }

    /// <summary>Key <paramref name="k"/> of every batch.</summary>
    public static byte[] Key(int k) => [(byte)(k % 16), .. Commands.Number(k)];
}
