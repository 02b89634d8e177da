using System.Buffers.Binary;
using DataStore.Integrity;

namespace DataStore.RocksDb;

/// <summary>
/// Where RocksDB's WAL reader passed over lost bytes without a word (<see cref="File"/> is an index into the files walked),
/// the sequence number the records before it lead to (0 when none came before it) and the one the record after it has.
/// </summary>
internal readonly record struct RocksDbWalCut(int File, long Offset, ulong Expected, ulong Found);

/// <summary>
/// Walks RocksDB's WAL files as its reader does and finds the hole it does not report: a record header of zeros, which the
/// reader takes for preallocated space and skips with the rest of its 32 KiB block, followed by records that do not go
/// on from the sequence before it. A Relaxed store's unsynced tail has one when a power loss kept a later block of it and
/// lost an earlier one from a record's start; every recovery mode then replays the later writes without the earlier ones.
/// </summary>
/// <remarks>
/// The format (RocksDB's <c>db/log_format.h</c>): 32 KiB blocks of records, each a 7-byte header (masked CRC-32C of the
/// type and data, 16-bit length, type) and its data; a logical record is one Full record or First, Middle..., Last. Each
/// logical record is a write batch, whose first 12 bytes are its sequence number and its count of operations. The walk
/// stops where RocksDB would report damage (its own check answers there), and at anything it does not read: recycled or
/// compressed WALs, which DataStore does not configure.
/// </remarks>
internal sealed class RocksDbWalWalk
{
    public const int BlockSize = 32 * 1024;
    private const int HeaderSize = 7;
    private const int BatchHeaderSize = 12;
    private const byte ZeroType = 0, FullType = 1, FirstType = 2, MiddleType = 3, LastType = 4, TimestampSizeType = 10;
    private const byte SafeToIgnore = 0x80;
    private const uint MaskDelta = 0xa282ead8;

    private readonly byte[] _block = new byte[BlockSize];
    private readonly byte[] _batchHeader = new byte[BatchHeaderSize];
    private int _batchHeaderLength;
    private bool _inRecord;
    private long _recordStart;
    private ulong _next;
    private (int File, long Offset)? _passedOver;

    /// <summary>The first hole found, or null.</summary>
    public RocksDbWalCut? Cut { get; private set; }

    /// <summary>Walks the next WAL file (in the order RocksDB replays them); false once the walk is over.</summary>
    public bool WalkFile(int file, Stream wal)
    {
        _inRecord = false;
        long blockStart = 0;
        int read;
        while ((read = wal.ReadAtLeast(_block, BlockSize, throwOnEndOfStream: false)) > 0)
        {
            var at = 0;
            for (; read - at >= HeaderSize; at += HeaderSize + BinaryPrimitives.ReadUInt16LittleEndian(_block.AsSpan(at + 4)))
            {
                var length = BinaryPrimitives.ReadUInt16LittleEndian(_block.AsSpan(at + 4));
                var type = _block[at + 6];
                if (type == ZeroType && length == 0)
                {
                    if (_inRecord)
                    {
                        return false; // "error in middle of record"
                    }

                    _passedOver ??= (file, blockStart + at);
                    at = read;
                    break;
                }

                if (at + HeaderSize + length > read)
                {
                    return read < BlockSize && PassOver(file, _inRecord ? _recordStart : blockStart + at); // a torn last record, dropped at the end of a file
                }

                var data = _block.AsSpan(at + HeaderSize, length);
                var crc = Crc32C.Finish(Crc32C.Append(Crc32C.Append(Crc32C.Seed, [type]), data));
                if (Unmask(BinaryPrimitives.ReadUInt32LittleEndian(_block.AsSpan(at))) != crc || !Fragment(blockStart + at, type, data))
                {
                    return false;
                }

                if (Cut is not null)
                {
                    return false;
                }
            }

            if (read < BlockSize)
            {
                return !_inRecord || PassOver(file, _recordStart);
            }

            blockStart += read;
        }

        return !_inRecord || PassOver(file, _recordStart);
    }

    // One physical record; false where RocksDB reports damage or the walk cannot follow.
    private bool Fragment(long offset, byte type, ReadOnlySpan<byte> data)
    {
        switch (type)
        {
            case FullType or FirstType:
                if (_inRecord && _batchHeaderLength > 0)
                {
                    return false; // "partial record without end"
                }

                (_inRecord, _recordStart, _batchHeaderLength) = (true, offset, 0);
                Gather(data);
                return type == FirstType || Complete();
            case MiddleType or LastType:
                if (!_inRecord)
                {
                    return false; // "missing start of fragmented record"
                }

                Gather(data);
                return type == MiddleType || Complete();
            default:
                return type == TimestampSizeType || (type & SafeToIgnore) != 0;
        }
    }

    private void Gather(ReadOnlySpan<byte> data)
    {
        var take = Math.Min(data.Length, BatchHeaderSize - _batchHeaderLength);
        data[..take].CopyTo(_batchHeader.AsSpan(_batchHeaderLength));
        _batchHeaderLength += take;
    }

    // A whole write batch: after bytes passed over, it must go on from the one before.
    private bool Complete()
    {
        _inRecord = false;
        if (_batchHeaderLength < BatchHeaderSize)
        {
            return false; // "log record too small"
        }

        var sequence = BinaryPrimitives.ReadUInt64LittleEndian(_batchHeader);
        var count = BinaryPrimitives.ReadUInt32LittleEndian(_batchHeader.AsSpan(8));
        if (_passedOver is { } skipped && (_next == 0 || sequence > _next))
        {
            // With no record before it, the lost bytes began the WAL: RocksDB writes whole records from its start.
            Cut = new RocksDbWalCut(skipped.File, skipped.Offset, _next, sequence);
            return true;
        }

        (_next, _passedOver) = (sequence + count, null);
        return true;
    }

    private bool PassOver(int file, long offset)
    {
        _passedOver ??= (file, offset);
        _inRecord = false;
        return true;
    }

    private static uint Unmask(uint masked)
    {
        var rotated = masked - MaskDelta;
        return (rotated >> 17) | (rotated << 15);
    }
}
