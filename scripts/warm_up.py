"""Run the app once as soon as the server answers, as the Docker HEALTHCHECK does: the model is loaded
before the first visitor, and a bookmarked page (say /attention-masks) opens without Streamlit's
"Page not found" notice.  `make run` starts it beside the server.

    python scripts/warm_up.py [PORT]
"""
import os
import sys
import time
import urllib.request

TIMEOUT_S = 180


def main() -> int:
    port = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("STREAMLIT_SERVER_PORT", "8501")
    base = f"http://127.0.0.1:{port}/_stcore"
    deadline = time.monotonic() + TIMEOUT_S
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"{base}/health", timeout=5).read()
            urllib.request.urlopen(f"{base}/script-health-check", timeout=120).read()
            return 0
        except OSError:
            time.sleep(1)
    return 1


if __name__ == "__main__":
    sys.exit(main())
