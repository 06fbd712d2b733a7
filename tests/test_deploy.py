"""deploy/: the Kubernetes manifest against Kubernetes' own schemas, and the promises deploy/README.md makes
about it and about compose.yaml + haproxy.cfg. scripts/deploy_smoke.sh runs them for real (podman, HAProxy)."""
import re
from pathlib import Path

import kubernetes_validate
import pytest
import yaml

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
DOCS = [d for d in yaml.safe_load_all((DEPLOY / "kubernetes.yaml").read_text()) if d]
COMPOSE = yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def kind(name: str) -> dict:
    (doc,) = [d for d in DOCS if d["kind"] == name]
    return doc


def app_container() -> dict:
    (container,) = kind("Deployment")["spec"]["template"]["spec"]["containers"]
    return container


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: d["kind"])
def test_manifest_is_valid_kubernetes(doc):
    # strict: a misspelt field fails too
    kubernetes_validate.validate(doc, kubernetes_validate.latest_version(), strict=True)


def test_service_selects_the_pods_and_pins_each_client():
    pod_labels = kind("Deployment")["spec"]["template"]["metadata"]["labels"]
    service = kind("Service")["spec"]
    assert service["selector"].items() <= pod_labels.items()
    assert service["sessionAffinity"] == "ClientIP"
    assert service["ports"][0]["targetPort"] in [p["name"] for p in app_container()["ports"]]


def test_probes_liveness_cheap_readiness_runs_the_script():
    c = app_container()
    assert c["startupProbe"]["httpGet"]["path"] == "/_stcore/health"
    assert c["livenessProbe"]["httpGet"]["path"] == "/_stcore/health"
    assert c["readinessProbe"]["httpGet"]["path"] == "/_stcore/script-health-check"


def test_read_only_root_and_every_written_path_on_a_volume():
    spec = kind("Deployment")["spec"]["template"]["spec"]
    c = app_container()
    assert spec["securityContext"]["runAsNonRoot"] and spec["securityContext"]["runAsUser"] != 0
    assert c["securityContext"]["readOnlyRootFilesystem"] is True
    assert c["securityContext"]["allowPrivilegeEscalation"] is False
    empty_dirs = {v["name"] for v in spec["volumes"] if "emptyDir" in v}
    mounts = [m["mountPath"] for m in c["volumeMounts"] if m["name"] in empty_dirs]
    env = {e["name"]: e["value"] for e in c["env"]}
    for name in ("HOME", "TMPDIR", "ATLAS_UPLOAD_DIR"):
        assert any(env[name] == m or env[name].startswith(m + "/") for m in mounts), name
    # compose gives the app the same paths, on tmpfs, with the same read-only root
    app = COMPOSE["services"]["app"]
    assert app["environment"] == env and app["read_only"] is True
    tmpfs = [t.split(":")[0] for t in app["tmpfs"]]
    assert all(any(env[n] == t or env[n].startswith(t + "/") for t in tmpfs) for n in env)


def test_resources_bounded():
    res = app_container()["resources"]
    assert {"cpu", "memory"} <= res["requests"].keys() and {"cpu", "memory"} <= res["limits"].keys()


def test_haproxy_gets_every_variable_it_reads():
    cfg = (DEPLOY / "haproxy.cfg").read_text()
    used = set(re.findall(r"\$\{(\w+)\}", cfg))
    assert used == {"ATLAS_APP", "ATLAS_DNS", "ATLAS_BIND", "ATLAS_COOKIE_KEY"}
    assert used <= COMPOSE["services"]["proxy"]["environment"].keys()
    dockerfile_env = set(re.findall(r"\b(ATLAS_\w+)=", (DEPLOY / "haproxy.Dockerfile").read_text()))
    assert used <= dockerfile_env
    assert re.search(r"^\s*timeout tunnel\s", cfg, re.M) and re.search(r"^\s*cookie \S+ insert", cfg, re.M)
