using System.Buffers.Binary;
using System.Text;

namespace DataStore.Tests.PowerLoss;

/// <summary>What a record of the shim's log (powerloss-shim.c, <c>enum kind</c>) stands for.</summary>
public enum LogKind
{
    Open = 1, Close, Write, Truncate, Fallocate, Fsync, Fdatasync, SyncRange, Syncfs, Sync,
    Rename, Unlink, Mkdir, Rmdir, Link, Mmap, Msync, Mark, Unsupported, Dup,
}

/// <summary>One recorded call: paths are relative to the store's directory ("" is the directory itself).</summary>
public sealed record LogRecord(int Index, LogKind Kind, int Fd, long TimeNs, long A, long B, long C, string Path, string Path2, byte[] Data)
{
    public override string ToString() => $"#{Index} {Kind} fd={Fd} '{Path}' '{Path2}' a={A} b={B} c={C} data={Data.Length}";
}

/// <summary>Reads the log the shim wrote; a record cut short at the end (the shim's buffer) is dropped.</summary>
public static class PowerLossLog
{
    private const int HeaderSize = 56; // sizeof(struct record)

    public static List<LogRecord> Read(string path)
    {
        var bytes = File.ReadAllBytes(path);
        var records = new List<LogRecord>();
        for (var at = 0; at + HeaderSize <= bytes.Length;)
        {
            var header = bytes.AsSpan(at, HeaderSize);
            var size = (int)BinaryPrimitives.ReadUInt32LittleEndian(header);
            if (size < HeaderSize || at + size > bytes.Length)
            {
                break;
            }

            var kind = (LogKind)BinaryPrimitives.ReadUInt16LittleEndian(header[4..]);
            var pathLength = BinaryPrimitives.ReadUInt16LittleEndian(header[6..]);
            var path2Length = (int)BinaryPrimitives.ReadUInt32LittleEndian(header[8..]);
            var fd = BinaryPrimitives.ReadInt32LittleEndian(header[12..]);
            var time = BinaryPrimitives.ReadInt64LittleEndian(header[16..]);
            var a = BinaryPrimitives.ReadInt64LittleEndian(header[24..]);
            var b = BinaryPrimitives.ReadInt64LittleEndian(header[32..]);
            var c = BinaryPrimitives.ReadInt64LittleEndian(header[40..]);
            var dataLength = (int)BinaryPrimitives.ReadUInt32LittleEndian(header[48..]);
            var body = at + HeaderSize;
            records.Add(new LogRecord(
                records.Count, kind, fd, time, a, b, c,
                Encoding.UTF8.GetString(bytes, body, pathLength),
                Encoding.UTF8.GetString(bytes, body + pathLength, path2Length),
                bytes.AsSpan(body + pathLength + path2Length, dataLength).ToArray()));
            at += size;
        }

        return records;
    }
}
