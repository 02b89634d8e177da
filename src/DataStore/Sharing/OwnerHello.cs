namespace DataStore.Sharing;

/// <summary>What the owner says about itself when a client connects.</summary>
internal readonly record struct OwnerHello(int ProcessId, StoreCapabilities Capabilities, Durability Durability);
