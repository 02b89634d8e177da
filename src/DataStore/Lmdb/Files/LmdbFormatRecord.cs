namespace DataStore.Lmdb.Files;

/// <summary>
/// The <c>lmdb-format</c> side file: the LMDB file format (such as "LMDB 1.0") the store's data file is in, for
/// people and tools. The data file's own meta page decides how it is opened; the record must agree with it or be
/// one a conversion was about to replace.
/// </summary>
internal static class LmdbFormatRecord
{
    /// <summary>The side file's name in the store directory.</summary>
    public const string FileName = "lmdb-format";

    /// <summary>Writes the record of <paramref name="layout"/>, or checks the one there against it.</summary>
    /// <param name="directory">The store directory.</param>
    /// <param name="layout">The data file's format, or null for a new store (then LMDB 1.0).</param>
    public static void Check(string directory, LmdbFileLayout? layout)
    {
        var path = System.IO.Path.Combine(directory, FileName);
        var current = layout ?? LmdbFileLayout.Lmdb10;
        var recorded = layout is not null && File.Exists(path) ? File.ReadAllBytes(path) : [];
        if (recorded.Length == 0)
        {
            Write(path, current);
            return;
        }

        var text = System.Text.Encoding.ASCII.GetString(recorded).Trim();
        if (text == current.Name)
        {
            return;
        }

        if (text == LmdbFileLayout.Lmdb09.Name && current == LmdbFileLayout.Lmdb10)
        {
            Write(path, current); // a conversion renamed its new data file into place and stopped before this
            return;
        }

        if (!IsFormatName(text))
        {
            throw new StoreFormatException(StoreFailure.Corrupt, directory, StoreBackend.Lmdb,
                $"the LMDB format record {path} is damaged: it holds {recorded.Length} bytes that name no LMDB format. " +
                $"The data file is in the {current.Name} format; restore the record from a backup, or write \"{current.Name}\" into it.");
        }

        throw new StoreFormatException(StoreFailure.Unavailable, directory, StoreBackend.Lmdb,
            $"the LMDB format record {path} says the store was written in the {text} file format, but its data file is in the {current.Name} format " +
            "and this DataStore writes only LMDB 1.0. Open it with the DataStore version that wrote it.");
    }

    /// <summary>Records <paramref name="layout"/>, power-safe (synced before the rename, the directory after).</summary>
    public static void Write(string path, LmdbFileLayout layout) => Platform.SyncedFile.Replace(path, System.Text.Encoding.ASCII.GetBytes(layout.Name));

    // "LMDB <major>.<minor>", as every DataStore version wrote it.
    private static bool IsFormatName(string text)
    {
        var parts = text.StartsWith("LMDB ", StringComparison.Ordinal) ? text[5..].Split('.') : [];
        return parts.Length == 2 && parts.All(part => part.Length is > 0 and < 4 && part.All(char.IsAsciiDigit));
    }
}
