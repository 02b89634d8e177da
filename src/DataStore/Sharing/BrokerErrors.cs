namespace DataStore.Sharing;

/// <summary>
/// Carries an exception thrown in the owner back to the client as the same exception type, cause and detail (renamed
/// to the client's path), so a client sees what the owner's own callers see.
/// </summary>
internal static class BrokerErrors
{
    private enum ErrorType : byte
    {
        DataStore,
        Timeout,
        Format,
        NotSupported,
        InvalidOperation,
        Argument,

        /// <summary>The owner is closing and did not apply the request: send it again to the next owner.</summary>
        OwnerClosing,
    }

    /// <summary>Writes the error answer for <paramref name="error"/>.</summary>
    public static void Write(MessageWriter writer, Exception error)
    {
        var (type, cause) = error switch
        {
            StoreTimeoutException e => (ErrorType.Timeout, e.Cause),
            StoreFormatException e => (ErrorType.Format, e.Cause),
            DataStoreException e => (ErrorType.DataStore, e.Cause),
            ObjectDisposedException => (ErrorType.OwnerClosing, StoreFailure.OwnerChanged),
            NotSupportedException => (ErrorType.NotSupported, StoreFailure.Engine),
            ArgumentException => (ErrorType.Argument, StoreFailure.Engine),
            InvalidOperationException => (ErrorType.InvalidOperation, StoreFailure.Engine),
            _ => (ErrorType.DataStore, StoreFailure.Engine),
        };
        var detail = error is DataStoreException store ? Detail(store) : $"the owner process failed: {error.GetType().Name}: {error.Message}";
        writer.Start(MessageKind.Error).Byte((byte)type).Int32((int)cause).Int64(error is StoreTimeoutException t ? t.Waited.Ticks : 0).Text(detail);
    }

    /// <summary>Writes the answer that tells a client the owner is closing and did not apply its request.</summary>
    public static void WriteClosing(MessageWriter writer) =>
        writer.Start(MessageKind.Error).Byte((byte)ErrorType.OwnerClosing).Int32((int)StoreFailure.OwnerChanged).Int64(0).Text("the owner process is closing the store");

    /// <summary>True when the error answer in <paramref name="message"/> (after its kind byte) says the owner is closing.</summary>
    public static bool IsClosing(ReadOnlySpan<byte> message) => message.Length > 1 && message[1] == (byte)ErrorType.OwnerClosing;

    /// <summary>The exception that the error answer <paramref name="message"/> (starting with its kind byte) describes.</summary>
    public static Exception Read(ReadOnlySpan<byte> message, string path, StoreBackend backend)
    {
        var reader = new MessageReader(message[1..]);
        var type = (ErrorType)reader.Byte();
        var cause = (StoreFailure)reader.Int32();
        var waited = TimeSpan.FromTicks(reader.Int64());
        var detail = reader.Text();
        return type switch
        {
            ErrorType.Timeout => new StoreTimeoutException(path, backend, waited, detail),
            ErrorType.Format => new StoreFormatException(cause, path, backend, detail),
            ErrorType.NotSupported => new NotSupportedException(detail),
            ErrorType.Argument => new ArgumentException(detail),
            ErrorType.InvalidOperation => new InvalidOperationException(detail),
            _ => new DataStoreException(cause, path, backend, detail),
        };
    }

    // The message without the "{backend} store at '{path}': " prefix, which the client puts back with its own path.
    public static string Detail(DataStoreException e)
    {
        var prefix = $"{e.Backend} store at '{e.StorePath}': ";
        return e.Message.StartsWith(prefix, StringComparison.Ordinal) ? e.Message[prefix.Length..] : e.Message;
    }
}
