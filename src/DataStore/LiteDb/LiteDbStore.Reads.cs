using System.Buffers;

namespace DataStore.LiteDb;

// Point reads: one turn at the engine gate each; read again when Compact replaced the engine or an overwrite removed a value's chunks.
internal sealed partial class LiteDbStore
{
    private const int GetAttempts = 100;

    protected override bool GetCore(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        for (var attempt = 0; ; attempt++)
        {
            var db = _db;
            var doc = Read(db, key, "Get", static (table, key) => table.Find(key.First));
            if (doc is null)
            {
                return false;
            }

            if (!LiteDbTable.IsChunked(doc))
            {
                destination.Write(Checked(db, doc, key, LiteDbTable.InlineValue(doc)));
                return true;
            }

            var length = LiteDbTable.ValueLength(doc);
            var span = destination.GetSpan(length)[..length];
            if (Copy(db, doc, span, attempt))
            {
                Checked(db, doc, key, span);
                destination.Advance(length);
                return true;
            }
        }
    }

    protected override int GetCore(ReadOnlySpan<byte> key, Span<byte> destination)
    {
        for (var attempt = 0; ; attempt++)
        {
            var db = _db;
            var doc = Read(db, key, "Get", static (table, key) => table.Find(key.First));
            if (doc is null)
            {
                return -1;
            }

            var length = LiteDbTable.ValueLength(doc);
            if (length > destination.Length)
            {
                return length;
            }

            if (!LiteDbTable.IsChunked(doc))
            {
                Checked(db, doc, key, LiteDbTable.InlineValue(doc)).CopyTo(destination);
                return length;
            }

            if (Copy(db, doc, destination, attempt))
            {
                Checked(db, doc, key, destination[..length]);
                return length;
            }
        }
    }

    protected override bool HaveKeyCore(ReadOnlySpan<byte> key) => Read(_db, key, "HaveKey", static (table, key) => table.Contains(key.First));

    // A read that fails because Compact replaced the engine under it runs again; so does one whose engine LiteDB
    // stopped (once, on a fresh engine: a damaged file fails again and is reported).
    private T Read<T>(LiteDbEngine db, ReadOnlySpan<byte> key, string operation, Func<LiteDbTable, LiteDbSpans, T> read)
    {
        var reopened = false;
        while (true)
        {
            try
            {
                using var turn = _engine.Engine();
                return read(db.Table, new LiteDbSpans(key, default));
            }
            catch (Exception e) when (LiteDbErrors.IsStoreFailure(e) || e is ObjectDisposedException)
            {
                if (!ReferenceEquals(db, _db) && !IsDisposed)
                {
                    db = _db;
                    continue;
                }

                if (IsDisposed)
                {
                    throw e is ObjectDisposedException ? e : _errors.Translate(e, operation);
                }

                if (reopened || !LiteDbErrors.StopsEngine(e) || !TryReopen(db, e))
                {
                    throw _errors.Translate(e, operation);
                }

                reopened = true;
                db = _db;
            }
        }
    }

    // A value read for key, checked against its document's checksum (ADR 0014).
    private ReadOnlySpan<byte> Checked(LiteDbEngine db, LiteDB.BsonDocument doc, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        if (!db.Table.Matches(doc, key, value))
        {
            Integrity.PairDamage.Throw(_directory, StoreBackend.LiteDb, key, "its value does not match its checksum");
        }

        return value;
    }

    // Copies a chunked value; false when a concurrent overwrite removed its chunks (the caller reads the key again).
    private bool Copy(LiteDbEngine db, LiteDB.BsonDocument doc, Span<byte> destination, int attempt)
    {
        bool copied;
        try
        {
            using var turn = _engine.Engine();
            copied = db.Table.TryCopyValue(doc, destination);
        }
        catch (Exception e) when ((LiteDbErrors.IsStoreFailure(e) || e is ObjectDisposedException) && !ReferenceEquals(db, _db) && !IsDisposed)
        {
            return false; // Compact replaced the engine: read the key again
        }
        catch (Exception e) when (LiteDbErrors.IsStoreFailure(e))
        {
            throw _errors.Translate(e, "Get");
        }

        if (!copied && attempt >= GetAttempts)
        {
            throw new StoreFormatException(StoreFailure.Corrupt, _directory, StoreBackend.LiteDb,
                $"the chunks of a {destination.Length}-byte value stayed missing over {GetAttempts} reads.");
        }

        return copied;
    }
}
