using System.Buffers;

namespace DataStore.TestHost;

/// <summary>
/// The damage matrix's two commands. <c>damage-fill tag count hang</c> writes the model pairs (<see cref="Value"/>) in
/// batches of <see cref="BatchSize"/>, prints <c>FILLED</c>, and with <c>hang</c> waits to be killed, so the store is
/// left as a crash leaves it. <c>damage-probe base tail</c> opens a damaged copy the way the tool does (backend from
/// the manifest), reads every model key, scans every pair and verifies, and prints one line for each step.
/// </summary>
internal static class DamageProbe
{
    public const int BatchSize = 16;

    public static int Fill(IKeyValueStore store, string tag, int count, bool hang)
    {
        var batch = new WriteBatch();
        for (var i = 1; i <= count; i++)
        {
            batch.Put(Commands.Key(tag, i), Value(tag, i));
            if (i % BatchSize == 0 || i == count)
            {
                store.Write(batch);
                batch.Clear();
            }
        }

        Console.WriteLine("FILLED");
        if (hang)
        {
            Thread.Sleep(Timeout.Infinite);
        }

        return 0;
    }

    /// <summary>
    /// Prints <c>OPENED</c> or <c>OPEN-ERROR</c>, then <c>READS full</c>, <c>READS prefix n</c> (the tail's first n
    /// pairs, whole batches: a log's tail dropped), <c>WRONG what</c> or <c>READ-ERROR</c>, then <c>VERIFY healthy</c>,
    /// <c>VERIFY damaged: first problem</c> or <c>VERIFY-ERROR</c>. Any other exception is <c>FOREIGN</c>.
    /// </summary>
    public static int Run(DataStoreOptions options, int baseCount, int tailCount)
    {
        try
        {
            IKeyValueStore store;
            try
            {
                store = KeyValueStore.Open(options);
            }
            catch (DataStoreException e)
            {
                Console.WriteLine($"OPEN-ERROR {Describe(e)}");
                return 0;
            }

            using (store)
            {
                Console.WriteLine("OPENED");
                Console.WriteLine(Reads(store, baseCount, tailCount));
                Console.WriteLine(Verify(store));
            }

            return 0;
        }
        catch (Exception e) when (e is not DataStoreException)
        {
            Console.WriteLine($"FOREIGN {e.GetType().FullName}: {e.Message.ReplaceLineEndings(" ")}");
            return 0;
        }
    }

    /// <summary>The value stored under <c>tag/i</c>: 100 bytes, or 6,000 (past a page) for every 97th key, from a pattern of <paramref name="i"/>.</summary>
    public static byte[] Value(string tag, int i)
    {
        var value = new byte[i % 97 == 0 ? 6_000 : 100];
        for (var j = 0; j < value.Length; j++)
        {
            value[j] = (byte)((i * 31) + (j * 7) + tag[0]);
        }

        return value;
    }

    private static string Reads(IKeyValueStore store, int baseCount, int tailCount)
    {
        try
        {
            var buffer = new ArrayBufferWriter<byte>();
            int? firstAbsent = null;
            for (var i = 1; i <= tailCount + 1; i++)
            {
                buffer.ResetWrittenCount();
                if (!store.Get(Commands.Key("tail", i), buffer))
                {
                    firstAbsent ??= i;
                }
                else if (i > tailCount || firstAbsent is not null)
                {
                    return $"WRONG tail/{i} is present, but {(i > tailCount ? "was never written" : $"tail/{firstAbsent} is absent")}";
                }
                else if (!buffer.WrittenSpan.SequenceEqual(Value("tail", i)))
                {
                    return $"WRONG tail/{i} reads a changed value of {buffer.WrittenCount} bytes";
                }
            }

            for (var i = 1; i <= baseCount + 1; i++)
            {
                buffer.ResetWrittenCount();
                var found = store.Get(Commands.Key("base", i), buffer);
                if (found != i <= baseCount || (found && !buffer.WrittenSpan.SequenceEqual(Value("base", i))))
                {
                    return $"WRONG base/{i} is {(found ? $"{buffer.WrittenCount} bytes not as written" : "absent")}";
                }
            }

            var tail = (firstAbsent ?? tailCount + 1) - 1;
            if (tail != tailCount && tail % BatchSize != 0)
            {
                return $"WRONG the tail ends at tail/{tail}, inside a batch";
            }

            return Scan(store, baseCount, tail) ?? (tail == tailCount ? "READS full" : $"READS prefix {tail}");
        }
        catch (DataStoreException e)
        {
            return $"READ-ERROR {Describe(e)}";
        }
    }

    private static string? Scan(IKeyValueStore store, int baseCount, int tailCount)
    {
        var expected = Enumerable.Range(1, baseCount).Select(i => ("base", i)).Concat(Enumerable.Range(1, tailCount).Select(i => ("tail", i))).GetEnumerator();
        var seen = 0;
        using var cursor = store.ScanPrefix([]);
        while (cursor.MoveNext())
        {
            if (!expected.MoveNext())
            {
                return $"WRONG the scan returned more than the {seen} pairs written";
            }

            var (tag, i) = expected.Current;
            if (!cursor.Key.SequenceEqual(Commands.Key(tag, i)) || !cursor.Value.SequenceEqual(Value(tag, i)))
            {
                return $"WRONG the scan's pair {seen + 1} is not {tag}/{i} as written";
            }

            seen++;
        }

        return expected.MoveNext() ? $"WRONG the scan ended after {seen} pairs" : null;
    }

    private static string Verify(IKeyValueStore store)
    {
        try
        {
            var report = store.VerifyAsync().GetAwaiter().GetResult();
            return report.IsHealthy ? "VERIFY healthy" : $"VERIFY damaged: {report.Problems[0].ReplaceLineEndings(" ")}";
        }
        catch (DataStoreException e)
        {
            return $"VERIFY-ERROR {Describe(e)}";
        }
    }

    private static string Describe(DataStoreException e) => $"{e.Cause} {e.GetType().Name}: {e.Message.ReplaceLineEndings(" ")}";
}
