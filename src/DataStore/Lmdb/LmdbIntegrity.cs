using System.Security.Cryptography;

namespace DataStore.Lmdb;

/// <summary>
/// LMDB's file has no checksums, so the check first walks both trees with our own bounds-checked page reader
/// (<see cref="Files.LmdbPageCheck"/>), then walks every record with a cursor in one read transaction (LMDB
/// reports damaged pages it meets on the way), checks the keys ascend, compares the count with <c>mdb_stat</c>'s, and checks each long-key
/// record of ADR 0007: a 490-byte slot whose value holds a whole key longer than 480 bytes that starts with the slot's
/// prefix and hashes to the slot's hash.
/// </summary>
internal static unsafe class LmdbIntegrity
{
    private const int MaxProblems = 100;

    public static IReadOnlyList<string> Check(LmdbEnvironment env, LmdbErrors errors, CancellationToken cancellationToken)
    {
        env.AddCursor(); // held like an open scan: the environment outlives a store disposed during the walk
        try
        {
            return Walk(env, errors, cancellationToken);
        }
        finally
        {
            env.RemoveCursor();
        }
    }

    private static List<string> Walk(LmdbEnvironment env, LmdbErrors errors, CancellationToken cancellationToken)
    {
        var problems = new List<string>();
        var txn = env.BeginRead(errors, out var seat);
        try
        {
            // Our own reader first: LMDB's cursor would abort the process on some of the damage it reports.
            if (Files.LmdbPageCheck.FindDamage(env.Directory, System.IO.Path.Combine(env.Directory, LmdbEnvironment.DataFile), cancellationToken) is { } damage)
            {
                problems.Add(damage);
                env.MarkDamaged(damage);
                return problems;
            }

            errors.Check(LmdbNative.Stat(txn, env.Dbi, out var stat), "reading the database statistics");
            errors.Check(LmdbNative.CursorOpen(txn, env.Dbi, out var cursor), "opening a cursor");
            long walked = 0;
            var previous = new byte[LmdbKeys.SlotLength + 32];
            var previousLength = -1;
            try
            {
                LmdbNative.Val key, data;
                var rc = LmdbNative.CursorGet(cursor, &key, &data, LmdbNative.First);
                while (rc == LmdbNative.Success && problems.Count < MaxProblems)
                {
                    if ((++walked & 4095) == 0)
                    {
                        cancellationToken.ThrowIfCancellationRequested();
                    }

                    if ((ulong)walked > stat.Entries)
                    {
                        // Damaged pages can lead a cursor in circles; the count says the walk has gone wrong.
                        problems.Add($"Walking the database found more records than the {stat.Entries} LMDB's statistics count: its pages are damaged.");
                        break;
                    }

                    var stored = key.Span;
                    if (previousLength >= 0 && stored.SequenceCompareTo(previous.AsSpan(0, previousLength)) <= 0)
                    {
                        problems.Add($"Record {walked} of {stat.Entries} is out of key order: LMDB's pages are damaged.");
                        break;
                    }

                    previousLength = Math.Min(stored.Length, previous.Length);
                    stored[..previousLength].CopyTo(previous);
                    CheckRecord(stored, data.Span, walked, problems);
                    rc = LmdbNative.CursorGet(cursor, &key, &data, LmdbNative.Next);
                }

                if (rc != LmdbNative.Success && rc != LmdbNative.NotFound)
                {
                    problems.Add($"LMDB stopped walking the records after {walked}: {LmdbNative.Describe(rc)} (LMDB code {rc}).");
                }
                else if (problems.Count == 0 && (ulong)walked != stat.Entries)
                {
                    problems.Add($"LMDB's statistics count {stat.Entries} records, but walking the database found {walked}.");
                }
            }
            finally
            {
                LmdbNative.CursorClose(cursor);
            }
        }
        finally
        {
            env.EndRead(seat, txn);
        }

        return problems;
    }

    private static void CheckRecord(ReadOnlySpan<byte> stored, ReadOnlySpan<byte> data, long index, List<string> problems)
    {
        if (!LmdbKeys.IsSlot(stored))
        {
            return;
        }

        if (stored.Length != LmdbKeys.SlotLength)
        {
            problems.Add($"Record {index} has a {stored.Length}-byte key: neither a plain key (at most {LmdbKeys.PlainMax} bytes) nor a long key's {LmdbKeys.SlotLength}-byte slot.");
            return;
        }

        var length = data.Length >= LmdbKeys.HeaderLength ? System.Buffers.Binary.BinaryPrimitives.ReadInt32LittleEndian(data) : -1;
        if (length <= LmdbKeys.PlainMax || length > data.Length - LmdbKeys.HeaderLength)
        {
            problems.Add($"Long-key record {index} holds a key length of {length} that does not fit its {data.Length}-byte value.");
            return;
        }

        var whole = data.Slice(LmdbKeys.HeaderLength, length);
        Span<byte> slot = stackalloc byte[LmdbKeys.SlotLength];
        LmdbKeys.WriteSlot(whole, slot);
        if (!slot[..LmdbKeys.SlotStemLength].SequenceEqual(stored[..LmdbKeys.SlotStemLength]))
        {
            problems.Add($"Long-key record {index}: the whole key it holds ({length} bytes, SHA-256 {Convert.ToHexStringLower(SHA256.HashData(whole))[..16]}…) does not match its slot's prefix and hash.");
        }
    }
}
