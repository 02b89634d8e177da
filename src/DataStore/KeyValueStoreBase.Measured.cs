using DataStore.Diagnostics;

namespace DataStore;

/// <summary>What the size gauge asks of every store (<see cref="IMeasuredStore"/>).</summary>
internal abstract partial class KeyValueStoreBase : IMeasuredStore
{
    bool IMeasuredStore.TryEnterCall() => TryEnterCall();

    void IMeasuredStore.ExitCall() => ExitCall();
}
