namespace DataStore.Sharing;

/// <summary>A peer broke the broker protocol (garbage, an oversized length, a half frame): its connection is dropped.</summary>
internal sealed class BrokerProtocolException(string problem) : IOException($"the peer broke the broker protocol: {problem}")
{
}
