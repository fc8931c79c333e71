"""The gettext catalogues: the Spanish catalogue is complete and the template is
up to date with the sources; the language machinery of widgets/words/catalogues.py.

- every msgid of widgets/locale/icg.pot has a non-empty Spanish msgstr (every plural form),
  no entry is fuzzy, and the placeholders ('{total}') are the same in msgid and msgstr;
- an extraction run here (babel.cfg over the sources) finds no msgid missing from the .pot or
  the .po, and every _()/ngettext()/N_() call with a literal in widgets/ is in the .pot (Babel
  does not read calls inside f-strings: such a call would stay English in every language).
"""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from widgets import words

ROOT = Path(__file__).resolve().parent.parent
POT = ROOT / "widgets" / "locale" / "icg.pot"
ES = ROOT / "widgets" / "locale" / "es" / "LC_MESSAGES" / "icg.po"
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def read(path: Path):
    with path.open("rb") as f:
        return read_po(f, locale="es" if path.suffix == ".po" else None)


def msgids(catalog) -> set[str]:
    return {m.id[0] if isinstance(m.id, tuple) else m.id for m in catalog if m.id}


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


def test_spanish_catalogue_is_complete_and_placeholders_match() -> None:
    po = read(ES)
    assert po.num_plurals == 2 and po.plural_expr.replace(" ", "") == "(n!=1)"
    problems = []
    for m in po:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strs = m.string if isinstance(m.string, tuple) else (m.string,)
        if m.fuzzy:
            problems.append(("fuzzy", ids[0]))
        if isinstance(m.id, tuple) and len(strs) != po.num_plurals:
            problems.append(("plural forms", ids[0]))
        for i, s in enumerate(strs):
            if not s or not s.strip():
                problems.append(("empty", ids[0]))
            elif placeholders(s) != placeholders(ids[min(i, len(ids) - 1)]):
                problems.append(("placeholders", ids[0], s))
    assert not problems, problems[:10]
    missing = msgids(read(POT)) - msgids(po)
    assert not missing, sorted(missing)[:10]
    assert len(msgids(po)) >= 450


def test_the_template_is_up_to_date_with_the_sources() -> None:
    with (ROOT / "babel.cfg").open() as f:
        method_map = [(line.strip()[1:-1].split(":", 1)[1].strip(),
                       line.strip()[1:-1].split(":", 1)[0].strip())
                      for line in f if line.strip().startswith("[")]
    found = set()
    for _file, _line, message, _comments, _ctx in extract_from_dir(
            str(ROOT), [(pattern, method) for pattern, method in method_map]):
        found.add(message[0] if isinstance(message, tuple) else message)
    assert len(found) >= 450
    assert not found - msgids(read(POT)), sorted(found - msgids(read(POT)))[:10]
    assert not found - msgids(read(ES)), sorted(found - msgids(read(ES)))[:10]


def literal_calls(path: Path) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("_", "ngettext", "N_") and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)):
            out.append((node.lineno, node.args[0].value))
    return out


def test_every_marked_literal_is_extracted() -> None:
    known = msgids(read(POT))
    calls = [(p, line, text) for p in sorted((ROOT / "widgets").rglob("*.py"))
             for line, text in literal_calls(p)]
    assert len(calls) >= 450
    lost = [(str(p.relative_to(ROOT)), line, text) for p, line, text in calls if text not in known]
    assert not lost, lost[:10]
    # positive control: a call inside an f-string is seen here, though Babel misses it
    probe = ROOT / "tests" / "artifacts" / "probe_fstring.py"
    probe.parent.mkdir(exist_ok=True)
    probe.write_text('x = f"<b>{_(\'Only in an f-string\')}</b>"\n', encoding="utf-8")
    assert literal_calls(probe) == [(1, "Only in an f-string")]
    assert "Only in an f-string" not in known


def test_language_machinery() -> None:
    assert words.language() == "en" and words.number_words(-7) == "negative 7"
    with words.speaking("es"):
        assert words.language() == "es"
        assert words.card_aria({"rank": 7, "suit": "H", "value": -7}) == \
            "siete de corazones, valor negativo 7"
        assert words.ngettext("{n} hit", "{n} hits", 1).format(n=1) == "1 carta pedida"
        assert words.ngettext("{n} hit", "{n} hits", 2).format(n=2) == "2 cartas pedidas"
        with words.speaking("qps"):
            assert words.number_words(-7).startswith("\u27e6")
        assert words.number_words(-7) == "negativo 7"
    assert words.language() == "en"
    with pytest.raises(words.UnknownLanguageError, match="unknown language 'fr'"):
        words.set_language("fr")
    with pytest.raises(words.UnknownLanguageError):
        words.speaking("xx").__enter__()
    assert words.language() == "en"
    words.set_language("es")
    try:
        assert words.language() == "es" and words._("Hint") == "Pista"
    finally:
        words.set_language("en")
    assert words._("Hint") == "Hint"


def test_pseudo_locale_keeps_placeholders() -> None:
    assert words.pseudo_text("Seat {name}: {n} cards") == "\u27e6Šéàt {name}: {n} çàrdš\u27e7"
    cat = words.pseudo_catalog()
    assert len([m for m in cat if m.id]) == len(msgids(read(POT)))


def test_a_missing_mo_is_compiled_from_the_po(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A checkout without `make i18n` speaks Spanish all the same (never English)."""
    locale = tmp_path / "locale"
    (locale / "es" / "LC_MESSAGES").mkdir(parents=True)
    shutil.copy(ES, locale / "es" / "LC_MESSAGES" / "icg.po")
    shutil.copy(POT, locale / "icg.pot")
    monkeypatch.setattr("widgets.words.catalogues.LOCALE_DIR", locale)
    monkeypatch.setattr("widgets.words.catalogues._catalogues", {})
    assert not (locale / "es" / "LC_MESSAGES" / "icg.mo").exists()
    with words.speaking("es"):
        assert words._("Hold") == "Plantarme"
