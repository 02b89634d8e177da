namespace DataStore.Configuration;

/// <summary>One AddDataStore or AddKeyedDataStore call: the store's name (empty for the unkeyed store).</summary>
internal sealed record DataStoreRegistration(string Name);
