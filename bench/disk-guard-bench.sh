#!/usr/bin/env bash
# A configuration whose WAL outgrows the server's disk (not a test; needs root): the managed
# PostgreSQL of a fresh PGKNOB_HOME on a tmpfs of its own, and `pgknob compare` of the defaults
# against max_wal_size = 64GB with checkpoint_timeout = 1h, in long TPROC-C windows, so that the
# WAL of one window is about the disk's free space. Prints, per build: the exit code, the trials'
# statuses, the least free space seen on the disk (every 0.5 s), the server log's PANIC lines, and
# whether the server answers at the end with its original max_wal_size.
#
#   bench/disk-guard-bench.sh [window_s=120] [disk=3500m]
#
# PGKNOB="java -jar copy.jar" runs a fixed build; run it once per build, one after the other.
# OUT=folder keeps the sessions (default runs/disk-guard-bench-<time>).
set -uo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "needs root: it mounts a tmpfs" >&2; exit 1; }
window=${1:-120}
size=${2:-3500m}
out=${OUT:-runs/disk-guard-bench-$(date -u +%Y%m%dT%H%M%S)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
disk=$(mktemp -d /var/tmp/pgknob-disk-bench-XXXXXX)
mount -t tmpfs -o "size=$size,mode=1777" pgknob-disk-bench "$disk" || exit 1
cleanup() {
  for pid in $(pgrep -f "$disk/home" || true); do kill -9 "$pid" 2> /dev/null; done
  kill "$watcher" 2> /dev/null
  sleep 1
  umount "$disk" 2> /dev/null || { sleep 2; umount -l "$disk"; }
  rmdir "$disk"
}
watcher=
trap cleanup EXIT
home="$disk/home"
printf 'max_wal_size = 64GB\ncheckpoint_timeout = 1h\n' > "$out/big-wal.conf"
(while sleep 0.5; do df -B1M --output=avail "$disk" | tail -1; done) > "$out/free-mb.log" &
watcher=$!
PGKNOB_HOME=$home ${PGKNOB:-./pgknob} compare --config "$out/big-wal.conf" --rounds 2 \
  --duration "${window}s" --out "$out/runs" > "$out/console.log" 2>&1
rc=$?
kill "$watcher"
watcher=
echo "exit code: $rc"
echo "last lines: $(grep -E '^pgknob:|verdict|DISK_GUARD|CRASHED' "$out/console.log" | tail -3)"
for t in "$out"/runs/*/trials.jsonl; do
  [ -f "$t" ] && python3 - "$t" << 'PY'
import json, sys
for line in open(sys.argv[1]):
    t = json.loads(line)
    print(f"  trial {t['trial']:>2} {t.get('label', ''):38} {t['status']:11} {t.get('reason', '')[:110]}")
PY
done
echo "least free space on the disk: $(sort -n "$out/free-mb.log" | head -1) MB (disk $size)"
echo "PANIC lines in the server log: $(grep -c PANIC "$home/cluster-18/log/server.log")"
grep -m 2 PANIC "$home/cluster-18/log/server.log"
for r in "$out"/runs/*/restore.json; do
  [ -f "$r" ] && echo "restore file: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("state"))' "$r")"
done
echo "max_wal_size in postgresql.auto.conf at the end: $(grep -c max_wal_size "$home/cluster-18/data/postgresql.auto.conf") line(s)"
pg_ctl="$home/postgres-18.6.0/bin/pg_ctl"
if runuser -u nobody -- "$pg_ctl" status -D "$home/cluster-18/data" > /dev/null 2>&1; then
  echo "server at the end: running"
elif runuser -u nobody -- "$pg_ctl" start -w -t 60 -D "$home/cluster-18/data" -o "-p 54329" -l "$disk/start-check.log" > /dev/null 2>&1; then
  echo "server at the end: stopped; it starts"
  runuser -u nobody -- "$pg_ctl" stop -D "$home/cluster-18/data" -m fast > /dev/null 2>&1
else
  echo "server at the end: stopped; it does not start: $(tail -2 "$disk/start-check.log")"
fi
