"""The static site's notebooks as tools/build_site.py writes them (no download, no browser):
the public build leaves the answers out and opens the projector walkthrough with no key; a
teacher's build shows the answers too, with no key."""

from __future__ import annotations

import importlib.util
import json
from html import escape as html_escape
from pathlib import Path

import pytest

from widgets.lessons import course
from widgets.words.page import page_words

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("build_site", ROOT / "tools" / "build_site.py")
build_site = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build_site)

GUIDE = next(lesson.file for lesson in course.LESSONS if lesson.role == "guide")


def code_of(path: Path) -> list[str]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]


@pytest.fixture(scope="module", params=[False, True], ids=["public", "teacher"])
def built(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
          ) -> tuple[bool, Path]:
    src = tmp_path_factory.mktemp("src")
    build_site.notebooks(src, request.param)
    return request.param, src / "files"


@pytest.mark.parametrize("lang", list(course.FOLDERS))
def test_the_walkthrough_opens_with_no_key_in_both_builds(built: tuple[bool, Path],
                                                          lang: str) -> None:
    _teacher, files = built
    code = code_of(files / course.FOLDERS[lang] / GUIDE)
    tables = [c for c in code if "walkthrough=True" in c]
    assert len(tables) == 1
    assert "HitMeTable(players=3" in tables[0]
    assert not any("teacher_page(" in c or "teacher_only(" in c for c in code)


@pytest.mark.parametrize("lang", list(course.FOLDERS))
def test_only_the_teacher_build_holds_the_answers(built: tuple[bool, Path], lang: str) -> None:
    teacher, files = built
    path = files / course.FOLDERS[lang] / GUIDE
    nb = json.loads(path.read_text(encoding="utf-8"))
    tagged = [c for c in nb["cells"] if any(
        t.startswith(build_site.TEACHER_TAG) for t in c.get("metadata", {}).get("tags") or [])]
    parts = [c for c in code_of(path) if "teacher_part(" in c]
    # the answers' Markdown, untagged in a teacher's build (the template leaves tagged cells out)
    original = json.loads((course.folder(lang) / GUIDE).read_text(encoding="utf-8"))
    answers = ["".join(c["source"]) for c in original["cells"] if any(
        t.startswith(build_site.TEACHER_TAG) for t in c.get("metadata", {}).get("tags") or [])]
    markdown = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]
    assert answers and tagged == []
    if teacher:
        assert parts and all(a in markdown for a in answers)
        opens = "from widgets.lessons.teacher_parts import open_without_key"
        assert all(c.startswith(opens) for c in parts)
    else:
        assert parts == [] and not any(a in markdown for a in answers)
    # the pages that share state through a server are in neither build
    served = {p.name for p in (files / course.FOLDERS[lang]).glob("*.ipynb")}
    assert served and not served & set(build_site.SERVER_ONLY)


@pytest.mark.parametrize("lang", list(course.FOLDERS))
def test_the_kits_answer_key_is_in_the_teacher_build_only(built: tuple[bool, Path],
                                                          lang: str) -> None:
    """The printable kit's unit-check key: left out of the public site (a key in a static page
    is no secret), open with no key in a teacher's copy; the sheets are in both."""
    teacher, files = built
    code = code_of(files / course.FOLDERS[lang] / "printable_kit.ipynb")
    keys = [c for c in code if '"unit-check-key"' in c]
    assert any("printable_kit()" in c for c in code)
    if teacher:
        assert len(keys) == 1
        assert keys[0].startswith("from widgets.lessons.teacher_parts import open_without_key")
    else:
        assert keys == []


def test_the_site_leaves_out_the_lexers_no_page_uses(tmp_path: Path) -> None:
    """pygments keeps its Python lexer (IPython colours a traceback as Python), not the others;
    a wheel with nothing to leave out is used as it is."""
    import zipfile

    kept = ["pygments/__init__.py", "pygments/lexers/__init__.py",
            "pygments/lexers/_mapping.py", "pygments/lexers/python.py",
            "pygments/lexers/__pycache__/python.cpython-312.pyc", "pygments/styles/default.py"]
    dropped = ["pygments/lexers/rust.py", "pygments/lexers/__pycache__/rust.cpython-312.pyc",
               "pygments/lexers/_php_builtins.py"]
    whl = tmp_path / "pygments-2.17.2-py3-none-any.whl"
    with zipfile.ZipFile(whl, "w") as z:
        for name in kept + dropped:
            z.writestr(name, "x = 1\n")
    out = build_site.stripped(whl, tmp_path / "work")
    assert out != whl
    with zipfile.ZipFile(out) as z:
        assert sorted(z.namelist()) == sorted(kept)
    other = tmp_path / "six-1.0-py3-none-any.whl"
    with zipfile.ZipFile(other, "w") as z:
        z.writestr("six.py", "x = 1\n")
    assert build_site.stripped(other, tmp_path / "work") == other


def test_every_page_starts_python_through_the_start_script(tmp_path: Path) -> None:
    """After Voici's build: every page's kernel (and the site's settings) loads the start
    script, relative to the page; every page notes the service worker's version before
    JupyterLite starts; the lab application's scripts and fonts go, its schemas, themes and
    licences stay."""
    plugin = build_site.KERNEL_PLUGIN
    settings = {"litePluginSettings": {plugin: {"pyodideUrl": "./static/pyodide/pyodide.js"}},
                "baseUrl": "../../", "appVersion": "0.6.4"}
    (tmp_path / "jupyter-lite.json").write_text(json.dumps({"jupyter-config-data": settings}))
    page = tmp_path / "voici" / "render" / "03_hit_me.html"
    spanish = tmp_path / "voici" / "render" / "es" / "03_hit_me.html"
    spanish.parent.mkdir(parents=True)
    for p in (page, spanish):
        p.write_text('<html><head><script id="jupyter-config-data" type="application/json">'
                     + json.dumps(settings) + '</script></head><body class="jp-Notebook">'
                     '<div id="rendered_cells"></div></body></html>')
    lab = tmp_path / "build"
    for name in ("jlab_core.js", "fa-solid-900.woff2", "third-party-licenses.json",
                 "1542.js.LICENSE.txt", "schemas/a.json", "themes/light.css"):
        (lab / name).parent.mkdir(parents=True, exist_ok=True)
        (lab / name).write_text("x")
    build_site.postprocess(tmp_path)
    lite = json.loads((tmp_path / "jupyter-lite.json").read_text())
    assert (lite["jupyter-config-data"]["litePluginSettings"][plugin]["pyodideUrl"]
            == "./static/pyodide/start-python.js")
    html = page.read_text()
    cfg = json.loads(build_site.CONFIG_RE.search(html).group(2))
    assert cfg["litePluginSettings"][plugin]["pyodideUrl"] == "../../static/pyodide/start-python.js"
    note = (build_site.HERE / build_site.SW_VERSION_SCRIPT).read_text()
    assert html.index(note) > html.index('id="jupyter-config-data"')
    # the "Starting the lesson..." note first in the body, in the page's language, with the
    # script that takes it away
    for path, lang in ((page, "en"), (spanish, "es")):
        text = path.read_text()
        words = page_words(lang)
        start = text.index('<body class="jp-Notebook">') + len('<body class="jp-Notebook">')
        assert text[start:].startswith('<div id="icg-starting" role="status">')
        assert words["loading"] in text and html_escape(words["firstVisit"]) in text
        assert (build_site.HERE / build_site.STARTING_SCRIPT).read_text() in text
        assert text.index("icg-starting") < text.index('id="rendered_cells"')
    assert sorted(p.relative_to(lab).as_posix() for p in lab.rglob("*") if p.is_file()) == [
        "1542.js.LICENSE.txt", "schemas/a.json", "themes/light.css",
        "third-party-licenses.json"]


def test_the_snapshot_plays_the_strategy_labs_charts_before_it_is_saved() -> None:
    """The snapshot's script plays the strategy lab's first charts (lab_defaults, whose calls
    test_in_browser.py checks against the lesson) and collects their garbage, before its last
    line, which ends the script."""
    import ast

    body = ast.parse(build_site.SNAPSHOT_IMPORTS).body
    calls = [ast.unparse(node.value) for node in body
             if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)]
    assert calls.index("play_lab_defaults()") < calls.index("gc.collect()") < len(calls) - 1
