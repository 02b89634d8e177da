#!/usr/bin/env python3
"""The least a program does to store N new keys as files, the FileSystem backend's floor for a bulk load.

N keys (even ids, 16 hex digits each) in random order, one 150-byte file per key created with open/pwrite/close in 256
directories, and a syncfs after every 1,000 (as a batch ends); no journal, no directory tree, no splits. Prints the
process's CPU time per key (user and system) and the keys per second of the wall clock.

    python3 scripts/new-files-floor.py 100000 [DIR]
"""
import ctypes
import os
import random
import resource
import shutil
import sys
import tempfile
import time

n = int(sys.argv[1])
root = tempfile.mkdtemp(dir=sys.argv[2] if len(sys.argv) > 2 else None, prefix="new-files-floor-")
for d in range(256):
    os.mkdir(os.path.join(root, "%02x" % d))
ids = list(range(n))
random.Random(1).shuffle(ids)
value = os.urandom(150)
libc = ctypes.CDLL("libc.so.6", use_errno=True)
directory = os.open(root, os.O_RDONLY)
before, started = resource.getrusage(resource.RUSAGE_SELF), time.time()
for i, key in enumerate(ids):
    name = "%016x" % (2 * key)
    fd = os.open(os.path.join(root, name[-2:], name), os.O_WRONLY | os.O_CREAT, 0o644)
    os.pwrite(fd, value, 0)
    os.close(fd)
    if i % 1000 == 999 and libc.syncfs(directory) != 0:
        raise OSError(ctypes.get_errno(), "syncfs")
after, ended = resource.getrusage(resource.RUSAGE_SELF), time.time()
user, system = (after.ru_utime - before.ru_utime) / n * 1e6, (after.ru_stime - before.ru_stime) / n * 1e6
print(f"{n} new files: CPU {user + system:.1f} us a key ({system:.1f} system); {ended - started:.1f} s = {n / (ended - started):.0f} keys/s")
os.close(directory)
shutil.rmtree(root)
