using System.Diagnostics.CodeAnalysis;

namespace DataStore.Lmdb;

/// <summary>
/// An LMDB result code inside the backend, before it becomes a <see cref="DataStoreException"/>: the write loop
/// catches <see cref="LmdbNative.MapFull"/> to grow the map and retry; every other code is translated by
/// <see cref="LmdbErrors"/>. Never leaves the backend.
/// </summary>
internal sealed class LmdbException(int code) : Exception(LmdbNative.Describe(code))
{
    public int Code => code;

    public static void Check(int rc)
    {
        if (rc != LmdbNative.Success)
        {
            Throw(rc);
        }
    }

    [DoesNotReturn]
    public static void Throw(int rc) => throw new LmdbException(rc);
}
