namespace DataStore.Sharing;

/// <summary>The connection to the owner failed; <see cref="Sent"/> says whether the owner may have received the whole request.</summary>
internal sealed class BrokerLostException(bool sent, Exception? innerException)
    : IOException(sent ? "the owner went away after receiving the request" : "the owner went away before receiving the request", innerException)
{
    /// <summary>True when the request was sent in full, so the owner may have applied it.</summary>
    public bool Sent { get; } = sent;
}
