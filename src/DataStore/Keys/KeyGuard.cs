using System.Diagnostics.CodeAnalysis;

namespace DataStore;

/// <summary>Argument checks shared by every public entry point; the throw helpers keep hot paths small.</summary>
internal static class KeyGuard
{
    public static void ThrowIfInvalidKey(ReadOnlySpan<byte> key, [System.Runtime.CompilerServices.CallerArgumentExpression(nameof(key))] string? name = null)
    {
        if (key.IsEmpty)
        {
            ThrowEmpty(name, "A key must be at least 1 byte long.");
        }
    }

    public static void ThrowIfInvalidPrefix(ReadOnlySpan<byte> prefix, [System.Runtime.CompilerServices.CallerArgumentExpression(nameof(prefix))] string? name = null)
    {
        if (prefix.IsEmpty)
        {
            ThrowEmpty(name, "DeletePrefix needs a non-empty prefix; to remove every key, use DeleteRange with two empty bounds.");
        }
    }

    public static void ThrowIfInvalidRange(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end)
    {
        if (!start.IsEmpty && !end.IsEmpty && start.SequenceCompareTo(end) > 0)
        {
            ThrowStartAfterEnd();
        }
    }

    public static void ThrowIfNull([NotNull] object? argument, [System.Runtime.CompilerServices.CallerArgumentExpression(nameof(argument))] string? name = null)
    {
        if (argument is null)
        {
            ThrowNull(name);
        }
    }

    [DoesNotReturn]
    private static void ThrowEmpty(string? name, string message) => throw new ArgumentException(message, name);

    [DoesNotReturn]
    private static void ThrowNull(string? name) => throw new ArgumentNullException(name);

    [DoesNotReturn]
    private static void ThrowStartAfterEnd() =>
        throw new ArgumentException("The range start sorts after its end; a range is [start, end) in memcmp order.", "start");
}
