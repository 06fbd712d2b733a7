#!/usr/bin/env bash
# Prepare podman on this machine so that the project's Dockerfile builds and runs
# unchanged (`FROM python:3.11-slim`) with no Docker engine and no container registry.
#
#   source scripts/podman_setup.sh      # or: bash scripts/podman_setup.sh
#
# What it does (each step is skipped when already done):
#   1. installs Debian's podman, runc, catatonit, debootstrap (only as root, only if missing);
#   2. writes a containers.conf (runc, cgroupfs, file events, ulimits that work in
#      this sandbox) and exports CONTAINERS_CONF pointing at it;
#   3. builds a local stand-in for python:3.11-slim from Debian bookworm (debootstrap
#      against the apt mirror this machine already uses, then `podman import`), with
#      python/pip at the same paths as the real image (/usr/local/bin/python, pip).
#      Set ATLAS_REBUILD_BASE=1 to rebuild it.
# Settings: ATLAS_PODMAN_DIR (default ~/.cache/attention-atlas/podman).
set -euo pipefail

ATLAS_PODMAN_DIR="${ATLAS_PODMAN_DIR:-${XDG_CACHE_HOME:-${HOME:-/var/tmp}/.cache}/attention-atlas/podman}"
ATLAS_BASE_IMAGE="${ATLAS_BASE_IMAGE:-docker.io/library/python:3.11-slim}"
ATLAS_STANDIN_LABEL="org.attention-atlas.standin"

_log() { printf '[podman_setup] %s\n' "$*" >&2; }

_apt_install() {
  # apt-get install the given Debian packages that are not installed yet.
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ "${#missing[@]}" -eq 0 ] && return 0
  if [ "$(id -u)" != 0 ]; then
    _log "missing Debian packages: ${missing[*]} (run as root, or: sudo apt-get install ${missing[*]})"
    return 1
  fi
  _log "apt-get install ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

_debian_mirror() {
  # The Debian mirror this machine's apt uses for the release itself (not -security).
  local codename="$1" m=""
  if [ -f /etc/apt/sources.list ]; then
    m="$(awk -v s="$codename" '$1=="deb" && $0 !~ /security/ {
           for (i=2;i<=NF;i++) if ($i ~ /^(https?|file):/) { u=$i; if ($(i+1)==s) { print u; exit } } }' /etc/apt/sources.list)"
  fi
  if [ -z "$m" ]; then
    local f
    for f in /etc/apt/sources.list.d/*.sources; do
      [ -f "$f" ] || continue
      m="$(awk -v s="$codename" 'BEGIN { RS=""; FS="\n" } {
             uris=""; suites=""; enabled="yes"
             for (i=1;i<=NF;i++) {
               if ($i ~ /^URIs:/)    { sub(/^URIs:[ \t]*/, "", $i); uris=$i }
               if ($i ~ /^Suites:/)  { sub(/^Suites:[ \t]*/, "", $i); suites=" " $i " " }
               if ($i ~ /^Enabled:/) { sub(/^Enabled:[ \t]*/, "", $i); enabled=$i }
             }
             if (enabled != "no" && index(suites, " " s " ") && uris !~ /security/) { split(uris, a, " "); print a[1]; exit }
           }' "$f")"
      [ -n "$m" ] && break
    done
  fi
  printf '%s\n' "${m:-http://deb.debian.org/debian}"
}

_write_containers_conf() {
  mkdir -p "$ATLAS_PODMAN_DIR"
  local nofile conf="$ATLAS_PODMAN_DIR/containers.conf"
  nofile="$(ulimit -Hn)"
  [ "$nofile" = unlimited ] && nofile=1048576
  cat >"$conf.tmp" <<CONF
# Written by scripts/podman_setup.sh. crun and podman's default ulimits fail in
# this sandbox; runc with these limits works.
[containers]
default_ulimits = ["nofile=${nofile}:${nofile}", "nproc=32768:32768"]

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
CONF
  mv "$conf.tmp" "$conf"
  export CONTAINERS_CONF="$conf"
}

_build_base() {
  if [ -z "${ATLAS_REBUILD_BASE:-}" ] && podman image exists "$ATLAS_BASE_IMAGE"; then
    _log "base image $ATLAS_BASE_IMAGE present"
    return 0
  fi
  local codename mirror rootfs
  # shellcheck disable=SC1091
  codename="$(. /etc/os-release && printf '%s' "${VERSION_CODENAME:-bookworm}")"
  [ "$codename" = bookworm ] || codename=bookworm   # python:3.11-slim is bookworm-based
  mirror="$(_debian_mirror "$codename")"
  rootfs="$ATLAS_PODMAN_DIR/rootfs-$codename"
  _log "debootstrap --variant=minbase $codename from $mirror"
  rm -rf "$rootfs"
  mkdir -p "$rootfs"
  debootstrap --variant=minbase \
    --include=python3,python3-venv,ca-certificates,netbase,passwd,tzdata \
    "$codename" "$rootfs" "$mirror" >"$ATLAS_PODMAN_DIR/debootstrap.log" 2>&1 \
    || { tail -n 30 "$ATLAS_PODMAN_DIR/debootstrap.log" >&2; return 1; }
  # python/pip where python:3.11-slim has them: a venv over /usr/local.
  chroot "$rootfs" /usr/bin/python3 -m venv /usr/local
  chroot "$rootfs" /usr/local/bin/python -m pip --version >/dev/null
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/archives/*.deb \
         "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/log/* "$rootfs"/tmp/* "$rootfs"/root/.cache
  # The stand-in's apt must use the same mirror as the host.
  printf 'deb %s %s main\n' "$mirror" "$codename" >"$rootfs/etc/apt/sources.list"
  _log "podman import -> $ATLAS_BASE_IMAGE"
  tar -C "$rootfs" --numeric-owner -c . | podman import \
    --change 'ENV PATH=/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV LANG=C.UTF-8' \
    --change "LABEL ${ATLAS_STANDIN_LABEL}=debootstrap-${codename}" \
    --change 'CMD ["python3"]' \
    - "$ATLAS_BASE_IMAGE" >/dev/null
  rm -rf "$rootfs"
  podman run --rm --pull=never "$ATLAS_BASE_IMAGE" python -c 'import ssl, sys; print("stand-in python", sys.version.split()[0])' >&2
}

atlas_podman_setup() {
  # catatonit: the pause process of pods (podman kube play).
  command -v podman >/dev/null && command -v runc >/dev/null && command -v debootstrap >/dev/null \
    && command -v catatonit >/dev/null \
    || _apt_install podman runc debootstrap catatonit uidmap fuse-overlayfs ca-certificates
  _write_containers_conf
  _build_base
  _log "ready: export CONTAINERS_CONF=$CONTAINERS_CONF"
}

atlas_podman_setup
