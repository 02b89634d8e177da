namespace DataStore.Sharing;

/// <summary>
/// One operation of a <see cref="SharedStore"/>: the engine when this process owns the store, else a connection
/// rented from the owner's client with the request begun; disposing it gives the connection back.
/// </summary>
internal readonly struct RemoteCall(IKeyValueStore? engine, BrokerClient? client, BrokerConnection? connection) : IDisposable
{
    /// <summary>The engine, when this process owns the store.</summary>
    public IKeyValueStore? Engine { get; } = engine;

    public BrokerClient Client => client!;

    public BrokerConnection Connection => connection!;

    /// <summary>The request being built (client role only).</summary>
    public MessageWriter Request => connection!.Request;

    /// <summary>The answer's payload after its kind byte, once the call succeeded.</summary>
    public ReadOnlySpan<byte> Answer => connection!.Answer[1..];

    public void Dispose()
    {
        if (connection is not null)
        {
            client!.Return(connection);
        }
    }
}
