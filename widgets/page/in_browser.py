"""The lessons' kernel inside the browser (Pyodide, the static site that tools/build_site.py
builds) against the kernel on a Voila server.

- `IN_BROWSER`: this kernel runs in the browser (Pyodide's sys.platform is "emscripten").
- `page_href(file)`: a lesson's link as the site serves it (`03_hit_me.ipynb` on Voila,
  `03_hit_me.html` on the static site).
- `NUMPY`: numpy can be imported (not in the browser: the Hit Me expert is not offered there).
- `on_this_site(file)`: whether a page is served here (Play together and the Class view need
  the server: the static site leaves them out).
- `install()`: what the browser's kernel needs before any widget is made; the browser's kernel
  drops a synced value of None on its way to the page (a Layout's `display = None`, "shown",
  never arrived, so a shown box stayed hidden): Layout's values of None are sent as "", which
  the page treats the same (no CSS property).
"""

from __future__ import annotations

import importlib.util
import sys
from typing import Any

IN_BROWSER = sys.platform == "emscripten"
# numpy is not in the browser's kernel (no Pyodide build of it on the package registries)
NUMPY = importlib.util.find_spec("numpy") is not None
SERVER_ONLY = frozenset({"play_together.ipynb", "class_view.ipynb"})


def page_href(file: str, in_browser: bool | None = None) -> str:
    """The relative link to a lesson page from a page in the same folder."""
    if (IN_BROWSER if in_browser is None else in_browser) and file.endswith(".ipynb"):
        return file[: -len(".ipynb")] + ".html"
    return file


def on_this_site(file: str, in_browser: bool | None = None) -> bool:
    """False for the pages that need the server, when the lessons run in the browser."""
    return not ((IN_BROWSER if in_browser is None else in_browser) and file in SERVER_ONLY)


def none_as_empty(value: Any, widget: Any = None) -> Any:
    """A Layout value for the wire: None (no CSS property) as "", which means the same."""
    return "" if value is None else value


def install() -> list[str]:
    """Send Layout's values of None as "" (see the module's text); returns the traits it set.
    Idempotent."""
    from ipywidgets import Layout

    done = []
    for name, trait in Layout.class_traits(sync=True).items():
        if trait.metadata.get("to_json") in (None, none_as_empty) and trait.allow_none:
            trait.metadata["to_json"] = none_as_empty
            done.append(name)
    return done


def uninstall() -> None:
    """Undo `install` (for tests that run it in a server's kernel)."""
    from ipywidgets import Layout

    for trait in Layout.class_traits(sync=True).values():
        if trait.metadata.get("to_json") is none_as_empty:
            del trait.metadata["to_json"]


if IN_BROWSER:
    install()
