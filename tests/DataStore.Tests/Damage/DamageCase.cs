namespace DataStore.Tests.Damage;

/// <summary>How one file of a closed store is damaged.</summary>
public enum DamageKind
{
    /// <summary>The file is cut to <see cref="DamageCase.Offset"/> bytes.</summary>
    Truncate,

    /// <summary><see cref="DamageCase.Length"/> bytes from <see cref="DamageCase.Offset"/> become zeros.</summary>
    Zero,

    /// <summary><see cref="DamageCase.Length"/> bytes from <see cref="DamageCase.Offset"/> have every bit flipped.</summary>
    Flip,
}

/// <summary>One damage applied to one file (named relative to the store directory), at a chosen or a seeded random place.</summary>
public sealed record DamageCase(string File, DamageKind Kind, long Offset, int Length, string Origin)
{
    /// <summary>Damages <see cref="File"/> in the store at <paramref name="store"/>.</summary>
    public void Apply(string store)
    {
        using var stream = new FileStream(Path.Combine(store, File), FileMode.Open, FileAccess.ReadWrite);
        if (Kind == DamageKind.Truncate)
        {
            stream.SetLength(Offset);
            return;
        }

        var bytes = new byte[Length];
        stream.Position = Offset;
        stream.ReadExactly(bytes);
        for (var i = 0; i < bytes.Length; i++)
        {
            bytes[i] = Kind == DamageKind.Zero ? (byte)0 : (byte)~bytes[i];
        }

        stream.Position = Offset;
        stream.Write(bytes);
    }

    public override string ToString() => Kind == DamageKind.Truncate
        ? $"{File}: truncated to {Offset} bytes ({Origin})"
        : $"{File}: {Length} bytes {(Kind == DamageKind.Zero ? "zeroed" : "flipped")} at {Offset} ({Origin})";

    /// <summary>
    /// The cases for one file of <paramref name="length"/> bytes: chosen ones (cut to 0, to half and by its last byte;
    /// its first 4 KiB zeroed; the 4 KiB page in its middle zeroed; one byte flipped in its middle) and
    /// <paramref name="randomCases"/> drawn from <paramref name="random"/>. A file of 0 bytes cannot be damaged: none.
    /// </summary>
    public static IEnumerable<DamageCase> For(string file, long length, Random random, int randomCases)
    {
        if (length == 0)
        {
            yield break;
        }

        var page = (int)Math.Min(4_096, length);
        var middlePage = Math.Min(length / 2 / 4_096 * 4_096, length - page);
        yield return new(file, DamageKind.Truncate, 0, 0, "chosen");
        yield return new(file, DamageKind.Truncate, length / 2, 0, "chosen");
        yield return new(file, DamageKind.Truncate, length - 1, 0, "chosen");
        yield return new(file, DamageKind.Zero, 0, page, "chosen");
        yield return new(file, DamageKind.Zero, middlePage, page, "chosen");
        yield return new(file, DamageKind.Flip, length / 2, 1, "chosen");
        for (var i = 0; i < randomCases; i++)
        {
            var kind = (DamageKind)random.Next(3);
            var offset = random.NextInt64(length);
            var size = (int)Math.Min(length - offset, random.Next(3) switch { 0 => 1, 1 => random.Next(2, 64), _ => 4_096 });
            yield return new(file, kind, offset, kind == DamageKind.Truncate ? 0 : size, "random");
        }
    }
}
