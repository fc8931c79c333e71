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

from widgets import course

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
