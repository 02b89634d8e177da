using System.Buffers.Binary;
using DataStore.Integrity;

namespace DataStore.Packed;

/// <summary>Writes the index region of a packed file, taking the CRC-32C of each <see cref="PackedFormat.PageLength"/>-byte page as it goes.</summary>
internal sealed class PackedPageWriter(Stream output)
{
    private readonly List<uint> _crcs = [];
    private uint _crc = Crc32C.Seed;
    private int _fill;

    /// <summary>Bytes written so far.</summary>
    public long Written { get; private set; }

    public void Write(ReadOnlySpan<byte> bytes)
    {
        output.Write(bytes);
        Written += bytes.Length;
        while (!bytes.IsEmpty)
        {
            var take = Math.Min(PackedFormat.PageLength - _fill, bytes.Length);
            _crc = Crc32C.Append(_crc, bytes[..take]);
            _fill += take;
            bytes = bytes[take..];
            if (_fill == PackedFormat.PageLength)
            {
                EndPage();
            }
        }
    }

    /// <summary>Ends the last page and writes the page table (one CRC-32C per page, 4 bytes each); returns the table's own CRC-32C.</summary>
    public uint WriteTable()
    {
        if (_fill > 0)
        {
            EndPage();
        }

        var table = new byte[_crcs.Count * sizeof(uint)];
        for (var i = 0; i < _crcs.Count; i++)
        {
            BinaryPrimitives.WriteUInt32LittleEndian(table.AsSpan(i * sizeof(uint)), _crcs[i]);
        }

        output.Write(table);
        return PackedFormat.Crc(table);
    }

    private void EndPage()
    {
        _crcs.Add(Crc32C.Finish(_crc));
        _crc = Crc32C.Seed;
        _fill = 0;
    }
}
