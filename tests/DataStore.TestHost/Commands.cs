using System.Buffers.Binary;
using System.Text;
using DataStore;

namespace DataStore.TestHost;

/// <summary>The test host's commands. Arguments: command, store path, backend, durability, then the command's own.</summary>
internal static class Commands
{
    public static int Run(string[] args)
    {
        if (args.Length < 3)
        {
            Console.Error.WriteLine("usage: DataStore.TestHost <command> <store> <backend> [durability] [args...]");
            return 2;
        }

        var options = new DataStoreOptions
        {
            Path = args[1],
            Backend = args[2] == "-" ? null : Enum.Parse<StoreBackend>(args[2]),
            Durability = args.Length > 3 && args[3] != "-" ? Enum.Parse<Durability>(args[3]) : null,
            Timeout = TimeSpan.FromSeconds(30),
        };
        var rest = args.Skip(4).ToArray();
        if (args[0] == "app-writes")
        {
            return AppWriter.Run(args);
        }

        // Commands that open the store themselves, or none.
        var ran = args[0] switch
        {
            "import-dump" => TransferCommands.Import(options, rest[0]),
            "peer-hello" => SharingCommands.PeerHello(args[1]),
            "hold-owner-lock" => SharingCommands.HoldOwnerLock(args[1], int.Parse(rest[0])),
            "pack-scrambled" => PackedSoak.Run(options, int.Parse(rest[0])),
            "power-loss-writes" => PowerLossWrites.Run(options, rest),
            "power-loss-read" => PowerLossRead.Run(Enum.Parse<StoreBackend>(args[2]), rest),
            "open-lmdb09-killed-at" => LmdbConversionKill.Run(options, rest[0]),
            "config-feed" => FeedConfigCommand.Run(args[1], rest[0]),
            "damage-probe" => DamageProbe.Run(options, int.Parse(rest[0]), int.Parse(rest[1])),
            "fill-until-fault" => ResourceFaultCommands.FillUntilFault(options, int.Parse(rest[0])),
            "open-until-fault" => ResourceFaultCommands.OpenUntilFault(args[1], Enum.Parse<StoreBackend>(args[2]), int.Parse(rest[0])),
            "feed-create" => FeedDeleteCommands.Create(options),
            "read-only-steps" => ReadOnlySteps.Run(options),
            "fill-then-check" => FillThenCheck.Run(options, int.Parse(rest[0])),
            _ => (int?)null,
        };
        if (ran is { } code)
        {
            return code;
        }

        using var store = KeyValueStore.Open(options, StderrLog.WhenTracing());
        return args[0] switch
        {
            "open" => Open(store),
            "put-loop" => PutLoop(store, rest[0], int.Parse(rest[1])),
            "batch-loop" => BatchLoop(store, int.Parse(rest[0])),
            "batch-cpu" => BatchCpu.Run(store, int.Parse(rest[0]), int.Parse(rest[1])),
            "spread-loop" => SpreadLoop.Run(store, int.Parse(rest[0])),
            "mixed-loop" => MixedWriteLoop.Run(store, int.Parse(rest[0]), int.Parse(rest[1])),
            "threaded-put-loop" => ThreadedPutLoop.Run(store, int.Parse(rest[0]), int.Parse(rest[1])),
            "maintenance-loop" => MaintenanceLoop.Run(store, rest[0], rest[1]),
            "check-pairs" => CheckPairs(store, int.Parse(rest[0])),
            "cas-increment" => CasIncrement(store, int.Parse(rest[0])),
            "count" => Count(store, rest[0]),
            "put" => Put(store, rest[0], rest[1]),
            "hold-open" => HoldOpen(store, int.Parse(rest[0])),
            "hold-sqlite-write-lock" => SqliteWriteLock.Hold(store.Path, int.Parse(rest[0])),
            "hold-filesystem-write-lock" => FileSystemWriteLock.Hold(store.Path, int.Parse(rest[0])),
            "hold-lmdb-write-lock" => LmdbWriteLock.Hold(store.Path, int.Parse(rest[0])),
            "hold-scan" => HoldScan(store, int.Parse(rest[0])),
            "hold-on-cue" => HoldOnCue.Run(store),
            "verify-count" => VerifiedCount.Run(store, rest[0]),
            "fill" => Fill(store, rest[0], int.Parse(rest[1]), int.Parse(rest[2])),
            "fill-and-hang" => CrashCommands.FillAndHang(store, rest[0], int.Parse(rest[1]), int.Parse(rest[2])),
            "read-all" => CrashCommands.ReadAll(store),
            "damage-fill" => DamageProbe.Fill(store, rest[0], int.Parse(rest[1]), rest[2] == "hang"),
            "fill-bench" => TransferCommands.FillBench(store, int.Parse(rest[0])),
            "scan-rate" => BrokerMeasureCommands.ScanRate(store),
            "batch-rate" => BrokerMeasureCommands.BatchRate(store, rest[0], int.Parse(rest[1]), int.Parse(rest[2]), rest.Length > 3 && rest[3] == "steps"),
            "worst-put" => WorstPut.Run(store, int.Parse(rest[0]), int.Parse(rest[1])),
            "overwrite-stream" => OverwriteStream.Run(store, rest),
            "export-dump" => TransferCommands.Export(store, rest[0]),
            "check-integrity" => IntegrityCheck.Run(store),
            "check-fill" => ResourceFaultCommands.CheckFill(store, int.Parse(rest[0])),
            "write-through-handovers" => SharingCommands.WriteThroughHandOvers(store, rest[0], int.Parse(rest[1]), int.Parse(rest[2])),
            "feed-writes" => FeedCommands.Writes(store, int.Parse(rest[0]), int.Parse(rest[1])),
            "delete-loop" => FeedDeleteCommands.DeleteLoop(store, rest[0], int.Parse(rest[1]), rest[2]),
            "feed-delete-stop" => FeedDeleteCommands.DeleteStoppedAt(store, int.Parse(rest[0]), int.Parse(rest[1]), rest[2]),
            "feed-put-stop" => FeedCommands.PutStoppedAt(store, int.Parse(rest[0]), int.Parse(rest[1])),
            "feed-stamps" => FeedCommands.Stamps(store, int.Parse(rest[0]), int.Parse(rest[1])),
            "feed-latency" => FeedCommands.Latency(store, int.Parse(rest[0])),
            "feed-idle" => FeedCommands.Idle(store, int.Parse(rest[0]), rest.Length < 2 || rest[1] != "baseline"),
            _ => Unknown(args[0]),
        };
    }

    private static int Open(IKeyValueStore store)
    {
        Console.WriteLine($"OPEN {store.Backend} {store.Durability}");
        return 0;
    }

    /// <summary>Puts <c>{tag}/{i}</c> = i for i = 1..count, printing <c>ACK i</c> after each returns.</summary>
    private static int PutLoop(IKeyValueStore store, string tag, int count)
    {
        for (var i = 1; i <= count; i++)
        {
            store.Put(Key(tag, i), Number(i));
            Console.WriteLine($"ACK {i}");
        }

        return 0;
    }

    /// <summary>Commits batches {pair/a = i, pair/b = i, batch/i = i} for i = 1..count, printing <c>ACK i</c> after each.</summary>
    private static int BatchLoop(IKeyValueStore store, int count)
    {
        var batch = new WriteBatch();
        for (var i = 1; i <= count; i++)
        {
            batch.Clear();
            batch.Put(Utf8("pair/a"), Number(i)).Put(Utf8("pair/b"), Number(i)).Put(Key("batch", i), Number(i));
            store.Write(batch);
            Console.WriteLine($"ACK {i}");
        }

        return 0;
    }

    /// <summary>Scans pair/ until it has seen pair/a = <paramref name="last"/>, failing if a and b ever differ.</summary>
    private static int CheckPairs(IKeyValueStore store, int last)
    {
        var reads = 0;
        var deadline = DateTime.UtcNow.AddSeconds(60);
        while (DateTime.UtcNow < deadline)
        {
            int? a = null, b = null;
            using (var cursor = store.ScanPrefix(Utf8("pair/")))
            {
                while (cursor.MoveNext())
                {
                    var value = BinaryPrimitives.ReadInt32BigEndian(cursor.Value);
                    if (cursor.Key[^1] == (byte)'a')
                    {
                        a = value;
                    }
                    else
                    {
                        b = value;
                    }
                }
            }

            reads++;
            if (a != b)
            {
                Console.WriteLine($"TORN a={a} b={b} after {reads} reads");
                return 1;
            }

            if (a == last)
            {
                Console.WriteLine($"READS {reads}");
                return 0;
            }
        }

        Console.WriteLine($"TIMEOUT after {reads} reads");
        return 1;
    }

    /// <summary>Increments the counter at "counter" <paramref name="count"/> times with compare-and-swap batches.</summary>
    private static int CasIncrement(IKeyValueStore store, int count)
    {
        var counter = Utf8("counter");
        var conflicts = 0;
        for (var done = 0; done < count;)
        {
            var current = store.Get(counter);
            var batch = new WriteBatch();
            if (current is null)
            {
                batch.RequireAbsent(counter).Put(counter, Number(1));
            }
            else
            {
                batch.RequireValue(counter, current).Put(counter, Number(BinaryPrimitives.ReadInt32BigEndian(current) + 1));
            }

            if (store.TryWrite(batch, out _))
            {
                done++;
            }
            else
            {
                conflicts++;
            }
        }

        Console.WriteLine($"DONE conflicts={conflicts}");
        return 0;
    }

    /// <summary>Writes a key, then keeps a scan (its snapshot) open for <paramref name="milliseconds"/>, printing <c>SCANNING</c>.</summary>
    private static int HoldScan(IKeyValueStore store, int milliseconds)
    {
        store.Put(Utf8("held"), Utf8("1"));
        using var cursor = store.ScanPrefix([]);
        cursor.MoveNext();
        Console.WriteLine("SCANNING");
        Thread.Sleep(milliseconds);
        return 0;
    }

    /// <summary>Puts <c>{tag}/{i}</c> = <paramref name="size"/> bytes (i repeated) for i = 1..count, 16 to a batch, printing <c>ACK i</c> after each batch.</summary>
    internal static int Fill(IKeyValueStore store, string tag, int count, int size)
    {
        var batch = new WriteBatch();
        for (var i = 1; i <= count; i++)
        {
            var value = new byte[size];
            Array.Fill(value, (byte)i);
            batch.Put(Key(tag, i), value);
            if (i % 16 == 0 || i == count)
            {
                store.Write(batch);
                batch.Clear();
                Console.WriteLine($"ACK {i}");
            }
        }

        return 0;
    }

    private static int Count(IKeyValueStore store, string prefix)
    {
        Console.WriteLine($"COUNT {store.EnumerateKeys(Utf8(prefix)).Count()}");
        return 0;
    }

    private static int Put(IKeyValueStore store, string key, string value)
    {
        store.Put(Utf8(key), Utf8(value));
        Console.WriteLine("PUT");
        return 0;
    }

    /// <summary>Keeps the store open for <paramref name="milliseconds"/>, after printing <c>HOLDING pid</c>.</summary>
    private static int HoldOpen(IKeyValueStore store, int milliseconds)
    {
        Console.WriteLine($"HOLDING {Environment.ProcessId}");
        Thread.Sleep(milliseconds);
        return 0;
    }

    private static int Unknown(string command)
    {
        Console.Error.WriteLine($"unknown command '{command}'");
        return 2;
    }

    public static byte[] Key(string tag, int i) => [.. Utf8(tag + "/"), .. Number(i)];

    public static byte[] Number(int i)
    {
        var bytes = new byte[4];
        BinaryPrimitives.WriteInt32BigEndian(bytes, i);
        return bytes;
    }

    private static byte[] Utf8(string text) => Encoding.UTF8.GetBytes(text);
}
