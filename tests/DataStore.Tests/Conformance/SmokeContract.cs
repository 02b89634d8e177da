namespace DataStore.Tests.Conformance;

/// <summary>A first check that a backend opens, writes and reads; the full rules live in their own classes.</summary>
public abstract class SmokeContract : StoreContract
{
    [Fact]
    public void Put_then_Get_returns_the_value()
    {
        var store = Open();
        store.Put([1, 2, 3], [4, 5]);
        Assert.Equal([4, 5], store.Get([1, 2, 3]));
    }
}

public sealed class InMemorySmokeContract : SmokeContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

public sealed class SqliteSmokeContract : SmokeContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}
