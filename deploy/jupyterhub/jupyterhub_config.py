"""JupyterHub on one machine, from the Zero to JupyterHub values in config.yaml.

    jupyterhub -f deploy/jupyterhub/jupyterhub_config.py

config.yaml stays the one source: this file reads it and sets what the chart would set, for a
hub whose students' servers are local processes (LocalProcessSpawner: one system user per
student) serving this checkout. Needs pyyaml and configurable-http-proxy (`make hub-proxy`
installs it into .hub-node/). A key of config.yaml that this file does not know stops the hub
(see K8S_ONLY for those that only mean something on Kubernetes), so the two cannot drift apart;
tests/test_deploy_config.py checks the result and tests/browser/test_hub.py runs it with two
students.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
VALUES = HERE / "config.yaml"

# Values that only a Kubernetes cluster uses (images, volumes, node scheduling).
K8S_ONLY = {
    ("singleuser", "image"),
    ("singleuser", "storage"),
    ("prePuller",),
    ("scheduling",),
}
# Where the chart mounts extraFiles that are Jupyter server configuration.
SERVER_CONFIG_DIR = "/etc/jupyter/"


def _server_args(extra_files: dict) -> list[str]:
    """The single-user server's command-line options for the chart's extraFiles.

    A file with `data` (a JSON configuration) becomes --Class.trait=value options; a file
    without (its stringData comes from helm's --set-file) must be the file of that name in this
    folder, which the server finds on JUPYTER_CONFIG_PATH.
    """
    args = []
    for name, spec in extra_files.items():
        mount = spec["mountPath"]
        if not mount.startswith(SERVER_CONFIG_DIR):
            raise ValueError(f"extraFiles.{name}: {mount} is not Jupyter configuration")
        if "data" in spec:
            for cls, traits in spec["data"].items():
                for trait, value in traits.items():
                    args.append(f"--{cls}.{trait}={value!r}")
        elif not (HERE / Path(mount).name).is_file():
            raise ValueError(f"extraFiles.{name}: no {Path(mount).name} beside {VALUES.name}")
    return args


def apply(c, values: dict) -> None:
    """Set the hub configuration `c` from the chart values."""
    known = {("hub", "config"), ("cull",), *K8S_ONLY}
    single = values.get("singleuser", {})
    known |= {("singleuser", k) for k in ("defaultUrl", "memory", "cpu", "extraFiles")}
    given = {(k,) for k in values if k != "singleuser" and k != "hub"}
    given |= {("singleuser", k) for k in single}
    given |= {("hub", k) for k in values.get("hub", {})}
    unknown = given - known
    if unknown:
        raise ValueError(f"{VALUES.name}: no translation for {sorted(unknown)}")

    # hub.config is JupyterHub configuration as it is: Class -> trait -> value.
    for cls, traits in values["hub"]["config"].items():
        for trait, value in traits.items():
            setattr(c[cls], trait, value)

    c.Spawner.default_url = single["defaultUrl"]
    # The chart's root directory is the home directory, where the image keeps the repository;
    # here it is this checkout.
    c.Spawner.notebook_dir = str(REPO)
    c.Spawner.cmd = [str(Path(sys.executable).with_name("jupyterhub-singleuser"))]
    c.Spawner.environment = {"JUPYTER_CONFIG_PATH": str(HERE)}
    c.Spawner.args = _server_args(single.get("extraFiles", {}))
    # Local processes do not enforce these (Kubernetes does); they are passed on as
    # MEM_LIMIT/CPU_LIMIT for the server to report.
    c.Spawner.mem_limit = single["memory"]["limit"]
    c.Spawner.mem_guarantee = single["memory"]["guarantee"]
    c.Spawner.cpu_limit = float(single["cpu"]["limit"])
    c.Spawner.cpu_guarantee = float(single["cpu"]["guarantee"])

    # cull: the chart runs jupyterhub-idle-culler as a hub service; so does this file when the
    # package is installed (pip install jupyterhub-idle-culler).
    cull = values.get("cull", {})
    if cull.get("enabled") and importlib.util.find_spec("jupyterhub_idle_culler"):
        c.JupyterHub.services = [{
            "name": "idle-culler",
            "command": [sys.executable, "-m", "jupyterhub_idle_culler",
                        f"--timeout={cull['timeout']}", f"--cull-every={cull['every']}"],
        }]
        c.JupyterHub.load_roles = [{
            "name": "idle-culler",
            "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
            "services": ["idle-culler"],
        }]


def proxy_command() -> list[str] | None:
    """configurable-http-proxy from the project's .hub-node/ (make hub-proxy), else PATH."""
    local = REPO / ".hub-node" / "node_modules" / ".bin" / "configurable-http-proxy"
    if local.is_file():
        return [str(local)]
    found = shutil.which("configurable-http-proxy")
    return [found] if found else None


if "get_config" in globals():  # loaded by JupyterHub (not imported by a test)
    c = get_config()  # noqa: F821
    apply(c, yaml.safe_load(VALUES.read_text()))
    # Loopback: put the school's TLS proxy (nginx) in front, or change this.
    c.JupyterHub.bind_url = "http://127.0.0.1:8000/"
    _proxy = proxy_command()
    if _proxy:
        c.ConfigurableHTTPProxy.command = _proxy
