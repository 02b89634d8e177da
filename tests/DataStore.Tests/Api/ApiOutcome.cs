namespace DataStore.Tests.Api;

/// <summary>
/// What one call did, as a string two stores can be compared by: "ok ..." with what it returned, or "throws ..." with
/// the documented exception family (argument errors by exact type, a DataStoreException by its cause, disposed,
/// cancelled). Any other exception is "UNEXPECTED ...", which fails the fuzz whatever the model did.
/// </summary>
internal static class ApiOutcome
{
    public const string Unexpected = "UNEXPECTED";

    public static string Of(Func<string> call)
    {
        try
        {
            return "ok " + call();
        }
        catch (Exception e)
        {
            return Thrown(e);
        }
    }

    public static string Of(Func<Task<string>> call)
    {
        try
        {
            return "ok " + call().GetAwaiter().GetResult();
        }
        catch (Exception e)
        {
            return Thrown(e);
        }
    }

    /// <summary>The family of a thrown exception, or <see cref="Unexpected"/> with its type and message.</summary>
    public static string Thrown(Exception e) => e switch
    {
        ArgumentException => $"throws argument {e.GetType().Name}",
        PreconditionFailedException failed => $"throws PreconditionFailed {failed.Failure.Index} {Hash(failed.Failure.Key)} {failed.Failure.Kind}",
        DataStoreException store => $"throws DataStoreException {store.Cause}",
        ObjectDisposedException => "throws ObjectDisposedException",
        OperationCanceledException => "throws OperationCanceledException",
        _ => $"{Unexpected} {e.GetType().FullName}: {e.Message}\n{e.StackTrace}",
    };

    /// <summary>Length and content hash of <paramref name="bytes"/> (in-process only: HashCode is seeded per process).</summary>
    public static string Hash(ReadOnlySpan<byte> bytes)
    {
        var hash = new HashCode();
        hash.AddBytes(bytes);
        return $"{bytes.Length}:{hash.ToHashCode():x8}";
    }

    /// <summary>A short printable form of an argument, for the failure message.</summary>
    public static string Show(ReadOnlySpan<byte> bytes) =>
        bytes.Length <= 24 ? Convert.ToHexString(bytes) : $"{Convert.ToHexString(bytes[..12])}..({bytes.Length} bytes)";

    public static string Show(string? text) =>
        text is null ? "null" : text.Length <= 24 ? $"\"{Escape(text)}\"" : $"\"{Escape(text[..12])}..\"({text.Length} chars)";

    private static string Escape(string text) =>
        string.Concat(text.Select(c => char.IsControl(c) || char.IsSurrogate(c) ? $"\\u{(int)c:x4}" : c.ToString()));
}
