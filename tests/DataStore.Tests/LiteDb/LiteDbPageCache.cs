using System.Reflection;
using LiteDB.Engine;

namespace DataStore.Tests.LiteDb;

/// <summary>
/// Shrinks the page cache of the LiteDB engines opened while it is in scope. LiteDB 5 sizes its cache from the internal
/// <c>Constants.MEMORY_SEGMENT_SIZES</c> when an engine opens and evicts pages only once about 1,660 (13 MB) are cached,
/// so its threading defect (issue 20 part 6) shows on a 1,000,000-key store and not on a small one; with 12-page
/// segments a 20,000-key store evicts as often. Engines opened by other tests meanwhile get the small cache too, which
/// costs them speed only.
/// </summary>
internal sealed class LiteDbPageCache : IDisposable
{
    private static readonly SemaphoreSlim Shrinking = new(1, 1);
    private static readonly FieldInfo Segments = typeof(LiteEngine).Assembly.GetType("LiteDB.Constants")?.GetField("MEMORY_SEGMENT_SIZES")
        ?? throw new MissingFieldException("LiteDB.Constants", "MEMORY_SEGMENT_SIZES");

    private readonly object? _original;

    private LiteDbPageCache(int pagesPerSegment)
    {
        Shrinking.Wait();
        _original = Segments.GetValue(null);
        Segments.SetValue(null, new[] { pagesPerSegment });
    }

    /// <summary>Engines opened until disposal cache pages in segments of <paramref name="pagesPerSegment"/> 8 KiB pages.</summary>
    public static LiteDbPageCache Shrink(int pagesPerSegment) => new(pagesPerSegment);

    public void Dispose()
    {
        Segments.SetValue(null, _original);
        Shrinking.Release();
    }
}
