#!/usr/bin/env bash
# Build the app's image with podman, as scripts/docker_smoke.sh and scripts/deploy_smoke.sh both do:
#
#   source scripts/podman_build.sh
#   atlas_podman_build IMAGE CONTEXT_DIR LOG_FILE
#
# --pull=never (podman_setup.sh provides python:3.11-slim), --format docker (keeps the HEALTHCHECK),
# --layers (a second build of the same tree reuses every layer, in seconds). Passes the torch CPU
# wheel from pip's find-links folder (or /opt/wheels) as the "wheels" build context, the system
# CA bundle as the "pip_ca" secret and pip's network index as PIP_INDEX_URL, when there are such.
# Needs CONTAINERS_CONF from scripts/podman_setup.sh. Returns podman build's exit status.

atlas_podman_build() {
  local image="$1" context="$2" log_file="$3" torch_version="2.13.0"
  local build_args=(--pull=never --format docker --layers -t "$image" -f "$context/Dockerfile")
  local wheels_dir="" d ca index_url
  # shellcheck disable=SC2046
  for d in ${PIP_FIND_LINKS:-} $(pip config get global.find-links 2>/dev/null || true) /opt/wheels; do
    if compgen -G "$d/torch-${torch_version}+cpu-*.whl" >/dev/null; then wheels_dir="$d"; break; fi
  done
  if [ -n "$wheels_dir" ]; then
    build_args+=(--build-context "wheels=$wheels_dir")
    printf '[podman_build] torch wheel from %s\n' "$wheels_dir" >&2
  fi
  # pip inside the build trusts the system CA bundle (TLS-inspecting networks).
  for ca in "${PIP_CERT:-}" /etc/ssl/certs/ca-certificates.crt; do
    if [ -n "$ca" ] && [ -s "$ca" ]; then build_args+=(--secret "id=pip_ca,src=$ca"); break; fi
  done
  # The PyPI index the host's pip uses, if it is a network one.
  index_url="$(pip config get global.index-url 2>/dev/null || true)"
  case "$index_url" in http://*|https://*) build_args+=(--build-arg "PIP_INDEX_URL=$index_url") ;; esac
  printf '[podman_build] podman build %s %s\n' "${build_args[*]}" "$context" >&2
  podman build "${build_args[@]}" "$context" >"$log_file" 2>&1
}
