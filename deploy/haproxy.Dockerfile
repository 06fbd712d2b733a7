# syntax=docker/dockerfile:1
# HAProxy for deploy/compose.yaml: Debian's haproxy on the app's own base image (no other image to
# pull), with deploy/haproxy.cfg.
#
#   docker build -f deploy/haproxy.Dockerfile -t attention-atlas-proxy deploy
FROM python:3.11-slim

# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends haproxy \
    && rm -rf /var/lib/apt/lists/* \
    && haproxy -v

COPY haproxy.cfg /etc/haproxy/haproxy.cfg

# deploy/haproxy.cfg reads these; compose.yaml sets the same.
ENV ATLAS_APP=app:8501 \
    ATLAS_DNS=127.0.0.11:53 \
    ATLAS_BIND=:8080 \
    ATLAS_COOKIE_KEY=attention-atlas

# The user Debian's package creates (its uid is the package's choice).
# hadolint ignore=DL3066
USER haproxy
EXPOSE 8080
# -W: master-worker (reload on SIGUSR2), -db: stay in the foreground, logs on stdout.
CMD ["haproxy", "-W", "-db", "-f", "/etc/haproxy/haproxy.cfg"]
