namespace DataStore.Sharing;

internal sealed partial class SharedStore
{
    /// <summary>The engine's own integrity check, always run by the owner: here when this process owns the store, else asked of the owner.</summary>
    internal override IReadOnlyList<string> CheckIntegrityCore(CancellationToken cancellationToken)
    {
        while (true)
        {
            using var call = Begin(MessageKind.CheckIntegrity);
            if (call.Engine is { } engine)
            {
                return CheckEngine(engine, cancellationToken);
            }

            if (Send(call, write: false))
            {
                return ReadProblems(call.Answer);
            }
        }
    }

    /// <summary>The owner's side: the engine's check (every engine the library opens is a <see cref="KeyValueStoreBase"/>).</summary>
    internal static IReadOnlyList<string> CheckEngine(IKeyValueStore engine, CancellationToken cancellationToken) =>
        engine is KeyValueStoreBase own ? own.CheckIntegrityCore(cancellationToken) : [];

    /// <summary>An integrity answer: the number of problems, then each as text.</summary>
    internal static void WriteProblems(MessageWriter answer, IReadOnlyList<string> problems)
    {
        answer.Start(MessageKind.Ok).Int32(problems.Count);
        foreach (var problem in problems)
        {
            answer.Text(problem);
        }
    }

    private static List<string> ReadProblems(ReadOnlySpan<byte> answer)
    {
        var reader = new MessageReader(answer);
        var count = reader.Int32();
        var problems = new List<string>(Math.Min(count, 1_000));
        for (var i = 0; i < count; i++)
        {
            problems.Add(reader.Text());
        }

        return problems;
    }
}
