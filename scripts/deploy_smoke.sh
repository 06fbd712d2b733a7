#!/usr/bin/env bash
# Deploy smoke test, run for real with podman: deploy/kubernetes.yaml played with `podman kube play`
# (N replicas of the app's image, read-only root file system, emptyDir volumes), HAProxy in front with
# deploy/haproxy.cfg (the proxy image of deploy/compose.yaml), then:
#   - every replica answers /_stcore/health (liveness) and /_stcore/script-health-check (readiness);
#   - each replica runs as non-root on a read-only root; /tmp and HOME (emptyDir) are writable;
#   - through the proxy, new clients are spread over all replicas, and a client with the cookie always
#     reaches the same replica (X-Atlas-Replica, HAProxy's server name) over many requests and a
#     websocket upgrade to /_stcore/stream;
# and everything is torn down.
#
#   bash scripts/deploy_smoke.sh [CONTEXT_DIR [COMMAND...]]
#
# CONTEXT_DIR: the app's build context (default: the repository root). COMMAND, when given, runs after
# the checks with ATLAS_PROXY_URL set to the proxy's address, e.g. a load test through it:
#   bash scripts/deploy_smoke.sh . sh -c '.venv/bin/python benchmarks/bench_class.py --host "$ATLAS_PROXY_URL" --sessions 80'
# while the replicas' memory and CPU are sampled every 5 s (out/deploy_stats.log); its exit status
# fails the run.
#
# Finally HAProxy's own log must show that every request that came with the cookie went to the replica
# it names (cookie status V, never I/D/E/O: invalid, replica down, expired, old).
#
# The app's image is the one scripts/docker_smoke.sh builds (same tag, same build): after it, the build
# here reuses every layer. HAProxy finds the replicas by DNS as in compose; here a dnsmasq on 127.0.0.1
# answers "app" with the pods' addresses. podman 4.3 publishes every containerPort on the host, so the
# played copy of the manifest has no `ports:` (the proxy reaches the pods by their addresses).
#
# Writes out/deploy_metrics.json. Exits non-zero on any failure.
# Settings (environment): ATLAS_IMAGE (attention-atlas:smoke), ATLAS_PROXY_IMAGE
# (attention-atlas-proxy:smoke), ATLAS_REPLICAS (2), ATLAS_DEPLOY_PORT and ATLAS_DNS_PORT (the proxy's
# and dnsmasq's ports on 127.0.0.1; default: free ones), ATLAS_STICKY_CLIENTS (20),
# ATLAS_PYTHON (.venv/bin/python).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CONTEXT="$(cd "${1:-$ROOT}" && pwd)"
shift || true
IMAGE="${ATLAS_IMAGE:-attention-atlas:smoke}"
PROXY_IMAGE="${ATLAS_PROXY_IMAGE:-attention-atlas-proxy:smoke}"
REPLICAS="${ATLAS_REPLICAS:-2}"
CLIENTS="${ATLAS_STICKY_CLIENTS:-20}"
PY="${ATLAS_PYTHON:-$ROOT/.venv/bin/python}"
OUT_DIR="$ROOT/out"
mkdir -p "$OUT_DIR"

log() { printf '[deploy_smoke] %s\n' "$*" >&2; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
free_port() { "$PY" -c 'import socket, sys; s = socket.socket(type=getattr(socket, sys.argv[1])); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' "$1"; }

# The checks need the dev environment (PyYAML, websocket-client).
if ! "$PY" -c 'import yaml, websocket' 2>/dev/null; then
  log "setting up the dev environment (make dev)"
  make -C "$ROOT" -s dev
fi

# podman, containers.conf (exports CONTAINERS_CONF) and the python:3.11-slim stand-in.
# shellcheck source=scripts/podman_setup.sh
source "$ROOT/scripts/podman_setup.sh"
# dnsmasq stands in for Docker's DNS.
command -v dnsmasq >/dev/null || _apt_install dnsmasq-base

# --- build -------------------------------------------------------------------
# shellcheck source=scripts/podman_build.sh
source "$ROOT/scripts/podman_build.sh"
t_build=$(now)
atlas_podman_build "$IMAGE" "$CONTEXT" "$OUT_DIR/deploy_build.log" \
  || { tail -n 40 "$OUT_DIR/deploy_build.log" >&2; log "app image build FAILED (log: out/deploy_build.log)"; exit 1; }
podman build --pull=never --format docker --layers -t "$PROXY_IMAGE" -f "$ROOT/deploy/haproxy.Dockerfile" \
  "$ROOT/deploy" >>"$OUT_DIR/deploy_build.log" 2>&1 \
  || { tail -n 40 "$OUT_DIR/deploy_build.log" >&2; log "proxy image build FAILED (log: out/deploy_build.log)"; exit 1; }
log "images $IMAGE and $PROXY_IMAGE ready in $(elapsed "$t_build" "$(now)")s"

# --- the manifest, played ------------------------------------------------------
work="$(mktemp -d -t atlas-deploy-XXXXXX)"
name="atlas-smoke-$$"
proxy="$name-proxy"
dns_pid=""
stats_pid=""
cleanup() {
  if [ -n "$stats_pid" ]; then kill "$stats_pid" 2>/dev/null || true; fi
  local i
  for i in $(seq 0 $((REPLICAS - 1))); do
    podman logs "$name-pod-$i-app" >"$OUT_DIR/deploy_replica_$i.log" 2>&1 || true
  done
  podman logs "$proxy" >"$OUT_DIR/deploy_proxy.log" 2>&1 || true
  podman rm -f -t 5 "$proxy" >/dev/null 2>&1 || true
  podman kube down "$work/kube.yaml" >/dev/null 2>&1 || true
  if [ -n "$dns_pid" ]; then kill "$dns_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# The Deployment, as it is, but for its name (this run's), the image, the replica count and its ports.
# podman 4.3 makes each emptyDir a volume named as in the manifest, shared by the replicas of one play
# (Kubernetes gives each pod its own): named after this run, so that nothing outside it shares them.
"$PY" - "$ROOT/deploy/kubernetes.yaml" "$work/kube.yaml" "$name" "$IMAGE" "$REPLICAS" <<'PY'
import sys, yaml
src, dst, name, image, replicas = sys.argv[1:]
docs = [d for d in yaml.safe_load_all(open(src)) if d]
deployment = next(d for d in docs if d["kind"] == "Deployment")
deployment["metadata"]["name"] = name
deployment["spec"]["replicas"] = int(replicas)
(container,) = deployment["spec"]["template"]["spec"]["containers"]
container["image"] = image if "/" in image else "localhost/" + image
del container["ports"]
pod = deployment["spec"]["template"]["spec"]
renamed = {v["name"]: f"{name}-{v['name']}" for v in pod["volumes"]}
for v in pod["volumes"]:
    v["name"] = renamed[v["name"]]
for m in container["volumeMounts"]:
    m["name"] = renamed[m["name"]]
service = next(d for d in docs if d["kind"] == "Service")
assert service["spec"]["sessionAffinity"] == "ClientIP", service["spec"]
yaml.safe_dump(deployment, open(dst, "w"), sort_keys=False)
PY

t_play=$(now)
# (podman without systemd logs that it cannot schedule the liveness probe's healthcheck.)
podman kube play "$work/kube.yaml" >"$OUT_DIR/deploy_play.log" 2>&1 \
  || { cat "$OUT_DIR/deploy_play.log" >&2; log "podman kube play failed"; exit 1; }
ips=()
for i in $(seq 0 $((REPLICAS - 1))); do
  infra=$(podman pod inspect --format '{{.InfraContainerID}}' "$name-pod-$i")
  ip=$(podman inspect --format '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$infra")
  [ -n "$ip" ] || { log "pod $name-pod-$i has no address"; exit 1; }
  ips+=("$ip")
done
log "$REPLICAS pods played: ${ips[*]}"

# Liveness: /_stcore/health on every replica; readiness: /_stcore/script-health-check (the app's script
# run once, the model loaded).
wait_ok() {  # URL TIMEOUT_S REQUEST_TIMEOUT_S
  "$PY" - "$@" <<'PY'
import sys, time, urllib.request
url, limit, each = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
end = time.time() + limit
while True:
    try:
        if urllib.request.urlopen(url, timeout=each).status == 200:
            break
    except OSError:
        pass
    if time.time() > end:
        sys.exit(f"{url}: no 200 within {limit:.0f} s")
    time.sleep(0.2)
PY
}
for ip in "${ips[@]}"; do wait_ok "http://$ip:8501/_stcore/health" 180 2; done
healthy_s=$(elapsed "$t_play" "$(now)")
log "all $REPLICAS replicas alive (/_stcore/health) ${healthy_s}s after podman kube play"
for ip in "${ips[@]}"; do wait_ok "http://$ip:8501/_stcore/script-health-check" 120 60; done
ready_s=$(elapsed "$t_play" "$(now)")
log "all $REPLICAS replicas ready (/_stcore/script-health-check) ${ready_s}s after podman kube play"

# What the security context promises.
for i in $(seq 0 $((REPLICAS - 1))); do
  ctr="$name-pod-$i-app"
  [ "$(podman inspect --format '{{.HostConfig.ReadonlyRootfs}}' "$ctr")" = true ] || { log "$ctr: root file system not read-only"; exit 1; }
  podman exec "$ctr" sh -c '
    set -e
    [ "$(id -u)" != 0 ] || { echo "runs as root"; exit 1; }
    if touch /app/.write-test 2>/dev/null; then echo "/app is writable"; exit 1; fi
    for d in /tmp "$HOME" "$(dirname "$ATLAS_UPLOAD_DIR")"; do
      touch "$d/.write-test" && rm "$d/.write-test" || { echo "$d is not writable"; exit 1; }
    done' || { log "$ctr: security context check failed"; exit 1; }
done
log "replicas: non-root, read-only root, /tmp and HOME writable"
mem_mb=$(podman stats --no-stream --format '{{.Name}} {{.MemUsage}}' | awk -v n="$name-pod-" 'index($1, n) == 1 { print $1 "=" $2 }' | tr '\n' ' ')
log "memory after the readiness check: $mem_mb"

# --- HAProxy in front, the replicas found by DNS ---------------------------------
port="${ATLAS_DEPLOY_PORT:-$(free_port SOCK_STREAM)}"
dns_port="${ATLAS_DNS_PORT:-$(free_port SOCK_DGRAM)}"
for ip in "${ips[@]}"; do printf '%s app\n' "$ip"; done >"$work/hosts"
dnsmasq --keep-in-foreground --conf-file=/dev/null --no-resolv --no-hosts --addn-hosts="$work/hosts" \
  --listen-address=127.0.0.1 --bind-interfaces --port="$dns_port" --user=root --log-facility=- \
  >"$OUT_DIR/deploy_dnsmasq.log" 2>&1 &
dns_pid=$!
podman run -d --name "$proxy" --network host --read-only --cap-drop ALL \
  -e ATLAS_APP=app:8501 -e "ATLAS_DNS=127.0.0.1:$dns_port" -e "ATLAS_BIND=127.0.0.1:$port" \
  "$PROXY_IMAGE" >/dev/null 2>"$OUT_DIR/deploy_proxy_run.err" \
  || { cat "$OUT_DIR/deploy_proxy_run.err" >&2; log "podman run of the proxy failed"; exit 1; }
log "HAProxy on 127.0.0.1:$port, dnsmasq on 127.0.0.1:$dns_port"

# --- stickiness ------------------------------------------------------------------
sticky_json=$("$PY" - "http://127.0.0.1:$port" "$REPLICAS" "$CLIENTS" <<'PY'
import json, sys, time, urllib.request
import websocket

base, replicas, clients = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
COOKIE = "atlas_replica"
PATHS = ["/", "/_stcore/health", "/_stcore/host-config", "/attention-masks", "/_stcore/health?x=1"]


def get(path, cookie=None):
    req = urllib.request.Request(base + path, headers={"Cookie": f"{COOKIE}={cookie}"} if cookie else {})
    with urllib.request.urlopen(req, timeout=10) as r:
        r.read()
        cookies = [c.split(";")[0].split("=", 1) for c in r.headers.get_all("Set-Cookie") or []]
        return r.status, r.headers["X-Atlas-Replica"], dict(cookies).get(COOKIE)


# New clients (no cookie) until every replica has answered one: HAProxy has found them all by DNS.
seen, end = set(), time.time() + 60
while len(seen) < replicas:
    try:
        seen.add(get("/_stcore/health")[1])
    except OSError:
        pass
    if time.time() > end:
        sys.exit(f"through the proxy only {sorted(seen)} answered within 60 s, not {replicas} replicas")
    time.sleep(0.2)

per_replica, requests = {}, 0
for n in range(clients):
    status, replica, cookie = get("/")
    assert status == 200 and replica and cookie, (status, replica, cookie)
    per_replica[replica] = per_replica.get(replica, 0) + 1
    for k in range(20):
        status, again, _ = get(PATHS[k % len(PATHS)], cookie)
        requests += 1
        if status != 200 or again != replica:
            sys.exit(f"client {n}: request {k} ({PATHS[k % len(PATHS)]}) went to {again} (status {status}), "
                     f"its cookie names {replica}")
    # The websocket a browser tab opens: upgraded by the same replica, and open.
    ws = websocket.create_connection(base.replace("http", "ws", 1) + "/_stcore/stream", timeout=10,
                                     cookie=f"{COOKIE}={cookie}", subprotocols=["streamlit"])
    try:
        headers = ws.getheaders()
        if ws.getstatus() != 101 or headers.get("x-atlas-replica") != replica:
            sys.exit(f"client {n}: websocket upgrade answered {ws.getstatus()} by {headers.get('x-atlas-replica')}, "
                     f"its cookie names {replica}")
        ws.ping()
    finally:
        ws.close()
    requests += 1
if len(per_replica) < replicas:
    sys.exit(f"{clients} new clients all went to {sorted(per_replica)}: not spread over {replicas} replicas")
print(json.dumps({"clients": clients, "requests_with_cookie": requests, "new_clients_per_replica": per_replica}))
PY
) || { log "stickiness check FAILED"; exit 1; }
log "sticky: $sticky_json"

# --- the command, through the proxy ----------------------------------------------------
command_rc=null
if [ "$#" -gt 0 ]; then
  while :; do
    podman stats --no-stream --format '{{.Name}} {{.MemUsage}} {{.CPUPerc}}' | sed "s/^/$(date +%s) /"
    sleep 5
  done >"$OUT_DIR/deploy_stats.log" 2>&1 &
  stats_pid=$!
  log "running through the proxy: $*"
  command_rc=0
  ATLAS_PROXY_URL="http://127.0.0.1:$port" "$@" || command_rc=$?
  kill "$stats_pid" 2>/dev/null || true
  stats_pid=""
  log "the command exited $command_rc"
fi
peak_mem=$(awk -v n="$name-pod-" 'index($2, n) == 1 { v = $3; u = v; sub(/[A-Za-z]+$/, "", v); sub(/^[0-9.]+/, "", u);
             mb = (u == "GB") ? v * 1000 : (u == "kB") ? v / 1000 : v; if (mb > peak[$2]) peak[$2] = mb }
           END { for (c in peak) printf "%s=%.0fMB ", c, peak[c] }' "$OUT_DIR/deploy_stats.log" 2>/dev/null || true)
[ -z "$peak_mem" ] || log "peak memory while it ran: $peak_mem"

# --- HAProxy's log: every request with the cookie reached the replica it names -------------------
podman logs "$proxy" >"$OUT_DIR/deploy_proxy.log" 2>&1 || true
cookies_json=$("$PY" - "$OUT_DIR/deploy_proxy.log" <<'PY'
import collections, json, re, sys
# httplog: ... frontend backend/server Tq/Tw/Tc/Tr/Ta status bytes - - TERMINATION_STATE conns queue "request"
line_re = re.compile(r" \S+ \S+/(\S+) \S+ (-?\d+) \S+ \S+ \S+ ([-A-Za-z]{4}) ")
status, servers = collections.Counter(), collections.Counter()
for line in open(sys.argv[1], errors="replace"):
    m = line_re.search(line)
    if m:
        status[m.group(3)[2]] += 1
        servers[m.group(1)] += 1
bad = {k: n for k, n in status.items() if k in "IDEO"}
print(json.dumps({"requests_logged": sum(status.values()), "with_valid_cookie": status["V"],
                  "new_clients": status["N"], "cookie_not_honoured": bad, "per_replica": dict(servers)}))
sys.exit(1 if bad or not status["V"] else 0)
PY
) || { log "HAProxy's log: requests whose cookie was not honoured: $cookies_json"; exit 1; }
log "HAProxy's log: $cookies_json"

# --- metrics ---------------------------------------------------------------------
"$PY" - "$OUT_DIR/deploy_metrics.json" <<PY
import json, platform, sys, time
m = {
    "replicas": $REPLICAS,
    "image": "$IMAGE",
    "proxy_image": "$PROXY_IMAGE",
    "play_to_all_alive_s": $healthy_s,
    "play_to_all_ready_s": $ready_s,
    "memory_after_ready": "$mem_mb".split(),
    "sticky": $sticky_json,
    "haproxy_log": $cookies_json,
    "command": $( [ "$#" -gt 0 ] && printf '%s' "$*" | "$PY" -c 'import json, sys; print(json.dumps(sys.stdin.read()))' || echo None ),
    "command_exit": json.loads("$command_rc"),
    "peak_memory_during_command": "$peak_mem".split(),
    "engine": "$(podman --version)",
    "proxy": "$(podman run --rm "$PROXY_IMAGE" haproxy -v | head -n 1)",
    "machine": f"{platform.machine()}, $(nproc) CPU cores",
    "measured_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    "script": "bash scripts/deploy_smoke.sh",
    "git_rev": "$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)",
}
json.dump(m, open(sys.argv[1], "w"), indent=2)
print(json.dumps(m, indent=2))
PY
[ "$command_rc" = null ] || [ "$command_rc" = 0 ] || { log "the command through the proxy failed (exit $command_rc)"; exit 1; }
log "PASS"
