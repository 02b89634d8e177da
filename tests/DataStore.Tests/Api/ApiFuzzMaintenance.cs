using System.Buffers;
using DataStore.Utf8;

namespace DataStore.Tests.Api;

/// <summary>
/// Draws the long operations (export, verify, compact; backup on the store alone, since the model has no files) with
/// tokens that are sometimes already cancelled, and calls with null arguments, for the public-method fuzz.
/// </summary>
internal sealed class ApiFuzzMaintenance(Random random, ApiFuzzInputs inputs, string scratch)
{
    private int _backups;

    /// <summary>A call run on the model and on the store alike.</summary>
    public ApiFuzzCall Next()
    {
        var cancelled = random.Next(3) == 0;
        var token = new CancellationToken(cancelled);
        return random.Next(5) switch
        {
            0 => new($"ExportAsync(cancelled {cancelled})", s =>
            {
                using var stream = new MemoryStream();
                return Digest(s.ExportAsync(stream, cancellationToken: token).GetAwaiter().GetResult());
            }),
            1 => new($"VerifyAsync(cancelled {cancelled})", s =>
            {
                var report = s.VerifyAsync(cancellationToken: token).GetAwaiter().GetResult();
                return $"{report.IsHealthy} {Digest(report.Digest)} {string.Join("; ", report.Problems)}";
            }),
            2 => new($"CompactAsync(cancelled {cancelled})", s =>
            {
                s.CompactAsync(cancellationToken: token).GetAwaiter().GetResult();
                return "";
            }),
            3 => new("Compact()", s =>
            {
                s.Compact();
                return "";
            }),
            _ => Null(),
        };
    }

    /// <summary>A backup to a new, hostile or already used destination; run on the store only. The destination is returned so the caller can check it.</summary>
    public (string Name, string? Destination, Func<IKeyValueStore, string> Run) Backup(string storePath)
    {
        var cancelled = random.Next(4) == 0;
        var fresh = Path.Combine(scratch, $"backup-{_backups++}");
        var (name, destination) = random.Next(8) switch
        {
            0 => ("the store itself", storePath),
            1 => ("inside the store", Path.Combine(storePath, "inner")),
            2 => ("a NUL in the path", fresh + "\0x"),
            3 => ("a 5,000-character path", Path.Combine(scratch, new string('p', 5000))),
            4 => ("a 300-character name", Path.Combine(scratch, new string('n', 300))),
            5 => ("an existing file", ExistingFile()),
            _ => ("a new directory", fresh),
        };
        return ($"BackupAsync({name}, cancelled {cancelled})", destination == fresh ? fresh : null, s =>
        {
            var result = s.BackupAsync(destination, cancellationToken: new CancellationToken(cancelled)).GetAwaiter().GetResult();
            return result.Path;
        });
    }

    private string ExistingFile()
    {
        var file = Path.Combine(scratch, "a-file");
        File.WriteAllBytes(file, [1, 2, 3]);
        return file;
    }

    private ApiFuzzCall Null()
    {
        var key = inputs.Key();
        return random.Next(10) switch
        {
            0 => new("Write(null)", s => Run(() => s.Write(null!))),
            1 => new("TryWrite(null)", s => s.TryWrite(null!, out _).ToString()),
            2 => new("Get(key, null writer)", s => s.Get(key, (IBufferWriter<byte>)null!).ToString()),
            3 => new("Put(null string, value)", s => Run(() => s.Put(null!, "v"))),
            4 => new("Put(key, null string)", s => Run(() => s.Put("k", null!))),
            5 => new("GetString(null)", s => s.GetString(null!) ?? "null"),
            6 => new("HaveKey(null string)", s => s.HaveKey((string)null!).ToString()),
            7 => new("Delete(null string)", s => Run(() => s.Delete((string)null!))),
            8 => new("EnumeratePrefix(null string)", s => s.EnumeratePrefix((string)null!).Count().ToString()),
            _ => new("ExportAsync(null stream)", s => Digest(s.ExportAsync(null!).GetAwaiter().GetResult())),
        };
    }

    private static string Run(Action call)
    {
        call();
        return "";
    }

    private static string Digest(StoreDigest digest) => $"{digest.Pairs} {digest.Bytes} {digest.Checksum}";
}
