namespace DataStore;

/// <summary>One change a commit made: a key put or deleted, or a range of keys deleted.</summary>
/// <param name="Kind">Put, Delete or DeleteRange.</param>
/// <param name="Key">The key, or the range's first key.</param>
/// <param name="End">The range's end (exclusive, empty for open); empty for Put and Delete.</param>
/// <remarks>The feed names keys, not values: a subscriber reads the values it needs from the store.</remarks>
public sealed record KeyChange(KeyChangeKind Kind, byte[] Key, byte[] End);
