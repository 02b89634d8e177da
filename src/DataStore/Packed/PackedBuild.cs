namespace DataStore.Packed;

/// <summary>
/// Builds a packed file from pairs in any order, in bounded memory. While the input arrives in ascending key order
/// it streams straight into the file; from the first pair out of order on, pairs gather in a <see cref="PairArena"/>
/// that is sorted and spilled as a run whenever it reaches the memory budget, and the runs (the sorted prefix
/// already written being the first) are merged into the file at the end.
/// </summary>
internal sealed class PackedBuild(string directory, long memoryBudget, ProgressThrottle progress, CancellationToken cancellationToken)
{
    private readonly List<string> _runs = [];
    private readonly PairArena _arena = new();
    private string? _runDirectory;
    private long _read;
    private long _bytes;

    /// <summary>Reads every pair of <paramref name="source"/> and writes the sorted file to <paramref name="staging"/>; returns the pairs written.</summary>
    /// <exception cref="ArgumentException">A key or value is out of bounds, or a key appears twice.</exception>
    public long Run(IPairSource source, string staging, long? totalPairs)
    {
        try
        {
            var writer = new PackedWriter(staging);
            try
            {
                writer = Read(source, writer, staging, totalPairs);
                if (_runs.Count > 0 || _arena.Count > 0)
                {
                    Spill();
                    _arena.Release();
                    Merge(writer);
                }

                writer.Finish();
                progress.ReportNow(StorePhase.Copying, writer.Pairs, writer.PayloadBytes, writer.Pairs);
                return writer.Pairs;
            }
            finally
            {
                writer.Dispose();
            }
        }
        finally
        {
            if (_runDirectory is not null)
            {
                Directory.Delete(_runDirectory, recursive: true);
            }
        }
    }

    private PackedWriter Read(IPairSource source, PackedWriter writer, string staging, long? totalPairs)
    {
        var streaming = true;
        while (source.TryRead(out var key, out var value))
        {
            CheckBounds(key, value);
            if ((++_read & 0x3FF) == 0)
            {
                cancellationToken.ThrowIfCancellationRequested();
            }

            _bytes += key.Length + value.Length;
            progress.Report(StorePhase.Copying, _read, _bytes, totalPairs);
            if (streaming && (writer.Pairs == 0 || key.SequenceCompareTo(writer.LastKey) >= 0))
            {
                writer.Add(key, value); // an equal key throws there: duplicates are an error
                continue;
            }

            if (streaming)
            {
                // The sorted prefix written so far becomes the first run; the final file starts afresh.
                streaming = false;
                writer.Finish();
                writer.Dispose();
                File.Move(staging, NextRunPath());
                writer = new PackedWriter(staging);
            }

            _arena.Add(key, value);
            if (_arena.Bytes >= memoryBudget)
            {
                Spill();
            }
        }

        return writer;
    }

    private void Spill()
    {
        if (_arena.Count == 0)
        {
            return;
        }

        using (var run = new PackedWriter(NextRunPath(), spilledRun: true))
        {
            _arena.WriteSorted(run, cancellationToken);
            run.Finish();
        }

        _arena.Clear();
    }

    private void Merge(PackedWriter writer)
    {
        var readers = new List<PackedRunReader>(_runs.Count);
        try
        {
            foreach (var run in _runs)
            {
                var reader = new PackedRunReader(run);
                readers.Add(reader);
                if (!reader.MoveNext())
                {
                    readers.Remove(reader);
                    reader.Dispose();
                }
            }

            // A linear pick of the smallest head: the run count stays small (input size / memory budget).
            while (readers.Count > 0)
            {
                var smallest = 0;
                for (var i = 1; i < readers.Count; i++)
                {
                    if (readers[i].Key.SequenceCompareTo(readers[smallest].Key) < 0)
                    {
                        smallest = i;
                    }
                }

                var next = readers[smallest];
                writer.Add(next.Key, next.Value);
                if ((writer.Pairs & 0x3FF) == 0)
                {
                    cancellationToken.ThrowIfCancellationRequested();
                    progress.Report(StorePhase.Copying, writer.Pairs, writer.PayloadBytes, _read);
                }

                if (!next.MoveNext())
                {
                    readers.RemoveAt(smallest);
                    next.Dispose();
                }
            }
        }
        finally
        {
            readers.ForEach(r => r.Dispose());
        }
    }

    private string NextRunPath()
    {
        _runDirectory ??= Directory.CreateDirectory(Path.Combine(directory, $"pack-runs.{Environment.ProcessId}.{Guid.NewGuid():N}.tmp")).FullName;
        var path = Path.Combine(_runDirectory, $"run-{_runs.Count}.packed");
        _runs.Add(path);
        return path;
    }

    private static void CheckBounds(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        if (key.IsEmpty || key.Length > PackedFormat.MaxKeyLength)
        {
            throw new ArgumentException($"A key must be 1 byte to 1 MiB long; one is {key.Length} bytes.", nameof(key));
        }

        if (value.Length > PackedFormat.MaxValueLength)
        {
            throw new ArgumentException($"A value must be at most 256 MiB long; the value of {PackedKeys.Describe(key)} is {value.Length} bytes.", nameof(value));
        }
    }
}
