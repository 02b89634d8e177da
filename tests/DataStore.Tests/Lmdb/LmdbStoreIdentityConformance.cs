using DataStore.Tests.Conformance;

namespace DataStore.Tests.Lmdb;

public sealed class LmdbStoreIdentityContract : StoreIdentityContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}
