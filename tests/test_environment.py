"""pyproject.toml and environment.yml must describe the same environment.

Teachers on Anaconda and Binder use environment.yml; pip users and CI use pyproject.toml.
These tests fail as soon as one of them gains, loses or re-pins a package without the other.
"""

from __future__ import annotations

import re
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.version import Version

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: pytest depends on tomli there
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent

# Voila releases before the fix of CVE-2024-30265 (local file inclusion through /static);
# fixed in 0.2.17, 0.3.8, 0.4.4 and 0.5.6.
VULNERABLE_VOILA = ["0.2.16", "0.3.7", "0.4.3", "0.5.0", "0.5.5"]


def normalise(name: str) -> str:
    """PEP 503 normalised project name."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pyproject_specs(text: str) -> tuple[dict[str, SpecifierSet], SpecifierSet]:
    """Runtime and `test` extra requirements of a pyproject.toml, and its requires-python."""
    project = tomllib.loads(text)["project"]
    reqs = list(project["dependencies"]) + list(project["optional-dependencies"]["test"])
    specs: dict[str, SpecifierSet] = {}
    for line in reqs:
        req = Requirement(line)
        if req.marker is not None:  # platform/python-specific extras are not mirrored
            continue
        specs[normalise(req.name)] = req.specifier
    return specs, SpecifierSet(project["requires-python"])


def conda_specs(text: str) -> tuple[dict[str, SpecifierSet], SpecifierSet, dict[str, Any]]:
    """Package specs of an environment.yml (conda and pip parts), its python spec, and the doc."""
    doc = yaml.safe_load(text)
    entries: list[str] = []
    for dep in doc["dependencies"]:
        if isinstance(dep, dict):
            entries.extend(p for p in dep.get("pip", []) if not str(p).startswith("-"))
        else:
            entries.append(str(dep))
    specs: dict[str, SpecifierSet] = {}
    python = SpecifierSet()
    for entry in entries:
        # conda writes "name>=1,<2" or "name >=1,<2"; both parse as PEP 508 once spaces go.
        req = Requirement(entry.replace(" ", ""))
        name = normalise(req.name)
        if name == "python":
            python = req.specifier
        elif name != "pip":
            assert name not in specs, f"{name} listed twice in environment.yml"
            specs[name] = req.specifier
    return specs, python, doc


@pytest.fixture(scope="module")
def both() -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    return (
        pyproject_specs((ROOT / "pyproject.toml").read_text()),
        conda_specs((ROOT / "environment.yml").read_text()),
    )


def test_same_package_names(both: tuple[tuple[Any, ...], tuple[Any, ...]]) -> None:
    (py_specs, _), (env_specs, _, _) = both
    only_py = sorted(set(py_specs) - set(env_specs))
    only_env = sorted(set(env_specs) - set(py_specs))
    assert not only_py and not only_env, (
        f"only in pyproject.toml: {only_py}; only in environment.yml: {only_env}"
    )


def test_same_version_bounds(both: tuple[tuple[Any, ...], tuple[Any, ...]]) -> None:
    (py_specs, py_python), (env_specs, env_python, _) = both
    differ = {
        name: (str(py_specs[name]), str(env_specs[name]))
        for name in set(py_specs) & set(env_specs)
        if py_specs[name] != env_specs[name]
    }
    assert not differ, f"version bounds differ (pyproject, environment.yml): {differ}"
    assert py_python == env_python, (py_python, env_python)


def test_environment_file_shape(both: tuple[tuple[Any, ...], tuple[Any, ...]]) -> None:
    _, (_, _, doc) = both
    assert doc["name"] == "integer-card-games"
    assert doc["channels"] == ["conda-forge"]
    pip_parts = [d["pip"] for d in doc["dependencies"] if isinstance(d, dict)]
    assert len(pip_parts) == 1
    # Binder installs environment.yml before the repository is copied in: `-e .` would break
    # the build, so ./postBuild installs the project and the Voila settings instead.
    assert not any(p.strip().startswith("-e") for p in pip_parts[0])
    post_build = (ROOT / "postBuild").read_text()
    assert "pip install" in post_build and "-e ." in post_build
    assert "serving/install.py" in post_build


@pytest.mark.parametrize("where", ["pyproject", "environment"])
def test_voila_pin_excludes_cve_2024_30265(
    both: tuple[tuple[Any, ...], tuple[Any, ...]], where: str
) -> None:
    specs = both[0][0] if where == "pyproject" else both[1][0]
    allowed = [v for v in VULNERABLE_VOILA if specs["voila"].contains(v, prereleases=True)]
    assert not allowed, f"{where} allows vulnerable voila {allowed}"


def test_installed_voila_is_patched() -> None:
    installed = Version(version("voila"))
    assert installed >= Version("0.5.6"), installed
    assert installed < Version("0.6"), installed


PYPROJECT = """
[project]
requires-python = ">=3.10"
dependencies = ["numpy", "voila>=0.5.8,<0.6"]
[project.optional-dependencies]
test = ["pytest", "tomli; python_version < '3.11'"]
"""


@pytest.mark.parametrize(
    ("env_deps", "problem"),
    [
        (["python>=3.10", "pip", "numpy", "voila>=0.5.8,<0.6", "pytest"], None),
        (["python>=3.10", "pip", "numpy", "voila >=0.5.8,<0.6", {"pip": ["Pytest", "-e ."]}], None),
        (["python>=3.10", "pip", "numpy", "voila>=0.5.8,<0.6"], "names"),
        (["python>=3.10", "numpy", "voila>=0.5.8,<0.6", "pytest", "tqdm"], "names"),
        (["python>=3.10", "numpy", "voila>=0.5,<0.6", "pytest"], "bounds"),
        (["python>=3.11", "numpy", "voila>=0.5.8,<0.6", "pytest"], "bounds"),
    ],
)
def test_drift_is_detected(env_deps: list[Any], problem: str | None) -> None:
    """The comparison itself: normalised names agree, and drift of names or bounds shows."""
    py_specs, py_python = pyproject_specs(PYPROJECT)
    env_specs, env_python, _ = conda_specs(yaml.safe_dump({"dependencies": env_deps}))
    names_differ = set(py_specs) != set(env_specs)
    bounds_differ = py_python != env_python or any(
        py_specs[n] != env_specs[n] for n in set(py_specs) & set(env_specs)
    )
    assert names_differ == (problem == "names")
    assert bounds_differ == (problem == "bounds")
