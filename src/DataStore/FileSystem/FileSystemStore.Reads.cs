using System.Buffers;

namespace DataStore.FileSystem;

// Reads: point reads without a lock (see Find), and scans read whole under the shared lock (see UnderSharedLock in the Maintenance part).
internal sealed partial class FileSystemStore
{
    protected override bool GetCore(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        if (FindValue(key, out var value) != ReadStatus.Found)
        {
            return false;
        }

        destination.Write(value);
        return true;
    }

    protected override int GetCore(ReadOnlySpan<byte> key, Span<byte> destination)
    {
        if (FindValue(key, out var value) != ReadStatus.Found)
        {
            return -1;
        }

        if (value.Length <= destination.Length)
        {
            value.CopyTo(destination);
        }

        return value.Length;
    }

    protected override bool HaveKeyCore(ReadOnlySpan<byte> key) => Find(key, KeyLookup.Mode.Exists, out _) == ReadStatus.Found;

    protected override IKeyValueCursor ScanCore(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end, bool keysOnly)
    {
        var snapshot = new ScanBuffer();
        var from = start.ToArray();
        var to = end.ToArray();
        return UnderSharedLock("scanning", () =>
        {
            TreeWalker.Walk(_layout.Root, from, to, keysOnly, snapshot.Add);
            return new FileSystemCursor(snapshot);
        });
    }

    /// <summary>Reads <paramref name="key"/>'s value; a damaged key file is an error naming the key, never an absent key (ADR 0014).</summary>
    private ReadStatus FindValue(ReadOnlySpan<byte> key, out ReadOnlySpan<byte> value)
    {
        var status = Find(key, KeyLookup.Mode.Value, out value);
        if (status == ReadStatus.Damaged)
        {
            Integrity.PairDamage.Throw(_directory, StoreBackend.FileSystem, key, "its key file is short, has a wrong header or fails its checksum");
        }

        return status;
    }

    /// <summary>Reads <paramref name="key"/> without a lock, retrying when a multi-step change overlapped the read; finally under the shared lock.</summary>
    private ReadStatus Find(ReadOnlySpan<byte> key, KeyLookup.Mode mode, out ReadOnlySpan<byte> value)
    {
        try
        {
            for (var attempt = 0; attempt < 3; attempt++)
            {
                var before = _state.Changes;
                if ((before & 1) == 0)
                {
                    var status = KeyLookup.Find(_layout, key, mode, out value);
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
                        return KeyLookup.Find(_layout, key, mode, out value);
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
