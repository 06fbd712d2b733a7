# syntax=docker/dockerfile:1
# Attention Atlas: the Streamlit app with its bundled checkpoint, CPU-only.
#
#   docker build -t attention-atlas .
#   docker run -p 8501:8501 attention-atlas        # then open http://localhost:8501
#
# Optional: a folder that already holds the torch CPU wheel can be passed as the
# build context named "wheels" (BuildKit / podman):
#   docker build --build-context wheels=/opt/wheels -t attention-atlas .
# Without it, torch comes from PyTorch's CPU index.

# Empty by default; replaced by `--build-context wheels=DIR`.
FROM scratch AS wheels

FROM python:3.11-slim

ARG TORCH_VERSION=2.13.0
ARG TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu
# Where every other package comes from (a PyPI mirror can be given with --build-arg).
ARG PIP_INDEX_URL=https://pypi.org/simple

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_DEFAULT_TIMEOUT=180

WORKDIR /app

# Dependencies first, so that code changes don't reinstall them.
# torch: the local CPU wheel when one is mounted, else PyTorch's CPU index; then the
# pinned requirements (torch==2.13.0 is then already satisfied, nothing else is fetched).
# torch's C++ test programs and headers are dropped (~190 MB): nothing here compiles
# against torch, and the slim image has no compiler anyway.
# A CA bundle given as the build secret "pip_ca" is trusted by pip (TLS-inspecting
# networks); without the secret nothing changes.
COPY requirements.txt ./
RUN --mount=type=bind,from=wheels,target=/wheels \
    --mount=type=secret,id=pip_ca \
    set -eu; \
    if [ -s /run/secrets/pip_ca ]; then export PIP_CERT=/run/secrets/pip_ca; fi; \
    have_wheel=no; \
    for f in /wheels/torch-"${TORCH_VERSION}"+cpu-*.whl; do \
      if [ -f "$f" ]; then have_wheel=yes; fi; \
    done; \
    if [ "$have_wheel" = yes ]; then \
      pip install --no-cache-dir --find-links /wheels "torch==${TORCH_VERSION}+cpu"; \
    else \
      pip install --no-cache-dir --index-url "$TORCH_INDEX_URL" "torch==${TORCH_VERSION}+cpu"; \
    fi; \
    pip install --no-cache-dir -r requirements.txt; \
    python -c "import torch; assert torch.__version__.split('+')[0] == '${TORCH_VERSION}', torch.__version__"; \
    torch_dir="$(python -c 'import os, torch; print(os.path.dirname(torch.__file__))')"; \
    rm -rf "$torch_dir/test" "$torch_dir/include" "$torch_dir"/bin/*Test "$torch_dir"/bin/test_* "$torch_dir"/bin/protoc*

# Unprivileged user; the app's files stay root-owned and read-only to it.
RUN useradd --create-home --uid 10001 --user-group --shell /usr/sbin/nologin atlas

# .dockerignore lets in only the app: app.py, pages/, transformer_core/, assets/,
# checkpoints/ and .streamlit/config.toml.
COPY . .
# plotly.js for the charts redrawn in place (pages/ui/live_chart.py), served from static/.
RUN python -c "from pages.ui.live_chart import install_plotly_js; assert install_plotly_js()"

# Classroom server settings (also in .streamlit/config.toml, for `make run`).
ENV STREAMLIT_SERVER_HEADLESS=true \
    STREAMLIT_SERVER_PORT=8501 \
    STREAMLIT_SERVER_ADDRESS=0.0.0.0 \
    STREAMLIT_SERVER_MAX_UPLOAD_SIZE=50 \
    STREAMLIT_SERVER_ENABLE_XSRF_PROTECTION=true \
    STREAMLIT_SERVER_ENABLE_CORS=true \
    STREAMLIT_SERVER_FILE_WATCHER_TYPE=none \
    STREAMLIT_SERVER_ENABLE_STATIC_SERVING=true \
    STREAMLIT_SERVER_SCRIPT_HEALTH_CHECK_ENABLED=true \
    STREAMLIT_SERVER_RUN_ON_SAVE=false \
    STREAMLIT_RUNNER_MAGIC_ENABLED=false \
    STREAMLIT_RUNNER_POST_SCRIPT_GC=false \
    STREAMLIT_CLIENT_TOOLBAR_MODE=viewer \
    STREAMLIT_CLIENT_SHOW_ERROR_DETAILS=none \
    STREAMLIT_BROWSER_GATHER_USAGE_STATS=false

USER 10001:10001
EXPOSE 8501

# Healthy = the app's script runs without an error (a throwaway session runs the home page). The first
# check also loads the model for the first visitor and ends Streamlit's older pages/ mode, in which the
# first visit to a page's own URL would show a "Page not found" notice.
HEALTHCHECK --interval=15s --timeout=30s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8501/_stcore/script-health-check', timeout=25).status == 200 else 1)"]

CMD ["streamlit", "run", "app.py"]
