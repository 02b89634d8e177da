using System.Buffers;

namespace DataStore.FileSystem;

// Reads: point reads without a lock (see Find), and scans in chunks under the shared lock (see UnderSharedLock in the Maintenance part).
internal sealed partial class FileSystemStore
{
    /// <summary>A scan's first chunk holds at most this many pairs (short scans end in it); each later one twice the last, up to <see cref="ChunkPairs"/>.</summary>
    private const int FirstScanPairs = 128;

    // Get reads the value straight into the caller's buffer (ValueTarget): nothing is allocated or copied on the way, whatever its size.
    protected override bool GetCore(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        var target = new ValueTarget(key, destination);
        if (FindValue(key, ref target) != ReadStatus.Found)
        {
            return false;
        }

        target.Commit();
        return true;
    }

    protected override int GetCore(ReadOnlySpan<byte> key, Span<byte> destination)
    {
        var target = new ValueTarget(key, destination);
        return FindValue(key, ref target) == ReadStatus.Found ? target.Length : -1;
    }

    protected override bool HaveKeyCore(ReadOnlySpan<byte> key)
    {
        var none = default(ValueTarget);
        return Find(key, KeyLookup.Mode.Exists, ref none) == ReadStatus.Found;
    }

    /// <summary>
    /// Reads the scan's first chunk at once; a longer range is read on in chunks under the shared lock, the scan
    /// registered so that writers keep the pre-images it needs to stay a snapshot (ADR 0022).
    /// </summary>
    protected override IKeyValueCursor ScanCore(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end, bool keysOnly)
    {
        var first = new ScanBuffer();
        var from = start.ToArray();
        var to = end.ToArray();
        return UnderSharedLock("scanning", () =>
        {
            var next = ReadChunk(from, to, first, keysOnly, FirstScanPairs);
            if (next is null)
            {
                return new ChunkedCursor(NoMoreChunks, first, null);
            }

            ScanRegistration registration;
            try
            {
                registration = ScanRegistration.Register(_directory);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                // A store this process may not write to (read-only media, permissions): read the rest now, as one snapshot.
                TreeWalker.Walk(_layout.Root, next, to, keysOnly, first.Add);
                return new ChunkedCursor(NoMoreChunks, first, null);
            }

            return new ChunkedCursor(ReadOn(to, keysOnly), first, next, registration);
        });
    }

    /// <summary>Reads a registered scan's later chunks, each merged with the pre-images writers kept since it opened (call holding the shared lock).</summary>
    private Func<byte[], (ScanBuffer, byte[]?)> ReadOn(byte[] to, bool keysOnly)
    {
        var overlay = new PreImageOverlay(_directory, _state.ScanCommits, keysOnly);
        var size = FirstScanPairs;
        return position => UnderSharedLock("scanning", () =>
        {
            size = Math.Min(ChunkPairs, size * 2);
            var disk = new ScanBuffer();
            var following = ReadChunk(position, to, disk, keysOnly, size);
            return (overlay.Apply(disk, position, following ?? to), following);
        });
    }

    // A cursor whose first chunk ended its range never reads another (a static method, so no closure keeps that chunk alive).
    private static (ScanBuffer, byte[]?) NoMoreChunks(byte[] from) => throw new InvalidOperationException("the scan has no chunk after its last");

    /// <summary>Reads <paramref name="key"/>'s value into <paramref name="target"/>; a damaged key file is an error naming the key, never an absent key (ADR 0014).</summary>
    private ReadStatus FindValue(ReadOnlySpan<byte> key, scoped ref ValueTarget target)
    {
        var status = Find(key, KeyLookup.Mode.Value, ref target);
        if (status == ReadStatus.Damaged)
        {
            Integrity.PairDamage.Throw(_directory, StoreBackend.FileSystem, key, $"its key file {KeyLookup.FileOf(_layout, key)} is short, has a wrong header or fails its checksum");
        }

        return status;
    }

    /// <summary>Reads <paramref name="key"/> without a lock, retrying when a multi-step change overlapped the read; finally under the shared lock.</summary>
    private ReadStatus Find(ReadOnlySpan<byte> key, KeyLookup.Mode mode, scoped ref ValueTarget target)
    {
        try
        {
            for (var attempt = 0; attempt < 3; attempt++)
            {
                var before = _state.Changes;
                if ((before & 1) == 0)
                {
                    var status = KeyLookup.Find(_layout, key, mode, ref target, out _);
                    if (_state.Changes == before)
                    {
                        return status;
                    }
                }

                Thread.Yield();
            }

            while (true)
            {
                var pair = _locks.EnterRead();
                try
                {
                    if ((_state.Changes & 1) == 0)
                    {
                        return KeyLookup.Find(_layout, key, mode, ref target, out _);
                    }
                }
                finally
                {
                    _locks.ExitRead(pair);
                }

                RecoverNow();
            }
        }
        catch (Exception e) when (FileSystemErrors.IsFileSystemError(e))
        {
            throw FileSystemErrors.Wrap(_directory, "reading", e);
        }
    }
}
