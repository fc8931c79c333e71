"""Checks of the deployment files: JupyterHub values, nginx per-class proxy, systemd unit, Binder.

What can be checked without a cluster or a proxy: the files parse, carry the keys
that make them work, agree with each other and with voila.json, and point at
lessons that exist.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from pathlib import Path

import pytest
import yaml

from widgets.lessons import course

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
LESSONS = course.FILES  # the one list of the lessons
START_HERE = "lessons/00_start_here.ipynb"


@pytest.fixture(scope="module")
def hub() -> dict:
    return yaml.safe_load((DEPLOY / "jupyterhub/config.yaml").read_text())


@pytest.fixture(scope="module")
def voila_json() -> dict:
    return json.loads((ROOT / "voila.json").read_text())


def _lesson_path(url_path: str) -> str:
    prefix = "/voila/render/"
    assert url_path.startswith(prefix), url_path
    return url_path[len(prefix):]


# --- Zero to JupyterHub -------------------------------------------------------------------------


def test_hub_opens_start_here_in_voila(hub: dict) -> None:
    path = _lesson_path(hub["singleuser"]["defaultUrl"])
    assert path == START_HERE
    assert Path(path).name in LESSONS
    assert (ROOT / path).is_file(), f"{path} is missing (the lessons' landing page)"


def test_hub_keys(hub: dict) -> None:
    single = hub["singleuser"]
    assert set(hub) <= {"hub", "singleuser", "cull", "prePuller", "scheduling", "proxy", "ingress"}
    assert single["image"]["name"] and single["image"]["tag"]
    assert isinstance(single["image"]["tag"], str)  # a number would lose its form in YAML
    # No home volume: it would hide the lessons that the image keeps in the home directory.
    assert single["storage"]["type"] == "none"
    assert hub["cull"]["enabled"] is True
    assert 0 < hub["cull"]["every"] <= hub["cull"]["timeout"]
    assert hub["hub"]["config"]["JupyterHub"]["authenticator_class"]
    for key in ("guarantee", "limit"):
        assert re.fullmatch(r"\d+[MG]", single["memory"][key]), single["memory"][key]


def test_hub_kernel_culling_matches_voila_json(hub: dict, voila_json: dict) -> None:
    files = hub["singleuser"]["extraFiles"]
    (culling,) = [f for f in files.values() if "MappingKernelManager" in f.get("data", {})]
    assert culling["mountPath"].startswith("/etc/jupyter/")
    assert culling["mountPath"].endswith(".json")  # the chart serialises `data` by extension
    assert culling["data"]["MappingKernelManager"] == voila_json["MappingKernelManager"]


# --- nginx: one Voila per class -----------------------------------------------------------------


RENDER = "voila/render/"


def _nginx_blocks(text: str, render: bool = False) -> dict[str, str]:
    """location prefix -> its body, for the simple one-level blocks of the example: the class
    prefixes, or with `render` the lesson-page locations inside them (rate-limited)."""
    text = re.sub(r"#.*", "", text)
    blocks = re.finditer(r"location\s+(/[^\s{]*)\s*\{([^}]*)\}", text)
    return {m.group(1): m.group(2) for m in blocks if m.group(1).endswith(RENDER) == render}


def test_nginx_limits_the_rate_of_lesson_pages() -> None:
    """Every page GET starts a kernel: nginx limits them per student computer (limit_req on
    /<class>/voila/render/, same Voila as the class) and answers 429 beyond it."""
    site = (DEPLOY / "nginx/voila-per-class.conf").read_text()
    zones = dict(re.findall(r"^limit_req_zone\s+\$binary_remote_addr\s+zone=(\w+):\d+m\s+"
                            r"rate=(\d+r/[sm]);", site, re.M))
    assert zones
    assert re.search(r"^limit_req_status\s+429;", site, re.M)
    classes = _nginx_blocks(site)
    pages = _nginx_blocks(site, render=True)
    assert {loc[: -len(RENDER)] for loc in pages} == set(classes) - {"/"}
    for location, body in pages.items():
        zone = re.search(r"limit_req\s+zone=(\w+)\s+burst=\d+\s+nodelay;", body).group(1)
        assert zone in zones, location
        upstream = re.search(r"proxy_pass\s+http://(\w+);", body).group(1)
        assert upstream in classes[location[: -len(RENDER)]], location
        assert "voila-proxy.conf" in body


def test_nginx_proxies_each_class_with_websockets() -> None:
    site = re.sub(r"#.*", "", (DEPLOY / "nginx/voila-per-class.conf").read_text())
    snippet = re.sub(r"#.*", "", (DEPLOY / "nginx/voila-proxy.conf").read_text())
    assert site.count("{") == site.count("}")
    assert re.search(r"map\s+\$http_upgrade\s+\$connection_upgrade\s*\{", site)
    upstreams = dict(re.findall(r"upstream\s+(\w+)\s*\{\s*server\s+127\.0\.0\.1:(\d+);", site))
    classes = {loc: body for loc, body in _nginx_blocks(site).items() if loc != "/"}
    assert len(classes) >= 2
    ports = set()
    for location, body in classes.items():
        assert re.fullmatch(r"/[a-z0-9-]+/", location), location
        upstream = re.search(r"proxy_pass\s+http://(\w+);", body).group(1)  # no URI: path kept
        ports.add(upstreams[upstream])
        assert "voila-proxy.conf" in body
    assert len(ports) == len(classes), "each class needs its own Voila server"
    for directive in (
        r"proxy_http_version\s+1\.1;",
        r"proxy_set_header\s+Upgrade\s+\$http_upgrade;",
        r"proxy_set_header\s+Connection\s+\$connection_upgrade;",
        r"proxy_set_header\s+Host\s+\$http_host;",  # with the port, as the browser's Origin has
        r"proxy_buffering\s+off;",
    ):
        assert re.search(directive, snippet), directive


def test_nginx_prefixes_match_the_voila_commands() -> None:
    """The comment's commands (and the docs) start each class with its prefix as base_url."""
    site = (DEPLOY / "nginx/voila-per-class.conf").read_text()
    upstream_ports = dict(re.findall(r"upstream\s+(\w+)\s*\{\s*server\s+127\.0\.0\.1:(\d+);", site))
    location_ports = {
        loc: upstream_ports[re.search(r"proxy_pass\s+http://(\w+);", body).group(1)]
        for loc, body in _nginx_blocks(site).items()
        if loc != "/"
    }
    docs = (ROOT / "docs/deploy.md").read_text()
    for text in (site, docs):
        commands = re.findall(r"voila --Voila\.base_url=(/[a-z0-9-]+/) --port=(\d+) lessons/", text)
        assert dict(commands) == location_ports


def test_systemd_unit_runs_voila_behind_the_proxy() -> None:
    unit = (DEPLOY / "systemd/voila-class@.service").read_text()
    exec_start = re.search(r"^ExecStart=((?:.*\\\n)*.*)$", unit, re.M).group(1).replace("\\\n", " ")
    argv = shlex.split(exec_start)
    assert argv[0].endswith("/.venv/bin/voila")
    assert "--Voila.ip=127.0.0.1" in argv  # only nginx reaches it
    assert "--Voila.base_url=/%i/" in argv
    assert argv[-1] == "lessons/"
    # Run from the repository, so that voila.json is read.
    assert re.search(r"^WorkingDirectory=(\S+)$", unit, re.M).group(1) in exec_start
    for section in ("[Unit]", "[Service]", "[Install]"):
        assert section in unit


# --- Binder ------------------------------------------------------------------------------------


def test_binder_post_build_installs_project_and_voila_config() -> None:
    post_build = ROOT / "postBuild"
    assert os.access(post_build, os.X_OK), "repo2docker runs postBuild only if it is executable"
    text = post_build.read_text()
    assert text.startswith("#!/bin/bash")
    assert "set -euo pipefail" in text
    assert re.search(r"pip install .*-e \.", text)
    assert "python serving/install.py --copy" in text
    assert (ROOT / "serving/install.py").is_file()


def test_binder_link_in_docs_opens_start_here() -> None:
    docs = (ROOT / "docs/deploy.md").read_text()
    links = re.findall(r"https://mybinder\.org/v2/gh/[^\s)>]+", docs)
    assert links
    for link in links:
        match = re.search(r"[?&]urlpath=([^&\s]+)", link)
        assert match, link
        path = match.group(1).replace("%2F", "/")
        assert path.startswith("voila/render/"), link
        assert path[len("voila/render/"):] == START_HERE
    assert (ROOT / "environment.yml").is_file()


def test_docs_name_only_existing_lessons() -> None:
    docs = (ROOT / "docs/deploy.md").read_text()
    named = set(re.findall(r"lessons/([\w.-]+\.ipynb)", docs))
    assert named, "the guide names no lesson"
    assert named <= set(LESSONS), named - set(LESSONS)


# --- JupyterHub on one machine (deploy/jupyterhub/jupyterhub_config.py) ------------------------
# It reads config.yaml; these tests check that it translates every value and refuses one it does
# not know, so the Kubernetes values and the local hub (which tests/browser/test_hub.py runs)
# cannot drift apart.


def _hub_config_module():
    import importlib.util

    spec = importlib.util.spec_from_file_location("icg_jupyterhub_config",
                                                  DEPLOY / "jupyterhub/jupyterhub_config.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _translated(values: dict):
    from traitlets.config import Config

    c = Config()
    _hub_config_module().apply(c, values)
    return c


def test_local_hub_translates_every_value(hub: dict) -> None:
    c = _translated(hub)
    for cls, traits in hub["hub"]["config"].items():
        for trait, value in traits.items():
            assert c[cls][trait] == value, f"{cls}.{trait}"
    single = hub["singleuser"]
    assert c.Spawner.default_url == single["defaultUrl"]
    assert c.Spawner.notebook_dir == str(ROOT)  # the chart's home directory holds the repository
    assert c.Spawner.mem_limit == single["memory"]["limit"]
    assert c.Spawner.cpu_limit == float(single["cpu"]["limit"])
    # extraFiles: JSON data become the server's options; the others are files of this folder
    # that the server reads from JUPYTER_CONFIG_PATH.
    for name, spec in single["extraFiles"].items():
        if "data" in spec:
            for cls, traits in spec["data"].items():
                for trait, value in traits.items():
                    assert f"--{cls}.{trait}={value!r}" in c.Spawner.args, (name, cls, trait)
        else:
            assert (DEPLOY / "jupyterhub" / Path(spec["mountPath"]).name).is_file(), name
    assert c.Spawner.environment["JUPYTER_CONFIG_PATH"] == str(DEPLOY / "jupyterhub")


@pytest.mark.parametrize("where", ["top", "singleuser", "hub"])
def test_local_hub_refuses_a_value_it_does_not_translate(hub: dict, where: str) -> None:
    import copy

    values = copy.deepcopy(hub)
    target = {"top": values, "singleuser": values["singleuser"], "hub": values["hub"]}[where]
    target["somethingNew"] = {"enabled": True}
    with pytest.raises(ValueError, match="somethingNew"):
        _translated(values)


def test_set_file_commands_name_every_file_without_data(hub: dict) -> None:
    """Files whose stringData comes from helm's --set-file: the install commands in
    config.yaml and docs/deploy.md give it, from the file the local hub uses."""
    texts = [(DEPLOY / "jupyterhub/config.yaml").read_text(), (ROOT / "docs/deploy.md").read_text()]
    for name, spec in hub["singleuser"]["extraFiles"].items():
        if "data" in spec or "stringData" in spec:
            continue
        option = (f"--set-file singleuser.extraFiles.{name}.stringData="
                  f"deploy/jupyterhub/{Path(spec['mountPath']).name}")
        for text in texts:
            assert option in text.replace("\\\n", " ").replace("  ", " "), option


def test_trial_login_is_marked_trial_only(hub: dict) -> None:
    config = (DEPLOY / "jupyterhub/config.yaml").read_text()
    authenticator = hub["hub"]["config"]["JupyterHub"]["authenticator_class"]
    if authenticator in {"dummy", "shared-password"}:
        before = config[:config.index(f"authenticator_class: {authenticator}")]
        assert "TRIAL ONLY" in before.rsplit("JupyterHub:", 1)[1], "mark the shared login"
        docs = (ROOT / "docs/deploy.md").read_text()
        assert "trial only" in docs.lower()


# --- the students' servers on the hub (deploy/jupyterhub/jupyter_server_config.py) -------------


def _student_server_config():
    from traitlets.config import PyFileConfigLoader

    return PyFileConfigLoader("jupyter_server_config.py",
                              path=str(DEPLOY / "jupyterhub")).load_config()


def test_student_server_filters_kernel_messages_as_standalone_voila() -> None:
    """The list standalone Voila passes to its kernel manager (voila/app.py)."""
    import ast
    import inspect

    import voila.app

    tree = ast.parse(inspect.getsource(voila.app))
    lists = [ast.literal_eval(k.value) for k in ast.walk(tree)
             if isinstance(k, ast.keyword) and k.arg == "allowed_message_types"]
    assert len(lists) == 1, "voila/app.py no longer sets allowed_message_types in one place"
    config = _student_server_config()
    assert config.MappingKernelManager.allowed_message_types == lists[0]
    assert "execute_request" not in lists[0]


def test_student_server_disables_every_other_server_extension() -> None:
    """Each server extension this environment enables is named in the students' server
    configuration, and only Voila and the project's websocket guard are on: a new one (a
    terminal, a collaboration server) must be looked at before students get it."""
    from jupyter_core.paths import jupyter_config_path

    enabled = set()
    for folder in jupyter_config_path():
        for f in sorted(Path(folder, "jupyter_server_config.d").glob("*.json")):
            exts = json.loads(f.read_text()).get("ServerApp", {}).get("jpserver_extensions", {})
            enabled |= {name for name, on in exts.items() if on}
    assert "voila.server_extension" in enabled
    config = _student_server_config().ServerApp
    assert config.jpserver_extensions.get("voila.server_extension") is True
    assert {n for n, on in config.jpserver_extensions.items() if on} == {
        "voila.server_extension", "serving.kernel_guard"}
    assert config.kernel_websocket_connection_class == \
        "serving.kernel_guard.GuardedKernelConnection"
    assert enabled <= set(config.jpserver_extensions), enabled - set(config.jpserver_extensions)
    assert config.terminals_enabled is False


def test_student_server_writes_no_file(tmp_path: Path) -> None:
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from tornado.web import HTTPError

    manager = _student_server_config().ServerApp.contents_manager_class(root_dir=str(tmp_path))
    (tmp_path / "lesson.ipynb").write_text(json.dumps(
        {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    model = {"type": "file", "format": "text", "content": "print('hi')"}

    async def attempts():
        for call in (lambda: manager.save(model, "x.ipynb"),
                     lambda: manager.new_untitled(type="notebook"),
                     lambda: manager.copy("lesson.ipynb", ""),
                     lambda: manager.rename("lesson.ipynb", "other.ipynb"),
                     lambda: manager.delete("lesson.ipynb")):
            with pytest.raises(HTTPError) as err:
                await call()
            assert err.value.status_code == 403
        assert (await manager.get("lesson.ipynb", content=False))["name"] == "lesson.ipynb"

    # In a thread of its own: a session that also runs the browser tests has an event loop
    # running in the main thread (Playwright's sync API).
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, attempts()).result(timeout=60)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lesson.ipynb"]
