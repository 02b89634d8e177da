namespace DataStore.Diagnostics;

/// <summary>A store the <c>datastore.size</c> gauge measures (<see cref="StoreSizes"/>): every store DataStore opens.</summary>
internal interface IMeasuredStore
{
    /// <summary>The engine behind the store.</summary>
    StoreBackend Backend { get; }

    /// <summary>The store's directory, whose files are measured.</summary>
    string Path { get; }

    /// <summary>Holds the store open for a measurement, as a call does; false once it is disposed (or being disposed).</summary>
    /// <remarks>Pair each true with <see cref="ExitCall"/>.</remarks>
    bool TryEnterCall();

    /// <summary>Ends the hold taken by <see cref="TryEnterCall"/>.</summary>
    void ExitCall();
}
