#!/bin/bash
# Runs Debian's real Ironic (ironic-api + ironic-conductor, fake-hardware, noauth, sqlite) on 127.0.0.1 only.
#   scripts/ironic-lab.sh [start]   install if missing, write the conf, db sync, start both, wait for GET /
#   scripts/ironic-lab.sh stop      stop the processes this script started (by their recorded pids)
#   scripts/ironic-lab.sh status    exit 0 when the API answers
# Recipe: shared/fixtures/ironic/lab (beside the repository) (ironic.conf). State dir: $IRONIC_LAB_DIR (default /tmp/rackform-ironic-lab).
set -euo pipefail
DIR=${IRONIC_LAB_DIR:-/tmp/rackform-ironic-lab}
PORT=${IRONIC_LAB_PORT:-6385}
RPC_PORT=${IRONIC_LAB_RPC_PORT:-8089}
API=http://127.0.0.1:$PORT/
CONF=$DIR/ironic.conf

answers() {
  python3 - "$API" <<'PY' >/dev/null 2>&1
import sys, urllib.request
urllib.request.urlopen(sys.argv[1], timeout=2).read()
PY
}

stop() {
  for name in conductor api; do
    f=$DIR/$name.pid
    [ -f "$f" ] || continue
    pid=$(cat "$f")
    # The pid is a session leader (setsid): end its whole group, then make sure it is gone.
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$pid" 2>/dev/null || true
    rm -f "$f"
  done
  echo "ironic-lab: stopped"
}

install_if_missing() {
  command -v ironic-api >/dev/null && command -v ironic-conductor >/dev/null && command -v ironic-dbsync >/dev/null && return 0
  echo "ironic-lab: installing ironic-api ironic-conductor (about 90 s)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >"$DIR/apt.log" 2>&1 && apt-get install -y -q ironic-api ironic-conductor >>"$DIR/apt.log" 2>&1 || {
    echo "ironic-lab: apt-get failed; see $DIR/apt.log" >&2
    exit 1
  }
}

write_conf() {
  mkdir -p "$DIR/state/lock" "$DIR/log"
  rm -f "$DIR/state/ironic.sqlite"
  cat >"$CONF" <<CONF
[DEFAULT]
auth_strategy = noauth
rpc_transport = json-rpc
host = localhost
debug = false
log_dir = $DIR/log
state_path = $DIR/state
enabled_hardware_types = fake-hardware
enabled_bios_interfaces = fake,no-bios
enabled_boot_interfaces = fake
enabled_console_interfaces = fake,no-console
enabled_deploy_interfaces = fake
enabled_inspect_interfaces = fake,no-inspect
enabled_management_interfaces = fake
enabled_network_interfaces = noop
enabled_power_interfaces = fake
enabled_raid_interfaces = fake,no-raid
enabled_rescue_interfaces = fake,no-rescue
enabled_storage_interfaces = noop,fake
enabled_vendor_interfaces = fake,no-vendor
default_network_interface = noop

[api]
host_ip = 127.0.0.1
port = $PORT
api_workers = 1

[conductor]
automated_clean = true
heartbeat_interval = 5
sync_power_state_interval = -1
# One lock attempt: a busy node answers 409 NodeLocked at once, so the client's own retry is exercised.
node_locked_retry_attempts = 1

[fake]
# The fake vendor passthru (first_method) holds the node lock this long: a deterministic window for a 409 NodeLocked.
vendor_delay = 2

[database]
connection = sqlite:///$DIR/state/ironic.sqlite

[dhcp]
dhcp_provider = none

[json_rpc]
auth_strategy = noauth
host_ip = 127.0.0.1
port = $RPC_PORT
use_ssl = false

[oslo_concurrency]
lock_path = $DIR/state/lock

[oslo_messaging_notifications]
driver = noop
CONF
}

start() {
  mkdir -p "$DIR"
  if answers; then
    echo "ironic-lab: already answering at $API"
    return 0
  fi
  t0=$(date +%s.%N)
  install_if_missing
  stop >/dev/null
  write_conf
  ironic-dbsync --config-file "$CONF" create_schema >"$DIR/log/dbsync.out" 2>&1 || {
    echo "ironic-lab: db sync failed; see $DIR/log/dbsync.out" >&2
    exit 1
  }
  setsid ironic-conductor --config-file "$CONF" >"$DIR/log/conductor.out" 2>&1 </dev/null &
  echo $! >"$DIR/conductor.pid"
  setsid ironic-api --config-file "$CONF" >"$DIR/log/api.out" 2>&1 </dev/null &
  echo $! >"$DIR/api.pid"
  for _ in $(seq 1 600); do
    if answers; then
      # The API answers before the conductor has registered; wait for a driver to be listed too.
      if python3 - "$API" <<'PY' >/dev/null 2>&1; then
import json, sys, urllib.request
req = urllib.request.Request(sys.argv[1] + "v1/drivers", headers={"X-OpenStack-Ironic-API-Version": "1.31"})
assert json.load(urllib.request.urlopen(req, timeout=2))["drivers"]
PY
        printf 'ironic-lab: ready at %s in %.1f s\n' "$API" "$(echo "$(date +%s.%N) - $t0" | bc)"
        return 0
      fi
    fi
    for name in api conductor; do
      kill -0 "$(cat "$DIR/$name.pid")" 2>/dev/null || {
        echo "ironic-lab: ironic-$name exited; last log lines:" >&2
        tail -20 "$DIR/log/$name.out" "$DIR/log/ironic-$name.log" 2>/dev/null >&2 || true
        stop >/dev/null
        exit 1
      }
    done
    sleep 0.2
  done
  echo "ironic-lab: no answer at $API after 120 s" >&2
  stop >/dev/null
  exit 1
}

case "${1:-start}" in
  start) start ;;
  stop) stop ;;
  status) answers && echo "ironic-lab: answering at $API" ;;
  *) echo "usage: $0 [start|stop|status]" >&2; exit 2 ;;
esac
