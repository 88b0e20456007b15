#!/usr/bin/env bash
# Hostile probes (issue 14): bad input and faults, tried as a hostile user would, against the
# managed PostgreSQL 18 cluster given non-default settings first. Each probe checks the exit code
# (never 3), the one line on standard error, and that the server's settings are what they were.
#
#   PGKNOB_HOME=/var/tmp/pgknob-probes bench/hostile-probes.sh [NAME_REGEX]
#
# Prints one line per probe and "N probes, M failed" (with the failing ones named); exits 1 when
# any failed. Takes a few minutes: tiny budgets, --workload-cmd trials of a second, 1 warehouse.
# Uses PGKNOB_HOME's managed cluster (created if missing) and puts its settings back at the end.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pgknob="$here/pgknob"
filter="${1:-}"
export PGKNOB_HOME="${PGKNOB_HOME:-/var/tmp/pgknob}"
work="$(mktemp -d /tmp/pgknob-probes.XXXXXX)"
chmod 755 "$work"
cluster="$PGKNOB_HOME/cluster-18"
data="$cluster/data"
total=0
failed=()
bg_pids=()

cleanup() {
  for p in "${bg_pids[@]}"; do kill -9 "$p" 2>/dev/null; done
  if [[ -f "$data/postmaster.pid" ]]; then
    sql "ALTER SYSTEM RESET work_mem" "ALTER SYSTEM RESET random_page_cost" \
      "ALTER SYSTEM RESET shared_buffers" "ALTER SYSTEM RESET application_name" \
      "ALTER SYSTEM RESET statement_timeout" >/dev/null 2>&1
    pgctl stop -m fast -w >/dev/null 2>&1
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# --- the managed cluster, started outside pgknob so pgknob leaves it running ------------------

pgctl() {
  local bin
  bin="$(ls -d "$PGKNOB_HOME"/postgres-18*/bin | head -1)"
  if [[ $EUID -eq 0 ]]; then
    setpriv --reuid=65534 --regid=65534 --clear-groups -- "$bin/pg_ctl" "$@" -D "$data"
  else
    "$bin/pg_ctl" "$@" -D "$data"
  fi
}

port() { sed -n 4p "$data/postmaster.pid" 2>/dev/null; }
is_up() { [[ -f "$data/postmaster.pid" ]] && sql "SELECT 1" >/dev/null 2>&1; }

# psql as the cluster's superuser, each argument a statement of its own (ALTER SYSTEM cannot
# run in a transaction block); the password goes through the environment of psql alone.
sql() {
  local args=()
  for statement in "$@"; do args+=(-c "$statement"); done
  # Immune to what a probe sets server-wide (statement_timeout=1ms would cancel the checks).
  PGOPTIONS="-c statement_timeout=0 -c lock_timeout=0 -c default_transaction_read_only=off" \
    PGPASSWORD="$(cat "$cluster/password")" psql -X -q -A -t -h 127.0.0.1 -p "$(port)" \
    -U postgres -d "${SQL_DB:-postgres}" -v ON_ERROR_STOP=1 "${args[@]}"
}

ensure_up() {
  if ! is_up; then
    pgctl start -w -t 60 -l "$cluster/log/probes.log" >/dev/null 2>&1
  fi
}

# Every setting as the server runs it (value and source), and whether a restart is pending.
# The port is left out: a cluster pgknob restarts after a crash may move to a free port.
snapshot() {
  sql "SELECT name || '=' || coalesce(setting, '') || ' (' || source || ')' || CASE WHEN
       pending_restart THEN ' pending' ELSE '' END FROM pg_settings WHERE name <> 'port'
       ORDER BY 1"
}

# --- probe bookkeeping -------------------------------------------------------------------------

wanted() { [[ -z "$filter" || "$1" =~ $filter ]]; }

record() { # record NAME PROBLEM (empty PROBLEM = passed)
  local problem="$2" left
  left="$(settle)"
  [[ -z "$left" ]] || problem="${problem:+$problem; }$left"
  total=$((total + 1))
  if [[ -z "$problem" ]]; then
    printf 'ok    %s\n' "$1"
  else
    printf 'FAIL  %s: %s\n' "$1" "$problem"
    failed+=("$1")
  fi
}

# After a probe: restore files left unrestored are finished with pgknob restore; one that restore
# cannot finish is moved aside and the server reset by hand to the probes' settings, so one
# probe's failure does not become the next one's. Prints what it had to do.
settle() {
  local f said=""
  ensure_up
  for f in "$PGKNOB_HOME"/restore/managed-*.json "$work"/runs/*/restore.json; do
    [[ -f "$f" ]] && ! grep -q '"state" : "restored"' "$f" || continue
    if [[ "$f" == "$PGKNOB_HOME"/restore/* ]]; then
      "$pgknob" restore >"$work/settle.out" 2>&1
    else
      "$pgknob" restore "$(dirname "$f")" >"$work/settle.out" 2>&1
    fi
    if grep -q '"state" : "restored"' "$f" 2>/dev/null; then
      # A file with nothing left to change back is bookkeeping; changed settings are a failure.
      if grep -q '^  ' "$work/settle.out"; then
        said="${said:+$said; }left settings changed: $(grep '^  ' "$work/settle.out" | head -3 | tr '\n' ' ')"
      fi
    else
      mv "$f" "$work/stuck-$(date +%s%N).json"
      ensure_up
      sql "ALTER SYSTEM RESET ALL" >/dev/null 2>&1
      probe_settings
      pgctl restart -w -m fast -l "$cluster/log/probes.log" >/dev/null 2>&1
      ensure_up
      said="${said:+$said; }left $(basename "$f") that pgknob restore cannot finish (moved aside, server reset by hand)"
    fi
  done
  echo "$said"
}

# The probes' non-default settings, in postgresql.auto.conf (shared_buffers needs a restart).
probe_settings() {
  sql "ALTER SYSTEM SET work_mem = '7MB'" "ALTER SYSTEM SET random_page_cost = 1.7" \
    "ALTER SYSTEM SET shared_buffers = '160MB'" \
    "ALTER SYSTEM SET application_name = 'it''s \"pgknob\" probing'" >/dev/null
}

# cli NAME RCS ERR_REGEX -- COMMAND...: runs a pgknob command line, then checks its exit code
# (one of RCS, e.g. "1" or "0|1"), that standard error is one line (none or one on success)
# matching ERR_REGEX, that the cluster is up and every setting as it was.
cli() {
  local name="$1" rcs="$2" regex="$3"
  shift 4
  wanted "$name" || return 0
  ensure_up
  local before after rc problem="" lines
  before="$(snapshot)"
  (cd "$work" && "$@") >"$work/out" 2>"$work/err" </dev/null
  rc=$?
  lines=$(wc -l <"$work/err")
  if [[ ! "$rc" =~ ^($rcs)$ ]]; then
    problem="exit $rc, expected $rcs: $(head -c 300 "$work/err")"
  elif [[ $rc -ne 0 && $lines -ne 1 ]] || [[ $rc -eq 0 && $lines -gt 1 ]]; then
    problem="$lines lines on stderr: $(head -c 300 "$work/err" | tr '\n' '|')"
  elif [[ -n "$regex" ]] && ! grep -Eq -- "$regex" "$work/err" "$work/out"; then
    problem="no /$regex/ in: $(head -c 300 "$work/err" | tr '\n' '|')"
  fi
  problem="${problem:-$(unchanged "$before")}"
  record "$name" "$problem"
}

# Empty when the cluster is up with the settings of $1; else what differs.
unchanged() {
  if ! is_up; then
    ensure_up
    echo "the cluster was left stopped"
    return
  fi
  local diff
  diff="$(diff <(echo "$1") <(snapshot) | grep '^[<>]' | head -4 | tr '\n' ' ')"
  [[ -z "$diff" ]] || echo "settings changed: $diff"
}

# Waits until FILE holds REGEX (at most $3 seconds, and only while process $4 runs, if given).
wait_for() {
  local file="$1" regex="$2" limit="${3:-120}" pid="${4:-}" i
  for ((i = 0; i < limit * 10; i++)); do
    grep -Eq -- "$regex" "$file" 2>/dev/null && return 0
    [[ -z "$pid" ]] || kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

# A tune of a few seconds per trial: the benchmark is a command that sleeps and prints a value.
# exec: started in the background, $! is then pgknob's own pid (the launcher execs java), so
# signals reach pgknob and not a subshell around it.
quick_tune() {
  exec "$pgknob" tune --workload-cmd 'cat >/dev/null; sleep 1; echo "{\"value\": 100}"' \
    --budget 16 --rampup 1s --duration 1s --out "$work/runs" "$@"
}

session_of() { ls -d "$work/runs"/*/ 2>/dev/null | sort | tail -1; }

# --- setup -------------------------------------------------------------------------------------

echo "building pgknob and preparing the managed cluster in $PGKNOB_HOME ..."
"$pgknob" --version >/dev/null || exit 1
if [[ ! -f "$data/PG_VERSION" ]]; then
  "$pgknob" target >/dev/null || exit 1 # creates the cluster (and stops it again)
fi
ensure_up
probe_settings || exit 1
pgctl restart -w -m fast -l "$cluster/log/probes.log" >/dev/null
ensure_up
sql "SELECT 1 FROM pg_database WHERE datname = 'userdb'" | grep -q 1 ||
  sql "CREATE DATABASE userdb" >/dev/null
SQL_DB=userdb sql "CREATE TABLE IF NOT EXISTS precious (id int)" "TRUNCATE precious" \
  "INSERT INTO precious SELECT generate_series(1, 1000)" >/dev/null
password="$(cat "$cluster/password")"
echo "cluster on port $(port): work_mem $(sql 'SHOW work_mem'), shared_buffers $(sql 'SHOW shared_buffers')"

# Files the probes read.
# A billion laughs: nine levels of nine aliases each.
{
  echo "knobs:"
  echo "  a: &a [x, x, x, x, x, x, x, x, x]"
  prev=a
  for l in b c d e f g h i; do
    echo "  $l: &$l [*$prev, *$prev, *$prev, *$prev, *$prev, *$prev, *$prev, *$prev, *$prev]"
    prev=$l
  done
} >"$work/bomb.yaml"
{
  echo "knobs:"
  head -c 50000000 /dev/zero | tr '\0' 'x' | fold -w 100 | sed 's/^/  # /'
} >"$work/big.yaml"
printf 'knobs:\n  work_mem: {type: integer, unit: MB, min: 1, max: 64}\n  work_mem: {type: integer, unit: MB, min: 4, max: 8}\n' >"$work/dup-space.yaml"
sed -n '1,200p' "$here/safety-rules/default.yaml" >"$work/dup-rules.yaml"
printf 'relations:\n  - checkpoint_completion_target <= checkpoint_completion_target\n' >>"$work/dup-rules.yaml"
printf 'knobs:\n  no_such_knob: {type: integer, min: 1, max: 2}\n' >"$work/server-refuses.yaml"
printf 'shared_buffers = 12XB\n' >"$work/bad-unit.conf"
printf 'knobs:\n  x: {type: real, min: 0, max: 1}\n' >"$work/opt-space.yaml"
printf '{"identity": {"kind": \n' >"$work/damaged-restore.json"
mkdir -p "$work/damaged" && cp "$work/damaged-restore.json" "$work/damaged/restore.json"
python3 - "$work/ssh.port" <<'EOF' &
import socket, sys, threading
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
open(sys.argv[1], "w").write(str(s.getsockname()[1]))
def serve(c):
    try:
        c.sendall(b"SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13\r\n"); c.settimeout(60)
        while c.recv(1024): pass
    except Exception: pass
while True:
    c, _ = s.accept(); threading.Thread(target=serve, args=(c,), daemon=True).start()
EOF
bg_pids+=($!)
wait_for "$work/ssh.port" '[0-9]' 10
ssh_port="$(cat "$work/ssh.port")"
# The cluster's URL now: a cluster restarted after a crash may listen on another port.
url() { echo "jdbc:postgresql://127.0.0.1:$(port)/postgres"; }

echo "probes:"

# --- injection, bad values, unstartable values (these passed before issue 14) -------------------

cli injection-in-name 1 "unknown setting" -- "$pgknob" apply --set "work_mem; DROP TABLE precious=1"
cli injection-in-value 1 "work_mem" -- "$pgknob" apply --set "work_mem=1MB'; ALTER SYSTEM SET fsync=off; --"
cli unknown-setting 1 "unknown setting 'no_such_setting'" -- "$pgknob" apply --set no_such_setting=1
cli negative-value 1 "must be between" -- "$pgknob" apply --set work_mem=-5
cli unstartable-shared-buffers 1 "" -- "$pgknob" apply --set shared_buffers=4TB
cli missing-preload-library 1 "" -- "$pgknob" apply --set shared_preload_libraries=no_such_library

if wanted quoted-value-stored-literally; then
  before="$(snapshot)"
  "$pgknob" apply --set "application_name=x'); SELECT pg_sleep(0); --" >/dev/null 2>"$work/err"
  got="$(sql "SELECT setting FROM pg_file_settings WHERE name = 'application_name' AND applied")"
  "$pgknob" restore >/dev/null 2>>"$work/err"
  problem=""
  [[ "$got" == "x'); SELECT pg_sleep(0); --" ]] || problem="applied as [$got]"
  record quoted-value-stored-literally "${problem:-$(unchanged "$before")}"
fi

# --- files: YAML bombs, 50 MB, duplicate keys -------------------------------------------------

cli yaml-bomb-space 1 "" -- "$pgknob" space show --space "$work/bomb.yaml"
cli yaml-bomb-rules 1 "" -- "$pgknob" tune --rules "$work/bomb.yaml" --out "$work/runs"
cli yaml-50MB 1 "" -- "$pgknob" space show --space "$work/big.yaml"
cli duplicate-knob-in-space 1 "key 'work_mem' appears twice.* at line 3" -- "$pgknob" space show --space "$work/dup-space.yaml"
cli duplicate-relations-in-rules 1 "key 'relations' appears twice" -- "$pgknob" tune --rules "$work/dup-rules.yaml" --out "$work/runs"

# --- bad URLs and ports --------------------------------------------------------------------------

cli url-not-jdbc 1 "" -- "$pgknob" target --target 'postgres://127.0.0.1/postgres'
cli url-with-password 1 "password" -- "$pgknob" target --target "jdbc:postgresql://127.0.0.1:$(port)/postgres?password=x"
cli port-closed 1 "cannot connect to 127.0.0.1:1" -- "$pgknob" target --target 'jdbc:postgresql://127.0.0.1:1/postgres'
cli port-out-of-range 1 "" -- "$pgknob" target --target 'jdbc:postgresql://127.0.0.1:99999/postgres'
cli unknown-host 1 "" -- "$pgknob" target --target 'jdbc:postgresql://no-such-host.invalid/postgres'
cli port-speaks-ssh 1 "is not PostgreSQL \(it answered 'SSH-2.0" -- "$pgknob" target --target "jdbc:postgresql://127.0.0.1:$ssh_port/postgres" --user postgres
cli restart-timeout-negative 1 "restart-timeout" -- "$pgknob" tune --restart-timeout -5 --out "$work/runs"

# --- messages and CLI paths (issue 14, items 9 and 12) -----------------------------------------

cli budget-overflow 1 "too large" -- "$pgknob" tune --budget 99999999999999999999
cli budget-too-small 1 "at least 16" -- "$pgknob" tune --budget 5 --out "$work/runs"
cli optimize-out-is-a-file 1 "is not a folder" -- "$pgknob" optimize --space "$work/opt-space.yaml" --objective-cmd 'echo "{\"value\": 1}"' --budget 1 --out /etc/passwd
cli unknown-option 2 "Unknown option" -- "$pgknob" tune --no-such-option
cli damaged-restore-file 1 "is damaged at line 2" -- "$pgknob" restore "$work/damaged"
cli space-the-server-refuses 1 "no_such_knob" -- "$pgknob" tune --space "$work/server-refuses.yaml" --out "$work/runs"
if wanted space-the-server-refuses && grep -q "are back" "$work/err" "$work/out"; then
  record space-the-server-refuses-claims-nothing "claims a restore although nothing changed"
fi
cli space-show-takes-rules 1 "safety rules file .* does not exist" -- "$pgknob" space show --rules "$work/missing.yaml"
cli long-value-shortened 1 "\(10000 characters\)" -- "$pgknob" apply --set "work_mem=$(printf '9%.0s' {1..10000})"
cli leading-zero-octal 1 "octal" -- "$pgknob" apply --set work_mem=0200
cli compare-config-bad-unit 1 "bad-unit.conf line 1: shared_buffers" -- "$pgknob" compare --config "$work/bad-unit.conf" --out "$work/runs"

# --- settings pgknob must refuse or survive (items 1 and 2: the safety half of issue 14) --------

cli refuses-data-directory 1 "data_directory" -- "$pgknob" apply --set data_directory=/srv/elsewhere
cli refuses-config-file 1 "config_file" -- "$pgknob" apply --set config_file=/srv/elsewhere.conf
if wanted apply-after-refused-setting-still-restores; then
  before="$(snapshot)"
  "$pgknob" apply --set work_mem=8MB >/dev/null 2>&1
  "$pgknob" restore >"$work/out" 2>"$work/err"
  rc=$?
  problem=""
  [[ $rc -eq 0 ]] || problem="restore: exit $rc: $(head -c 200 "$work/err")"
  record apply-after-refused-setting-still-restores "${problem:-$(unchanged "$before")}"
fi
if wanted statement-timeout-1ms-rolls-back; then
  before="$(snapshot)"
  "$pgknob" apply --set statement_timeout=1ms >/dev/null 2>&1
  "$pgknob" restore >"$work/out" 2>"$work/err"
  rc=$?
  problem=""
  [[ $rc -eq 0 ]] || problem="restore: exit $rc: $(head -c 200 "$work/err")"
  record statement-timeout-1ms-rolls-back "${problem:-$(unchanged "$before")}"
fi
if wanted restore-rewrites-auto-conf-byte-for-byte; then
  ensure_up
  auto_before="$(md5sum <"$data/postgresql.auto.conf")"
  "$pgknob" apply --set work_mem=9MB --set random_page_cost=1.2 >/dev/null 2>&1
  "$pgknob" restore >/dev/null 2>&1
  problem=""
  [[ "$(md5sum <"$data/postgresql.auto.conf")" == "$auto_before" ]] ||
    problem="postgresql.auto.conf differs after restore"
  record restore-rewrites-auto-conf-byte-for-byte "$problem"
fi

# --- the workload command (items 6 and 7) --------------------------------------------------------

if wanted workload-cmd-value-only; then
  before="$(snapshot)"
  (quick_tune --tracks reload) >"$work/out" 2>"$work/err"
  rc=$?
  s="$(session_of)"
  problem=""
  [[ $rc -eq 0 ]] || problem="exit $rc: $(head -c 200 "$work/err")"
  [[ -n "$problem" || -f "$s/summary.json" ]] || problem="no summary.json"
  record workload-cmd-value-only "${problem:-$(unchanged "$before")}"
fi
[[ -n "$(session_of)" ]] &&
  cli export-to-missing-folder 1 "no such file or folder" -- "$pgknob" export "$(session_of)" --track reload --out /nonexistent/dir/x.conf
if wanted workload-cmd-never-sees-pgpassword; then
  before="$(snapshot)"
  PGPASSWORD="$password" "$pgknob" tune --target "$(url)" --user postgres --tracks reload \
    --workload-cmd "cat >/dev/null; echo \"\${PGPASSWORD:-unset}\" >> '$work/seen'; echo '{\"value\": 100}'" \
    --budget 16 --rampup 1s --duration 1s --out "$work/runs" >"$work/out" 2>"$work/err"
  rc=$?
  problem=""
  [[ $rc -eq 0 ]] || problem="exit $rc: $(head -c 200 "$work/err")"
  grep -qv '^unset$' "$work/seen" 2>/dev/null && problem="the command saw PGPASSWORD"
  record workload-cmd-never-sees-pgpassword "${problem:-$(unchanged "$before")}"
fi

# --- kill -9, signals, resume, the lock (items 3 to 5 are the safety half of issue 14) ----------

if wanted kill-9-apply-mid-restart-then-restore; then
  before="$(snapshot)"
  "$pgknob" apply --set shared_buffers=256MB >/dev/null 2>&1 &
  pid=$!
  # kill it while the cluster is down between stop and start
  for ((i = 0; i < 600; i++)); do [[ -f "$data/postmaster.pid" ]] || break; sleep 0.05; done
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  "$pgknob" restore >"$work/out" 2>"$work/err"
  rc=$?
  problem=""
  [[ $rc -eq 0 ]] || problem="restore: exit $rc: $(head -c 200 "$work/err")"
  is_up || problem="${problem:+$problem; }restore left the cluster stopped"
  record kill-9-apply-mid-restart-then-restore "${problem:-$(unchanged "$before")}"
fi

# True once the newest session's restore file records a change begun or made (the kill of a
# tune at trial 4 may land before trial 4's first change is recorded: nothing to restore then).
change_recorded() {
  local file
  file="$(session_of)restore.json"
  [[ -f "$file" ]] && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d.get("state") != "restored" and (d.get("pending") or d.get("applied")) else 1)
' "$file" 2>/dev/null
}

# Starts a quick tune in the background and kills it with SIGNAL at trial 4 (with "recorded" as
# $2: once that trial's change is in the restore file).
tune_and_signal() {
  rm -rf "$work/runs"
  # Job control on: a background job of a script otherwise starts with SIGINT ignored.
  set -m
  quick_tune >"$work/tune.out" 2>"$work/tune.err" &
  tune_pid=$!
  set +m
  if ! wait_for "$work/tune.out" '\[4/16\]' 180 "$tune_pid"; then
    kill -9 "$tune_pid" 2>/dev/null
    return 1
  fi
  if [[ "${2:-}" == recorded ]]; then
    for ((i = 0; i < 600; i++)); do change_recorded && break; sleep 0.01; done
  fi
  kill "-$1" "$tune_pid"
  wait "$tune_pid"
}

if wanted kill-9-tune-then-restore; then
  before="$(snapshot)"
  tune_and_signal KILL
  "$pgknob" restore "$(session_of)" >"$work/out" 2>"$work/err"
  rc=$?
  problem=""
  [[ $rc -eq 0 ]] || problem="restore: exit $rc: $(head -c 200 "$work/err")"
  is_up || problem="${problem:+$problem; }restore left the cluster stopped"
  record kill-9-tune-then-restore "${problem:-$(unchanged "$before")}"
fi
if wanted kill-9-tune-then-resume; then
  before="$(snapshot)"
  tune_and_signal KILL
  "$pgknob" resume "$(session_of)" >"$work/out" 2>"$work/err"
  rc=$?
  problem=""
  [[ $rc -eq 0 ]] || problem="resume: exit $rc: $(head -c 200 "$work/err")"
  record kill-9-tune-then-resume "${problem:-$(unchanged "$before")}"
fi
if wanted new-tune-refuses-unrestored-session; then
  before="$(snapshot)"
  tune_and_signal KILL recorded
  left="$(session_of)"
  (quick_tune) >"$work/out" 2>"$work/err"
  rc=$?
  problem=""
  [[ $rc -eq 1 ]] || problem="exit $rc, expected a refusal"
  grep -q "pgknob restore" "$work/err" || problem="${problem:+$problem; }no 'pgknob restore' in the refusal"
  "$pgknob" restore "$left" >/dev/null 2>&1
  record new-tune-refuses-unrestored-session "${problem:-$(unchanged "$before")}"
fi
for sig in INT TERM; do
  name="sig$sig-tune-restores"
  wanted "$name" || continue
  before="$(snapshot)"
  tune_and_signal "$sig"
  rc=$?
  problem=""
  [[ $rc -eq 130 || $rc -eq 143 ]] || problem="exit $rc, expected 130 (or 143 for SIGTERM)"
  record "$name" "${problem:-$(unchanged "$before")}"
done
if wanted second-pgknob-on-same-server-refused; then
  before="$(snapshot)"
  rm -rf "$work/runs"
  quick_tune >"$work/tune.out" 2>"$work/tune.err" &
  tune_pid=$!
  problem=""
  if wait_for "$work/tune.out" '\[2/16\]' 180 "$tune_pid"; then
    "$pgknob" apply --set work_mem=8MB >"$work/out" 2>"$work/err"
    rc=$?
    [[ $rc -eq 1 ]] || problem="apply during a tune: exit $rc"
    grep -q "$tune_pid" "$work/err" || problem="${problem:+$problem; }the refusal does not name pid $tune_pid"
    "$pgknob" restore >/dev/null 2>&1
  else
    problem="the tune did not reach trial 2"
  fi
  wait "$tune_pid"
  record second-pgknob-on-same-server-refused "${problem:-$(unchanged "$before")}"
fi

# --- passwords and databases that are not pgknob's ----------------------------------------------

if wanted password-in-no-file; then
  hits="$(grep -rlF -- "$password" "$work" "$PGKNOB_HOME/restore" 2>/dev/null | grep -v '/seen$' | head -3)"
  record password-in-no-file "${hits:+password found in $hits}"
fi
if wanted password-not-in-ps; then
  rm -rf "$work/runs"
  PGPASSWORD="$password" "$pgknob" tune --target "$(url)" --user postgres --tracks reload \
    --workload-cmd 'cat >/dev/null; sleep 2; echo "{\"value\": 100}"' --budget 16 \
    --rampup 1s --duration 1s --out "$work/runs" >"$work/tune.out" 2>&1 &
  tune_pid=$!
  problem=""
  wait_for "$work/tune.out" '\[2/16\]' 180 "$tune_pid" || problem="the tune did not reach trial 2"
  ps -eo args | grep -F -- "$password" | grep -v grep >/dev/null && problem="password in ps"
  wait "$tune_pid"
  record password-not-in-ps "$problem"
fi
if wanted unmarked-database-untouched; then
  rows="$(SQL_DB=userdb sql 'SELECT count(*) FROM precious')"
  record unmarked-database-untouched "$([[ "$rows" == 1000 ]] || echo "userdb.precious has $rows rows")"
fi

# --- a role that is not a superuser (item 11, the safety half of issue 14) ----------------------

if wanted non-superuser-gets-grants; then
  sql "DROP ROLE IF EXISTS probe_tuner" "CREATE ROLE probe_tuner LOGIN PASSWORD 'probe-pw-1'" >/dev/null
  cli non-superuser-gets-grants 1 "GRANT" -- env PGPASSWORD=probe-pw-1 "$pgknob" tune --target "$(url)" --user probe_tuner --budget 16 --out "$work/runs"
  sql "DROP ROLE IF EXISTS probe_tuner" >/dev/null
fi

echo
if [[ ${#failed[@]} -eq 0 ]]; then
  echo "$total probes, 0 failed"
else
  echo "$total probes, ${#failed[@]} failed: ${failed[*]}"
  exit 1
fi
