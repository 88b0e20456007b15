#!/usr/bin/env python3
"""Logs the disk's synchronous write rate once a second, for bench/covariate-analysis.py.

Every second: 0.1 s of 8 kB writes, each followed by fdatasync (what pg_test_fsync's
"open_datasync/fdatasync 8kB" line measures), in a file under DIR (put it on the data directory's
filesystem). Prints "epoch_seconds writes_per_second" lines until killed.

usage: bench/disk-probe-log.py DIR > probe.log
"""
import os
import sys
import time

path = os.path.join(sys.argv[1], "pgknob-disk-probe.tmp")
block = b"\0" * 8192
fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
try:
    while True:
        start = time.time()
        n = 0
        os.lseek(fd, 0, os.SEEK_SET)
        while time.time() - start < 0.1:
            os.write(fd, block)
            os.fdatasync(fd)
            n += 1
        now = time.time()
        print(f"{now:.3f} {n / (now - start):.1f}", flush=True)
        time.sleep(max(0.0, 1.0 - (time.time() - start)))
finally:
    os.close(fd)
    os.unlink(path)
