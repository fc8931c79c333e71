"""The lesson widgets in Spanish: explorer, practice, strategy lab, exit ticket, kit,
lesson tools, teacher's key box. Each is built with lang="es" and exercised; no English text of
their msgids reaches the page. With the pseudo-language "qps" every word on the page is marked
(an unmarked word is a string that does not go through gettext). The exit ticket's codes and
scores do not depend on the language. The Spanish catalogue has every msgid of these modules,
complete, without fuzzy entries, with the same placeholders."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import ipywidgets as widgets
import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from widget_helpers import all_widgets, errors_raise  # noqa: F401 - an autouse fixture

from widgets.lessons import exit_ticket as et
from widgets.lessons import kit, strategy
from widgets.lessons import worked_examples as lesson_tools
from widgets.lessons.course import LESSONS
from widgets.lessons.exit_ticket import ExitTicket, code_for
from widgets.lessons.explorer import CardExplorer
from widgets.lessons.practice import SAME, AbsoluteValuePractice
from widgets.page.language import speaking
from widgets.page.teacher_key import KEY_ENV, TeacherGate

ROOT = Path(__file__).resolve().parent.parent
MODULES = ("lessons/explorer", "lessons/practice", "lessons/strategy", "lessons/exit_ticket",
           "lessons/unit_check", "lessons/problem_set",
           "lessons/kit", "lessons/worked_examples", "page/teacher_key")
PO = ROOT / "widgets" / "locale" / "es" / "LC_MESSAGES" / "icg.po"
KEYWORDS = {"_": None, "ngettext": (1, 2), "N_": None}
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def module_msgids() -> list[str | tuple[str, str]]:
    """Every msgid marked in the lesson widgets' modules (as Babel extracts them)."""
    ids: list[str | tuple[str, str]] = []
    for name in MODULES:
        package = ROOT / "widgets" / name
        files = sorted(package.glob("*.py")) if package.is_dir() else [package.with_suffix(".py")]
        for path in files:
            for _line, msg, _comments, _ctx in extract_from_file("python", path,
                                                                 keywords=KEYWORDS):
                if msg and msg not in ids:
                    ids.append(msg)
    return ids


def catalogue() -> dict[str | tuple[str, ...], object]:
    with open(PO, "rb") as f:
        cat = read_po(f)
    return {(tuple(m.id) if isinstance(m.id, list | tuple) else m.id): m for m in cat if m.id}


# ----- the catalogue ----------------------------------------------------------------------------
def test_every_msgid_of_the_lesson_widgets_has_a_complete_spanish_translation() -> None:
    ids = module_msgids()
    assert len(ids) > 300  # the extraction found the marked strings
    cat = catalogue()
    problems = []
    for msgid in ids:
        key = tuple(msgid) if isinstance(msgid, tuple) else msgid
        m = cat.get(key)
        if m is None:
            problems.append(f"missing: {msgid!r}")
            continue
        if m.fuzzy:
            problems.append(f"fuzzy: {msgid!r}")
        sources = list(msgid) if isinstance(msgid, tuple) else [msgid]
        strings = list(m.string) if isinstance(m.string, list | tuple) else [m.string]
        if isinstance(msgid, tuple) and len(strings) != 2:
            problems.append(f"plural forms: {msgid!r}")
        if not all(strings):
            problems.append(f"empty: {msgid!r}")
        want = sorted(PLACEHOLDER.findall(sources[0]))
        for s in strings:
            if sorted(PLACEHOLDER.findall(s)) != want:
                problems.append(f"placeholders: {msgid!r} -> {s!r}")
    assert not problems, "\n".join(problems)


def test_no_user_facing_text_is_translated_at_import() -> None:
    """Text made at import time is N_-marked and translated where shown: a ticket built in
    English holds the msgids, and shows them in Spanish when the ticket speaks Spanish."""
    item = et.TICKETS[2][1]
    assert item.choices[2] == "Same distance"
    with speaking("es"):
        assert et.shown(item.choices[2]) == "La misma distancia"
    assert et.shown(item.choices[2]) == "Same distance"
    assert et.shown("") == ""  # not the catalogue's header


# ----- what the page receives ------------------------------------------------------------------
def page_texts(root: widgets.Widget) -> list[str]:
    """Every text a widget tree sends to the page: labels, tooltips, placeholders, options,
    HTML values and output areas (HTML tags removed, entities decoded)."""
    out: list[str] = []
    for w in all_widgets(root):
        state = w.get_state()
        if isinstance(w, widgets.Text | widgets.Password):
            state.pop("value", None)  # what the student typed, not the page's text
        for name in ("description", "tooltip", "placeholder", "value", "_options_labels",
                     "tooltips", "outputs"):
            v = state.get(name)
            for item in (v if isinstance(v, list | tuple) else [v]):
                if isinstance(item, dict):  # an output: its text and html
                    data = item.get("data", {})
                    item = " ".join([str(data.get("text/html", "")), str(item.get("text", ""))])
                if isinstance(item, str) and item:
                    out.append(visible(item))
    return out


def visible(markup: str) -> str:
    """Text as read on the page: tags dropped (their aria-label, title and alt kept)."""
    attrs = " ".join(m.group(2) for m in re.finditer(
        r"(aria-label|alt|title)=[\"']([^\"']*)[\"']", markup))
    markup = re.sub(r"<style.*?</style>", " ", markup, flags=re.S)
    markup = re.sub(r"data:image/png;base64,[A-Za-z0-9+/=]+", " ", markup)
    return html.unescape(re.sub(r"<[^>]+>", " ", markup) + " " + attrs)


def english_fragments() -> set[str]:
    """Pieces of English from these modules' msgids whose Spanish differs (between
    placeholders and tags), at least two words long, that no Spanish msgstr contains. (The
    tables' msgids, branch i18n's, are checked by its own tests.)"""
    cat = catalogue()
    spanish = " ".join(" ".join(m.string) if isinstance(m.string, list | tuple) else m.string
                       for m in cat.values())
    ours = {tuple(i) if isinstance(i, tuple) else i for i in module_msgids()}
    pieces = set()
    for key, m in cat.items():
        if key not in ours:
            continue
        sources = list(key) if isinstance(key, tuple) else [key]
        strings = list(m.string) if isinstance(m.string, list | tuple) else [m.string]
        if sources == strings:
            continue
        for src in sources:
            for piece in re.split(r"\{[^{}]*\}|<[^>]*>", src):
                piece = piece.strip(" .,:;!?()")
                if len(re.findall(r"[A-Za-z]+", piece)) >= 2 and piece not in spanish:
                    pieces.add(piece)
    return pieces


FRAGMENTS = english_fragments()


def assert_no_english(texts: list[str] | str, where: str) -> None:
    text = " ".join(texts) if isinstance(texts, list) else texts
    text = re.sub(r"\s+", " ", text)
    found = sorted(p for p in FRAGMENTS if p in text)
    assert not found, f"{where}: English on a Spanish page: {found}"


# the words that stay as they are in every language: names of people and games, card faces
# (7♥, K♠), codes (L2-RXRRR), lesson file names, the course's titles (widgets/lessons/course.py)
NAMES = {"Ana", "Ben", "Cam", "Dee", "Eli", "Fay", "Gus", "Hal", "Denise", "Gaskins", "Lisa",
         "AZ", "Ctrl", "ICG_TEACHER_KEY", "make", "serve", "ipynb"}


def unmarked(texts: list[str] | str) -> list[str]:
    """Words outside the pseudo-language's marks (⟦...⟧)."""
    text = " ".join(texts) if isinstance(texts, list) else texts
    while True:  # marks nest (a translated sentence inside another): innermost first
        new = re.sub(r"\u27e6[^\u27e6\u27e7]*\u27e7", " ", text)
        if new == text:
            break
        text = new
    text = re.sub(r"(?<![A-Za-z])(10|[2-9AJQK])[\u2660\u2665\u2666\u2663]", " ", text)
    text = re.sub(r"\b(?:L\d+|P\d+|START|END)-[RX_ ]+", " ", text)  # codes: the same everywhere
    words = re.findall(r"[A-Za-z\u00c0-\u017f]{2,}", text)
    titles = {w for lesson in LESSONS for w in re.findall(r"[A-Za-z]{2,}", lesson.title)}
    return sorted({w for w in words if w not in NAMES and w not in titles})


# ----- the widgets, exercised --------------------------------------------------------------------
def explorer_run(lang: str) -> Iterator[widgets.Widget]:
    ex = CardExplorer(take_away=True, lang=lang)
    yield ex
    black = next(c for (r, c) in ex.rank_buttons if c.value == "black")
    red = next(c for (r, c) in ex.rank_buttons if c.value == "red")
    ex.rank_buttons[(5, black)].click()
    ex.rank_buttons[(5, red)].click()
    ex.rank_buttons[(3, black)].click()
    yield ex
    ex.cancel_button.click()  # a zero pair removed
    yield ex
    ex.mode_toggle.value = "take"
    yield ex
    ex.rank_buttons[(3, black)].click()  # taken away: the number line of a subtraction
    yield ex
    ex.click(99, "forged")  # a forged click: a message
    yield ex
    ex.mode_toggle.value = "add"
    for _ in range(12):
        ex.add(1, black)  # the limit
    yield ex
    ex.color_toggle.value = "red-positive"
    ex.clear_button.click()
    yield ex


def practice_run(lang: str) -> Iterator[widgets.Widget]:
    p = AbsoluteValuePractice(seed=7, questions=12, lang=lang)
    yield p
    kinds = set()
    while p.question is not None:
        q = p.question
        kinds.add(q.kind)
        if q.kind == "closer":
            right = 2 if q.answer == SAME else q.answer
            p.choice_buttons[(right + 1) % 3].click()  # two wrong answers, then Show me
            yield p
            p.choice_buttons[(right + 2) % 3].click()
            yield p
        else:
            p.answer.value = "eight"  # not a number: a message
            p.check_button.click()
            yield p
            p.answer.value = str(-q.answer if q.answer else 1)
            p.check_button.click()
            yield p
            p.try_button.click()
            if q.kind == "abs-sum":
                p.answer.value = str(q.total)
                p.check_button.click()
                yield p
            p.answer.value = str(q.answer + 1)
            p.check_button.click()
            yield p
        if not p.done:
            p.show_button.click()
        yield p
        p.next_button.click()
    yield p
    assert kinds == {"abs", "abs-sum", "closer"}
    p.code_box.value = "not a code"
    p.code_button.click()
    yield p
    p.code_box.value = "2024"
    p.code_button.click()
    yield p
    p.new_button.click()
    yield p


def ticket_run(lang: str, lesson: int, check: str = "") -> Iterator[widgets.Widget]:
    """An exit ticket's run, a unit check's (`check`: its activity) or a lesson's problem
    set's (`check`: 'problem-set')."""
    from widgets.lessons.problem_set import PROBLEM_SET, ProblemSet
    from widgets.lessons.unit_check import UnitCheck

    if check == PROBLEM_SET:
        t = ProblemSet(lesson, lang=lang)
    else:
        t = UnitCheck(check, lang=lang) if check else ExitTicket(lesson, lang=lang)
    yield t
    t.next_question()  # not started: a message
    yield t
    t.start_button.click()
    for i, item in enumerate(t.items):
        yield t
        if item.choices:
            t.check_typed()  # the wrong kind of answer: a message
            yield t
            want = item.choices.index(item.answer)
            t.choice_buttons[want if i % 2 else (want + 1) % len(item.choices)].click()
        else:
            t.choose(0)
            yield t
            t.entry.value = "three"
            t.check_button.click()
            yield t
            t.entry.value = str(item.answer if i % 2 else item.answer + 1)
            t.check_button.click()
        yield t
        t.check_typed()  # answered already
        yield t
        t.next_button.click()
    yield t
    t.start()
    yield t


def strategy_run(lang: str) -> Iterator[widgets.Widget]:
    c = strategy.ChartByPlayers("threshold", players=(2, 3), value=2, rounds=2000, lang=lang)
    yield c
    c.choose(3)
    yield c
    c.choose(9)  # forged
    yield c
    panel = strategy.SimulationPanel("hold", players=3, rounds=1_000, lang=lang)
    yield panel
    panel.seed.value = "minus one"
    panel.run_button.click()
    yield panel
    panel.seed.value = "3"
    panel.run_button.click()
    yield panel
    panel.experiment.value = "threshold"
    panel.run_button.click()
    yield panel


def gate_run(lang: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[widgets.Widget]:
    monkeypatch.delenv(KEY_ENV, raising=False)
    monkeypatch.setenv("ICG_TEACHER_KEY_FILE", "/nonexistent/teacher_key")
    gate = TeacherGate(lambda: widgets.HTML("table"), lang=lang)
    yield gate  # no key on this server: a message
    gate.unlock_button.click()
    yield gate
    monkeypatch.setenv(KEY_ENV, "K7QX-M2PD-9RTV")
    monkeypatch.setattr("widgets.page.teacher_key._next_try", 0.0)
    gate.password.value = ""
    gate.unlock_button.click()
    yield gate
    gate.password.value = "wrong key here"
    gate.unlock_button.click()
    yield gate
    gate.password.value = "wrong key again"
    gate.unlock_button.click()  # too many tries
    yield gate
    monkeypatch.setattr("widgets.page.teacher_key._next_try", 0.0)
    monkeypatch.setattr("widgets.page.teacher_key._misses", 0)


RUNS = {
    "explorer": lambda lang, mp: explorer_run(lang),
    "practice": lambda lang, mp: practice_run(lang),
    "strategy": lambda lang, mp: strategy_run(lang),
    "teacher-gate": gate_run,
    **{f"exit-ticket-{n}": (lambda lang, mp, n=n: ticket_run(lang, n)) for n in et.TICKETS},
    **{f"problem-set-{n}": (lambda lang, mp, n=n: ticket_run(lang, n, "problem-set"))
       for n in et.TICKETS},
    **{check: (lambda lang, mp, c=check: ticket_run(lang, 0, c))
       for check in ("readiness", "unit-check")},
}


def html_outputs(lang: str) -> list[str]:
    """The lesson tools' and kit's HTML and text outputs (no widgets)."""
    with speaking(lang):
        texts = [lesson_tools.hit_me_example(), lesson_tools.flapjack_example(),
                 lesson_tools.card_values_table(), lesson_tools.worked_comparisons([(2, -5),
                                                                                   (4, -4)]),
                 lesson_tools.stacking_instructions(), lesson_tools.subtraction_steps([(2, -3),
                                                                                      (1, 4)]),
                 lesson_tools.distance_steps([(-3, 5)]), et.answer_key(),
                 kit.kit_contents(), kit.unit_check_key_sheet(), kit.problem_set_key_sheet()]
    texts += [lesson_tools.example_view("hit-me", lang).data,
              lesson_tools.example_view("flapjack", lang).data, kit.kit_html(lang)]
    texts += [lesson_tools.lesson_nav_html(lesson.file, lang) for lesson in LESSONS]
    return [visible(t) for t in texts]


@pytest.mark.parametrize("run", sorted(RUNS))
def test_spanish_widgets_show_no_english(run: str, monkeypatch: pytest.MonkeyPatch) -> None:
    steps = 0
    for root in RUNS[run]("es", monkeypatch):
        assert_no_english(page_texts(root), f"{run}, step {steps}")
        steps += 1
    assert steps >= 3


@pytest.mark.parametrize("run", sorted(RUNS))
def test_pseudo_language_marks_every_word(run: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for steps, root in enumerate(RUNS[run]("qps", monkeypatch)):
        words = unmarked(page_texts(root))
        assert not words, f"{run}, step {steps}: unmarked text {words}"


def test_spanish_and_pseudo_lesson_tools_and_kit() -> None:
    assert_no_english(html_outputs("es"), "lesson tools and kit")
    assert "Volver al inicio" in lesson_tools.lesson_nav_html("01_integers_with_cards.ipynb",
                                                              "es")
    assert "Hoja de puntuaciones" in kit.kit_html("es")
    words = unmarked(html_outputs("qps"))
    assert not words, f"unmarked text in the lesson tools and kit: {words}"


def test_english_is_unchanged_by_default() -> None:
    """No lang: English, exactly as before (the lessons' checked outputs rely on it)."""
    assert lesson_tools.lesson_nav_html("01_integers_with_cards.ipynb").endswith(
        "<a href='00_start_here.ipynb'>Back to start</a></nav>")
    assert ExitTicket(2).start_button.description == "Start the exit ticket"
    assert ExitTicket(2, lang="es").start_button.description == "Empezar el ticket de salida"
    assert ExitTicket(2).start_button.description == "Start the exit ticket"


# ----- the exit ticket's codes and scores do not depend on the language --------------------------
@pytest.mark.parametrize("lesson", sorted(et.TICKETS))
def test_exit_ticket_codes_and_scores_are_the_same_in_english_and_spanish(lesson: int) -> None:
    results = {}
    for lang in ("en", "es"):
        t = ExitTicket(lesson, lang=lang)
        t.start_button.click()
        for i, item in enumerate(t.items):
            right = i % 3 != 1
            if item.choices:
                want = item.choices.index(item.answer)
                # the button is found by its label as shown: the Spanish label of the answer
                with speaking(lang):
                    label = et.shown(item.choices[want if right else
                                                  (want + 1) % len(item.choices)])
                [button] = [b for b in t.choice_buttons if b.description == label]
                button.click()
            else:
                t.entry.value = str(item.answer if right else item.answer - 1)
                t.check_button.click()
            t.next_button.click()
        results[lang] = (t.score, t.code, t.marks)
        assert t.code in t.result.value
    assert results["en"] == results["es"]
    score, code, marks = results["es"]
    assert code == code_for(lesson, marks) and score == sum(marks)
    assert et.decode(code) == (lesson, marks)


# ----- the strategy lab's charts ----------------------------------------------------------------
def chart_texts(chart: strategy.Chart) -> list[str]:
    texts = [chart.alt, *chart.rows]
    for ax in chart.figure.axes:
        texts += [ax.get_title(), ax.get_xlabel(), ax.get_ylabel()]
        texts += [t.get_text() for t in ax.texts]
        legend = ax.get_legend()
        if legend is not None:
            texts += [t.get_text() for t in legend.get_texts()]
    return texts


@pytest.mark.parametrize("name,kwargs", [
    ("hold_chart", {"players": 3, "rounds": 2000}),
    ("threshold_chart", {"players": 3, "rounds": 2000}),
    ("players_chart", {"players": (2, 4), "rounds": 2000}),
    ("claim_chart", {"players": (2, 3), "rounds": 2000}),
    ("flapjack_chart", {"games": 30}),
])
def test_charts_in_spanish(name: str, kwargs: dict, monkeypatch: pytest.MonkeyPatch,
                           tmp_path: Path) -> None:
    monkeypatch.setenv(strategy.CACHE_ENV, str(tmp_path))
    fn = getattr(strategy, name)
    english = fn(progress=False, **kwargs)  # drawn first: the cache must not serve it in Spanish
    with speaking("es"):
        spanish = fn(progress=False, **kwargs)
        again = fn(progress=False, **kwargs)  # read from the cache
    assert spanish.figure.axes[0].get_title() != english.figure.axes[0].get_title()
    assert again.alt == spanish.alt and again.rows == spanish.rows
    assert "Los números" in again._repr_html_()
    assert_no_english(chart_texts(spanish), name)
    with speaking("qps"):
        pseudo = fn(progress=False, **kwargs)
    words = unmarked(chart_texts(pseudo))
    assert not words, f"{name}: unmarked text {words}"
    # the cached Spanish chart, drawn again when its figure is asked for, is still Spanish
    assert again._figure is None
    assert again.figure.axes[0].get_title() == spanish.figure.axes[0].get_title()


def test_a_spanish_chart_carries_spanish_titles(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(strategy.CACHE_ENV, "off")
    with speaking("es"):
        chart = strategy.hold_chart(players=4, rounds=2000, progress=False)
    ax = chart.figure.axes[0]
    assert ax.get_title().startswith("Plantarse o pedir carta con cada |suma|: 4 jugadores")
    assert ax.get_xlabel() == "|suma| de tus dos primeras cartas (distancia al cero)"
    assert ax.get_ylabel() == "probabilidad de ganar (%), un empate repartido"
    assert chart.alt.startswith("Gráfico de barras")


# ----- a widget made later speaks the language it is given -------------------------------------
def test_deal_later_and_the_teacher_gate_pass_the_language_on(monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    monkeypatch.setenv(strategy.CACHE_ENV, "off")
    box = lesson_tools.deal_later(strategy.SimulationPanel, "Abrir el panel", chart="hold",
                                  rounds=1_000, lang="es")
    button = box.children[0]
    assert button.tooltip == "Abrir el panel: aparece aquí"
    button.click()
    [panel] = box.children
    assert isinstance(panel, strategy.SimulationPanel) and panel.lang == "es"
    assert panel.run_button.description == "Ejecutar la simulación"
    bad = lesson_tools.deal_later(strategy.SimulationPanel, "Abrir", chart="nope", lang="es")
    bad.children[0].click()  # a wrong setting: the table's message, in Spanish
    assert "Esta mesa no se puede repartir" in bad.children[1].value

    monkeypatch.setenv(KEY_ENV, "K7QX-M2PD-9RTV")
    monkeypatch.setattr("widgets.page.teacher_key._next_try", 0.0)
    gate = TeacherGate(AbsoluteValuePractice, lang="es", seed=3)
    assert gate.unlock_button.description == "Desbloquear los controles del docente"
    gate.password.value = "k7qx m2pd 9rtv"
    assert gate.unlock() is True
    assert gate.table.lang == "es" and gate.table.check_button.description == "Comprobar"


@pytest.mark.parametrize("bad", ["fr", "", 3, "ES"])
def test_an_unknown_language_is_refused_clearly(bad: object) -> None:
    for make in (lambda: ExitTicket(1, lang=bad), lambda: CardExplorer(lang=bad),
                 lambda: AbsoluteValuePractice(lang=bad),
                 lambda: strategy.SimulationPanel(lang=bad)):
        with pytest.raises(ValueError, match="lang must be one of en, es"):
            make()


def test_numbers_are_grouped_as_each_language_writes_them(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    monkeypatch.setenv(strategy.CACHE_ENV, "off")
    assert strategy.SimulationPanel(lang="es").rounds._options_labels[-1] == "100.000"
    assert strategy.SimulationPanel().rounds._options_labels[-1] == "100,000"
    p = AbsoluteValuePractice(lang="es")
    p.code_box.value = "no"
    p.start_code()
    assert "de 0 a 999.999" in p.code_message.value
