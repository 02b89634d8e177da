using DataStore.Platform;
using Microsoft.Win32.SafeHandles;

namespace DataStore.FileSystem;

/// <summary>Finds one key's file in its directory: the plain name, or the chain of hashed names that share its hash.</summary>
internal static class KeyLookup
{
    /// <summary>What a lookup reads.</summary>
    public enum Mode
    {
        /// <summary>Only whether the key is present (one existence check for a plain name).</summary>
        Exists,

        /// <summary>The file's key, not its value.</summary>
        KeyOnly,

        /// <summary>The key and the checked value.</summary>
        Value,
    }

    /// <summary>Finds <paramref name="key"/> under the current layout; the value span (mode Value) is valid until this thread's next read.</summary>
    public static ReadStatus Find(Layout layout, ReadOnlySpan<byte> key, Mode mode, out ReadOnlySpan<byte> value)
    {
        var none = default(ValueTarget);
        return Find(layout, key, mode, ref none, out value);
    }

    /// <summary>As <see cref="Find(Layout, ReadOnlySpan{byte}, Mode, out ReadOnlySpan{byte})"/>, reading the value (mode Value) straight into <paramref name="target"/> when it is set.</summary>
    public static ReadStatus Find(Layout layout, ReadOnlySpan<byte> key, Mode mode, scoped ref ValueTarget target, out ReadOnlySpan<byte> value)
    {
        var node = layout.Resolve(key, out var depth);
        return FindIn(node, key, key[depth..], mode, ref target, out value, out _);
    }

    /// <summary>The path of <paramref name="key"/>'s key file (its first collision slot when its name is hashed), for error messages.</summary>
    public static string FileOf(Layout layout, ReadOnlySpan<byte> key)
    {
        var node = layout.Resolve(key, out var depth);
        Span<byte> name = stackalloc byte[KeyNames.MaxNameLength];
        var path = node.FilePathString(name[..KeyNames.Write(key[depth..], 0, name)]);
        return KeyNames.IsHashed(key[depth..]) ? $"'{path}' (or a later file of its hash chain)" : $"'{path}'";
    }

    /// <summary>
    /// Finds <paramref name="key"/> (whose rest below <paramref name="node"/> is <paramref name="rest"/>) in <paramref name="node"/>.
    /// <paramref name="slot"/> is its collision slot when found, else the first free slot.
    /// </summary>
    public static ReadStatus FindIn(LayoutNode node, ReadOnlySpan<byte> key, ReadOnlySpan<byte> rest, Mode mode, out ReadOnlySpan<byte> value, out int slot)
    {
        var none = default(ValueTarget);
        return FindIn(node, key, rest, mode, ref none, out value, out slot);
    }

    private static ReadStatus FindIn(LayoutNode node, ReadOnlySpan<byte> key, ReadOnlySpan<byte> rest, Mode mode, scoped ref ValueTarget target, out ReadOnlySpan<byte> value, out int slot)
    {
        value = default;
        if (node.Directory is { } directory)
        {
            return FindAt(directory, key, rest, mode, ref target, out value, out slot);
        }

        // No handle: the directory may be gone. A miss in a directory its parent's marker records is an error (ADR 0013).
        var status = FindByPath(node, key, rest, mode, ref target, out value, out slot);
        if (status == ReadStatus.Missing)
        {
            node.ThrowIfLost();
        }

        return status;
    }

    private static ReadStatus FindByPath(LayoutNode node, ReadOnlySpan<byte> key, ReadOnlySpan<byte> rest, Mode mode, scoped ref ValueTarget target, out ReadOnlySpan<byte> value, out int slot)
    {
        value = default;
        var size = node.PathBytes.Length + KeyNames.MaxNameLength + 2;
        Span<byte> path = size <= 1024 ? stackalloc byte[size] : new byte[size];
        Span<byte> name = stackalloc byte[KeyNames.MaxNameLength];
        var hashed = KeyNames.IsHashed(rest);
        var damaged = false; // a damaged file in a hashed chain may be this key's: not "absent" (ADR 0014)
        for (slot = 0; ; slot++)
        {
            var pathZ = path[..node.FilePath(name[..KeyNames.Write(rest, slot, name)], path)];
            if (mode == Mode.Exists && !hashed)
            {
                return Exists(pathZ) ? ReadStatus.Found : ReadStatus.Missing;
            }

            var status = KeyFile.Read(pathZ, mode == Mode.Value, ref target, out var stored, out value);
            if (status == ReadStatus.Missing || (status == ReadStatus.Found && stored.SequenceEqual(key)))
            {
                return status == ReadStatus.Missing && damaged ? ReadStatus.Damaged : status;
            }

            if (!hashed)
            {
                value = default;
                return ReadStatus.Damaged;
            }

            damaged |= status == ReadStatus.Damaged;
        }
    }

    private static ReadStatus FindAt(SafeFileHandle directory, ReadOnlySpan<byte> key, ReadOnlySpan<byte> rest, Mode mode, scoped ref ValueTarget target, out ReadOnlySpan<byte> value, out int slot)
    {
        value = default;
        var added = false;
        directory.DangerousAddRef(ref added);
        try
        {
            var fd = (int)directory.DangerousGetHandle();
            Span<byte> name = stackalloc byte[KeyNames.MaxNameLength + 1];
            var hashed = KeyNames.IsHashed(rest);
            var damaged = false;
            for (slot = 0; ; slot++)
            {
                var length = KeyNames.Write(rest, slot, name);
                name[length] = 0;
                var nameZ = name[..(length + 1)];
                if (mode == Mode.Exists && !hashed)
                {
                    return PosixFile.ExistsAt(fd, nameZ) ? ReadStatus.Found : ReadStatus.Missing;
                }

                var file = PosixFile.OpenReadAt(fd, nameZ);
                if (file < 0)
                {
                    return damaged ? ReadStatus.Damaged : ReadStatus.Missing;
                }

                var status = KeyFile.ReadAndClose(file, mode == Mode.Value, ref target, out var stored, out value);
                if (status == ReadStatus.Found && stored.SequenceEqual(key))
                {
                    return status;
                }

                if (!hashed)
                {
                    value = default;
                    return ReadStatus.Damaged;
                }

                damaged |= status == ReadStatus.Damaged;
            }
        }
        finally
        {
            if (added)
            {
                directory.DangerousRelease();
            }
        }
    }

    /// <summary>True when the file at <paramref name="pathZ"/> exists.</summary>
    public static bool Exists(ReadOnlySpan<byte> pathZ) =>
        OperatingSystem.IsWindows() ? File.Exists(System.Text.Encoding.UTF8.GetString(pathZ[..^1])) : PosixFile.Exists(pathZ);
}
