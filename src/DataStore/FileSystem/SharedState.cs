using System.IO.MemoryMappedFiles;
using System.Security.Cryptography;
using System.Text;

namespace DataStore.FileSystem;

/// <summary>
/// The store's file <c>state</c>, mapped into every process that opens the store: a change counter that is odd
/// while a multi-step change (a batch, a split, a range delete) is being applied, so lock-free point reads can
/// tell they overlapped one; a layout generation bumped by every split; the number of the last write that kept
/// pre-images for streaming scans (ADR 0022); and a table of estimated entry counts per leaf directory, which only
/// ever over-estimates while the machine stays up (a boot stamp resets it after a reboot).
/// </summary>
internal sealed unsafe class SharedState : IDisposable
{
    private const ulong Magic = 0x3154535346534444; // "DDSFSST1"
    private const int HeaderSize = 64;
    private const int Slots = 1 << 16;
    private const int SlotSize = 16;
    private const long FileSize = HeaderSize + ((long)Slots * SlotSize);

    private readonly FileStream _file;
    private readonly MemoryMappedFile _map;
    private readonly MemoryMappedViewAccessor _view;
    private readonly byte* _base;

    private SharedState(FileStream file, MemoryMappedFile map, MemoryMappedViewAccessor view)
    {
        _file = file;
        _map = map;
        _view = view;
        byte* pointer = null;
        view.SafeMemoryMappedViewHandle.AcquirePointer(ref pointer);
        _base = pointer + view.PointerOffset;
    }

    private ref long Header(int index) => ref *(long*)(_base + (index * 8));

    /// <summary>Odd while a multi-step change is being applied; read before and after a lock-free read.</summary>
    public long Changes => Volatile.Read(ref Header(1));

    /// <summary>Bumped by every split: a process's cached layout is valid while this is unchanged.</summary>
    public long LayoutGeneration => Volatile.Read(ref Header(2));

    private long CountEpoch => Volatile.Read(ref Header(3));

    /// <summary>The number of the last write that kept pre-images for open streaming scans (<see cref="PreImages"/>).</summary>
    public long ScanCommits => Volatile.Read(ref Header(7));

    public static SharedState Open(string path)
    {
        var file = new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.ReadWrite | FileShare.Delete, 1, FileOptions.None);
        try
        {
            if (file.Length < FileSize)
            {
                file.SetLength(FileSize);
            }

            var map = MemoryMappedFile.CreateFromFile(file, null, FileSize, MemoryMappedFileAccess.ReadWrite, HandleInheritability.None, leaveOpen: true);
            var view = map.CreateViewAccessor(0, FileSize, MemoryMappedFileAccess.ReadWrite);
            return new SharedState(file, map, view);
        }
        catch
        {
            file.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Checks the header after open (holding the write lock): initialises a new or damaged file and resets the counts after a
    /// reboot. Returns true in both cases: no process of this boot had the store open, so a power loss may have come since.
    /// </summary>
    public bool Validate()
    {
        var boot = BootStamp();
        if ((ulong)Header(0) != Magic)
        {
            new Span<byte>(_base, HeaderSize).Clear();
            Header(4) = boot;
            Volatile.Write(ref Header(0), (long)Magic);
            return true;
        }

        if (Header(4) != boot)
        {
            // A reboot (perhaps a power loss): counts written since the last sync may be lost, so forget them all.
            Header(4) = boot;
            Interlocked.Increment(ref Header(3));
            return true;
        }

        return false;
    }

    /// <summary>Marks the start of a multi-step change (the counter becomes odd).</summary>
    public void BeginChange()
    {
        if ((Changes & 1) == 0)
        {
            Interlocked.Increment(ref Header(1));
        }
    }

    /// <summary>Marks the end of a multi-step change (the counter becomes even).</summary>
    public void EndChange()
    {
        if ((Changes & 1) == 1)
        {
            Interlocked.Increment(ref Header(1));
        }
    }

    public void BumpLayout() => Interlocked.Increment(ref Header(2));

    /// <summary>Numbers a write that keeps pre-images; call holding the write lock.</summary>
    public long NextScanCommit() => Interlocked.Increment(ref Header(7));

    /// <summary>The estimated entry count of the leaf directory of <paramref name="prefix"/>, or -1 when unknown.</summary>
    public int EstimatedCount(ReadOnlySpan<byte> prefix)
    {
        var (slot, tag) = Slot(prefix);
        return *(long*)slot == tag && *(int*)(slot + 12) == (int)CountEpoch ? *(int*)(slot + 8) : -1;
    }

    /// <summary>Records the (estimated) entry count of the leaf directory of <paramref name="prefix"/>; call holding the write lock.</summary>
    public void SetCount(ReadOnlySpan<byte> prefix, int count)
    {
        var (slot, tag) = Slot(prefix);
        *(long*)slot = tag;
        *(int*)(slot + 8) = count;
        *(int*)(slot + 12) = (int)CountEpoch;
    }

    /// <summary>Forgets the count of <paramref name="prefix"/>'s directory (split or removed).</summary>
    public void ForgetCount(ReadOnlySpan<byte> prefix)
    {
        var (slot, tag) = Slot(prefix);
        if (*(long*)slot == tag)
        {
            *(long*)slot = 0;
        }
    }

    private (nint Slot, long Tag) Slot(ReadOnlySpan<byte> prefix)
    {
        var hash = 14695981039346656037UL;
        foreach (var b in prefix)
        {
            hash = (hash ^ b) * 1099511628211UL;
        }

        hash ^= (ulong)prefix.Length * 0x9E3779B97F4A7C15UL;
        var index = (int)((hash >> 40) & (Slots - 1));
        return ((nint)(_base + HeaderSize + (index * SlotSize)), (long)(hash | 1));
    }

    private static long BootStamp()
    {
        string identity;
        try
        {
            identity = File.Exists("/proc/sys/kernel/random/boot_id")
                ? File.ReadAllText("/proc/sys/kernel/random/boot_id").Trim()
                : ((DateTime.UtcNow.Ticks - (Environment.TickCount64 * TimeSpan.TicksPerMillisecond)) / TimeSpan.TicksPerMinute).ToString(System.Globalization.CultureInfo.InvariantCulture);
        }
        catch (IOException)
        {
            identity = "unknown";
        }

        return BitConverter.ToInt64(SHA256.HashData(Encoding.UTF8.GetBytes(identity)));
    }

    public void Dispose()
    {
        _view.SafeMemoryMappedViewHandle.ReleasePointer();
        _view.Dispose();
        _map.Dispose();
        _file.Dispose();
    }
}
