"""The printable kit: everything a class needs to play with real decks, on one page to print.

Rule cards for both games, number lines from -13 to +13 (across and upright), a Hit Me
recording sheet, a Flapjack running-total sheet, a score sheet, the exit tickets (with the
chart the strategy lab's ticket reads), the unit's two checks (readiness and end of unit),
the stacked deals of the worked examples and each lesson's problem set (homework, with room to
work each question out); for the teacher, behind the teacher's key, the answer keys of the unit
checks and of the problem sets (`unit_check_key`, `problem_set_key`: each answer and the
mistake each typical wrong answer shows, widgets/lessons/teacher_parts.py). Every
figure comes from the engine (card values, limits, targets, the worked examples played out),
none is typed by hand. The page is plain HTML (no widget) with print styles: each sheet starts
a new page and no table is split across pages.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.cards import Card, Suit, parse_cards, signed
from engine.flapjack import FlapjackConfig
from engine.hit_me import MAX_CARDS, HitMeConfig
from widgets.lessons import problem_set as ps
from widgets.lessons import unit_check as uc
from widgets.lessons import worked_examples as lt
from widgets.lessons.exit_ticket import TICKETS, Item, shown
from widgets.page.language import N_, speaking
from widgets.table.render import esc
from widgets.words import _, mistake_label, play_math

KIT_CSS = """
.icg-kit { font-family: "DejaVu Sans", Arial, sans-serif; color: #000;
           max-width: max(48em, 800px); }
.icg-kit h2 { margin: 0.3em 0; }
.icg-kit table { border-collapse: collapse; width: 100%; margin: 0.4em 0 0.8em; }
.icg-kit th, .icg-kit td { border: 1px solid #000; padding: 0.25em 0.4em; text-align: left;
                           vertical-align: top; }
.icg-kit td.blank { height: 1.6em; }
.icg-kit table.icg-kit-line td { text-align: center; padding: 0.3em 0; }
.icg-kit table.icg-kit-upright { width: 4em; }
/* the chart at its own size (760 px: every word of it 12 px or more); where the window is
   narrower, its numbers as a list instead of a chart shrunk to small print; on paper, the
   chart at the paper's width */
.icg-kit .icg-kit-chart svg { width: 760px; max-width: none !important; height: auto; }
.icg-kit .icg-kit-chart-numbers { display: none; }
@media screen and (max-width: 900px) {
  .icg-kit .icg-kit-chart svg { display: none; }
  .icg-kit .icg-kit-chart-numbers { display: block; }
}
.icg-kit .icg-kit-sheet { padding-bottom: 1em; border-bottom: 2px dashed #999;
                          margin-bottom: 1em; }
.icg-kit .icg-kit-sheet, .icg-kit table, .icg-kit .icg-kit-card { break-inside: avoid; }
.icg-kit .icg-kit-card { border: 2px solid #000; border-radius: 8px; padding: 0.5em 0.8em;
                         margin: 0.5em 0; }
/* a problem set's room to work each question out, under its words */
.icg-kit .icg-kit-work { height: 3em; border-bottom: 1px dotted #999; margin-bottom: 0.4em; }
.icg-kit ol.icg-kit-problems > li { break-inside: avoid; }
/* a phone, 200% zoom: columns share the width, words wrap */
@media screen and (max-width: 760px) {
  .icg-kit table { table-layout: fixed; }
  .icg-kit th, .icg-kit td, .icg-kit p { overflow-wrap: anywhere; }
}
@media print {
  @page { size: A4; margin: 12mm; }
  /* Voila's page scrolls inside fixed-height panels; in print every panel grows with its
     content, so nothing is cut at the bottom of the first sheet */
  html, body, #main, .jp-LabShell, .jp-Notebook, .jp-Cell, .jp-OutputArea, .jp-OutputArea-child,
  .jp-OutputArea-output, .jp-RenderedHTMLCommon, .lm-Widget, .p-Widget, .voila-container {
    overflow: visible !important; height: auto !important; max-height: none !important;
    position: static !important; contain: none !important; }
  /* the page's panels keep the width of the window they were laid out in (1366 px on a
     school laptop) as inline styles: in print they take the paper's width, or Chromium
     shrinks the whole page to fit (to about half size) */
  #main, #jp-main-content-panel, #rendered_cells, .lm-Widget, .p-Widget, .voila-container {
    width: auto !important; min-width: 0 !important; max-width: none !important;
    left: auto !important; top: auto !important; }
  .icg-kit { max-width: none; font-size: 11pt; }
  .icg-kit table, .icg-kit th, .icg-kit td, .icg-kit p, .icg-kit li { font-size: 11pt; }
  .icg-kit td.blank { height: 8mm; }  /* room to write by hand */
  .icg-kit .icg-kit-work { height: 16mm; }
  .icg-nav { display: none !important; }  /* the links at the page's end */
  .icg-kit .icg-kit-sheet { break-after: page; border-bottom: none; }
  .icg-kit .icg-kit-sheet:last-child { break-after: auto; }
  .icg-kit-noprint { display: none !important; }
  .icg-kit .icg-kit-chart svg { display: block; width: 100%; max-width: 180mm !important; }
  .icg-kit .icg-kit-chart-numbers { display: none; }
}
"""


def _table(head: list[str], rows: list[list[str]], blank_rows: int = 0,
           label: str = "") -> str:
    th = "".join(f"<th>{esc(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in r) + "</tr>" for r in rows)
    body += ("<tr>" + "<td class='blank'></td>" * len(head) + "</tr>") * blank_rows
    aria = f" aria-label='{esc(label)}'" if label else ""
    return f"<table{aria}><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def _sheet(title: str, inner: str) -> str:
    return f"<section class='icg-kit-sheet'><h2>{esc(title)}</h2>{inner}</section>"


def rule_cards() -> str:
    """Both games' rules in our own words, with the values and limits from the engine."""
    hit = HitMeConfig(players=3)
    fj = FlapjackConfig(players=3)
    ten = FlapjackConfig(players=3, variant="simple-ten")
    face = [Card(r, Suit.SPADES) for r in (11, 12, 13)]
    hit_face = ", ".join(f"{c.label} {signed(hit.value(c))}" for c in face)
    fj_face = ", ".join(f"{c.label} {signed(fj.value(c))}" for c in face)
    targets = ", ".join(signed(t) for t in fj.targets)
    ten_targets = ", ".join(signed(t) for t in ten.targets)
    hit_rules = [
        _("Black cards count plus, red cards minus. Ace 1, number cards their number, face "
          "cards {faces} (for black; red ones are negative).").format(faces=hit_face),
        _("Each player gets one card face down (look at it, keep it hidden) and one card face "
          "up."),
        _("In turn, the dealer last, say \"Hit me!\" for one more face-up card, or hold. "
          "Holding is final. At most {n} cards each.").format(n=MAX_CARDS),
        _("Then every card is turned up. Your score is the distance of your sum from zero, "
          "|sum|. The lowest score wins; equal scores tie and share the round."),
    ]
    hit_card = (
        "<div class='icg-kit-card'><h3>" + esc(_("Hit Me: the rules")) + "</h3><ol>"
        + "".join(f"<li>{esc(r)}</li>" for r in hit_rules) + "</ol>"
        "<p>" + _("A game by Denise Gaskins, from {book} (Let's Play Math); told in our own "
                  "words.").format(book="<i>Prealgebra &amp; Geometry: Math Games for Middle "
                                        "School</i>") + "</p></div>")
    fj_rules = [
        _("Black cards count plus, red cards minus. Ace 1, number cards their number, {faces} "
          "(for black).").format(faces=fj_face),
        _("Deal 7 cards each; the rest is the draw pile. The player left of the dealer leads "
          "any card."),
        _("In turn, add one card to the table, say the new total aloud and draw a card. The "
          "total must stay from {low} to {high}; with no card that keeps it there, "
          "pass.").format(low=signed(fj.low), high=signed(fj.high)),
        _("A total of exactly {targets} is a Flapjack: say so, take every card on the table "
          "and lead next.").format(targets=targets),
        _("The game ends when nobody can play, or when every card has been played (hands and "
          "draw pile empty). Cards still in hands or on the table are won by no one; the "
          "player with the most cards won wins, and equal counts tie."),
    ]
    signed_aos = FlapjackConfig(players=3, variant="signed-add-or-subtract")
    red_seven = Card(7, Suit.HEARTS)
    example = play_math(5, -signed_aos.value(red_seven), value=signed_aos.value(red_seven))
    fj_card = (
        "<div class='icg-kit-card'><h3>" + esc(_("Flapjack: the rules")) + "</h3><ol>"
        + "".join(f"<li>{esc(r)}</li>" for r in fj_rules) + "</ol>"
        "<p><b>" + esc(_("Simple ten:")) + "</b> "
        + esc(_("no face cards, total from {low} to {high}, Flapjack at {targets}.").format(
            low=signed(ten.low), high=signed(ten.high), targets=ten_targets)) + "</p>"
        "<p><b>" + esc(_("Signed add or subtract:")) + "</b> "
        + esc(_("after the lead, add the card or subtract it; subtracting a red card moves the "
                "total up: {example}. Total from {low} to {high}, Flapjack at {targets}.").format(
            example=example, low=signed(signed_aos.low), high=signed(signed_aos.high),
            targets=", ".join(signed(t) for t in signed_aos.targets))) + "</p>"
        "<p>" + _("Made up by \u201cLisa in AZ\u201d and shared on Denise Gaskins' blog {blog}; "
                  "told in our own words.").format(blog="<i>Let's Play Math</i>")
        + "</p></div>")
    return _sheet(_("Rule cards (cut along the borders)"), hit_card + fj_card)


def hit_me_sheet(rounds: int = 6) -> str:
    """A recording sheet: the cards, the running sum and |sum|; the worked example first."""
    rnd = lt.hit_me_example_round()
    res = rnd.result()
    cfg = rnd.config
    example = []
    for seat in (1, 2, 0):
        values = rnd.card_values(seat)
        running, total = [], 0
        for v in values:
            total += v
            running.append(signed(total))
        cards = " ".join(f"{c.short}({signed(cfg.value(c))})" for c in rnd.cards(seat))
        example.append([_("Example: {name}").format(name=lt.NAMES[seat]), cards,
                        ", ".join(running), str(abs(res.sums[seat])),
                        _("won") if seat in res.winners else ""])
    head = [_("Round / player"), _("Cards (value of each)"), _("Running sum after each card"),
            _("|sum|"), _("Won?")]
    title = _("Hit Me recording sheet")
    return _sheet(title,
                  "<p>" + esc(_("Write each card with its value, the sum after each card, and "
                                "the distance of the final sum from zero.")) + "</p>"
                  + _table(head, example, blank_rows=rounds * 3, label=title))


def flapjack_sheet(turns: int = 18) -> str:
    """A running-total sheet; the worked example's first plays from the engine first."""
    state = lt.flapjack_example_state()
    cfg = state.config
    rows, total = [], 0
    for seat, code in lt.FLAPJACK_EXAMPLE_PLAYS:
        card = parse_cards(code)[0]
        v = cfg.value(card)
        new = total + v
        flap = new in cfg.targets
        rows.append([_("Example: {name}").format(name=lt.NAMES[seat]), f"{card.short}",
                     signed(v), f"{signed(total)} + ({signed(v)}) = {signed(new)}",
                     _("Flapjack!") if flap else ""])
        total = 0 if flap else new
    head = [_("Player"), _("Card"), _("Value"), _("Total before + value = new total"),
            _("Flapjack?")]
    title = _("Flapjack running-total sheet")
    return _sheet(title,
                  "<p>" + esc(_("The total must stay from {low} to {high}. A Flapjack clears "
                                "the table: the next total starts from 0.").format(
                      low=signed(cfg.low), high=signed(cfg.high))) + "</p>"
                  + _table(head, rows, blank_rows=turns, label=title))


def score_sheet(players: int = 4, rounds: int = 8) -> str:
    head = ([_("Player")] + [_("Round {n}").format(n=r) for r in range(1, rounds + 1)]
            + [_("Total")])
    title = _("Score sheet")
    return _sheet(title,
                  "<p>" + esc(_("Hit Me: write each round's score |sum| and circle the winner. "
                                "Flapjack: write the number of cards each player won.")) + "</p>"
                  + _table(head, [], blank_rows=players * 2, label=title))


NUMBER_LINE = tuple(range(-13, 14))  # Flapjack's limits, and every Hit Me sum of two cards


def number_line_sheet() -> str:
    """Number lines from -13 to +13 to cut out: two across (a strip each) and one upright, for
    the contexts that go up and down (a lift, a thermometer, sea level)."""
    cells = "".join(f"<td><b>{signed(n)}</b></td>" if n == 0 else f"<td>{signed(n)}</td>"
                    for n in NUMBER_LINE)
    label = esc(_("number line from {low} to {high}").format(low=signed(NUMBER_LINE[0]),
                                                            high=signed(NUMBER_LINE[-1])))
    across = (f"<table class='icg-kit-line' aria-label='{label}'><tbody><tr>{cells}</tr>"
              "</tbody></table>")
    rows = "".join(f"<tr><td>{signed(n)}</td></tr>" for n in reversed(NUMBER_LINE))
    upright = (f"<table class='icg-kit-line icg-kit-upright' aria-label='{label}'><tbody>{rows}"
               "</tbody></table>")
    return _sheet(
        _("Number lines from {low} to {high} (cut into strips)").format(
            low=signed(NUMBER_LINE[0]), high=signed(NUMBER_LINE[-1])),
        "<p>" + esc(_("Move a card's value along a strip: to the right (or up) for a positive "
                      "card, to the left (or down) for a negative one.")) + "</p>"
        + across + across
        + "<p>" + esc(_("Upright, like a thermometer or a lift: up is positive, down is "
                        "negative.")) + "</p>" + upright)


def strategy_ticket_chart() -> str:
    """The chart of Experiment 1 (4 players) that the strategy lab's ticket reads, drawn as
    SVG for paper (the plain-Python simulation: no numpy needed)."""
    from widgets.lessons.strategy.hit_me_charts import hold_chart_plain

    chart = hold_chart_plain(players=4, seed=1, progress=False)
    return ("<div class='icg-kit-chart'><p>" + esc(_("For question 1: the chart of Experiment "
                                                      "1 (4 players).")) + "</p>"
            + chart.svg + "<ul class='icg-kit-chart-numbers'>"
            + "".join(f"<li>{esc(row)}</li>" for row in chart.rows) + "</ul></div>")


def _paper_question(item: Item, work: bool = False) -> str:
    """A question on paper: its words, then the choices to circle or a line to write on;
    `work`: room to work it out between the two."""
    answer = (esc(_("circle one: {choices}").format(
                  choices=" / ".join(shown(c) for c in item.choices)))
              if item.choices else esc(_("answer: {blank}").format(blank="______")))
    room = "<div class='icg-kit-work'></div>" if work else "<br>"
    return f"<li>{esc(shown(item.prompt))}{room}{answer}</li>"


def exit_ticket_sheets() -> str:
    """Every exit ticket on paper: the questions, choices to circle and a line for the code."""
    from widgets.lessons.course import student_lessons

    titles = {lesson.number: lesson.title for lesson in student_lessons()}
    lab = next(lesson.number for lesson in student_lessons()
               if lesson.file == "06_strategy_lab.ipynb")
    parts = []
    for lesson, items in TICKETS.items():
        qs = [_paper_question(item) for item in items]
        title = _("Exit ticket, lesson {lesson}: {title}").format(
            lesson=lesson, title=shown(titles.get(lesson, "")))
        parts.append(f"<div class='icg-kit-card'><h3>{esc(title)}</h3>"
                     + "<p>" + esc(_("Name: {blank}").format(blank="_" * 20)) + "</p>"
                     + (strategy_ticket_chart() if lesson == lab else "")
                     + f"<ol>{''.join(qs)}</ol><p>"
                     + esc(_("Code: {code} (R right, X not right)").format(
                         code=f"L{lesson}-" + " ".join("__" for _item in items)))
                     + "</p></div>")
    return _sheet(_("Exit tickets"), "".join(parts))


CHECK_TITLES = {uc.READINESS: N_("Check your readiness, before lesson {lesson}"),
                uc.UNIT_END: N_("End-of-unit check, after lesson {lesson}")}


def unit_check_sheets() -> str:
    """The unit's two checks on paper, with the printed numbers: the same skills in the same
    order, so that a student's start and end compare question by question."""
    parts = []
    for which in uc.CHECKS:
        items = uc.check_items(which)
        title = _(CHECK_TITLES[which]).format(lesson=uc.check_lesson(which))
        parts.append(f"<div class='icg-kit-card'><h3>{esc(title)}</h3>"
                     + "<p>" + esc(_("Name: {blank}").format(blank="_" * 20)) + "</p>"
                     + f"<ol>{''.join(_paper_question(item) for item in items)}</ol><p>"
                     + esc(_("Code: {code} (R right, X not right)").format(
                         code=f"{uc.CODES[which]}-" + " ".join("__" for _item in items)))
                     + "</p></div>")
    return _sheet(_("The unit's checks: readiness and end of unit"), "".join(parts))


def _wrong_answers(item: Item) -> str:
    """A key's column of a question's wrong answers, grouped by the mistake each shows:
    "-11, +11: the sizes added; ..." (the class view's names)."""
    wrong: dict[str, list[str]] = {}
    for given, mistake in uc.traps(item):
        wrong.setdefault(mistake, []).append(given)
    return "; ".join(f"{', '.join(given)}: {mistake_label(m)}" for m, given in wrong.items())


def _key_widget(sheet: Callable[[], str], lang: str | None) -> object:
    """An answer key's sheet, made in `lang`, as a widget to print (a teacher's part)."""
    from widgets.table.components import html_widget

    with speaking(lang):
        html = sheet()
    return html_widget(f"<style>{KIT_CSS}</style><div class='icg-kit'>{html}</div>",
                       classes=("icg-kit-key",))


def unit_check_key_sheet() -> str:
    """The unit checks' answer key, for the teacher: per question the skill, the printed
    question, its answer, and the typical wrong answers with the mistake each shows (the
    class view's names)."""
    head = ["#", _("Skill"), _("Question"), _("Answer"), _("Wrong answers and the mistake "
                                                           "they show")]
    parts = []
    for which in uc.CHECKS:
        rows = []
        for n, (skill, item) in enumerate(zip(uc.SKILLS, uc.check_items(which), strict=True),
                                          start=1):
            rows.append([str(n), _(uc.SKILL_NAMES[skill]), shown(item.prompt), item.answer_text,
                         _wrong_answers(item)])
        title = _(CHECK_TITLES[which]).format(lesson=uc.check_lesson(which))
        parts.append(f"<h3>{esc(title)}</h3>" + _table(head, rows, label=title))
    return _sheet(_("The unit's checks: answer key (for the teacher)"), "".join(parts))


def unit_check_key(lang: str | None = None) -> object:
    """The unit checks' answer key as a widget to print, for a teacher's part of a page."""
    return _key_widget(unit_check_key_sheet, lang)


PROBLEM_SET_TITLE = N_("Problem set, lesson {lesson}: {title}")


def _problem_set_title(lesson: int) -> str:
    from widgets.lessons.course import student_lessons

    titles = {les.number: les.title for les in student_lessons()}
    return _(PROBLEM_SET_TITLE).format(lesson=lesson, title=shown(titles.get(lesson, "")))


def problem_set_sheets() -> str:
    """Each lesson's problem set on paper, a sheet of its own (homework to hand out): its
    questions with their printed numbers, room to work each one out, the choices to circle or
    a line for the answer, and the code to fill in. No answer."""
    parts = []
    for lesson in ps.SETS:
        items = ps.set_items(lesson)
        parts.append(_sheet(
            _problem_set_title(lesson),
            "<p>" + esc(_("Name: {blank}").format(blank="_" * 20)) + "</p>"
            + "<p>" + esc(_("Homework: work each question out in the room below it, then write "
                            "your answer on the line or circle one. Your first answer "
                            "counts.")) + "</p>"
            + "<ol class='icg-kit-problems'>"
            + "".join(_paper_question(item, work=True) for item in items) + "</ol><p>"
            + esc(_("Code: {code} (R right, X not right)").format(
                code=ps.code_for(lesson, ()) + " ".join("__" for _item in items)))
            + "</p>"))
    return "".join(parts)


def problem_set_key_sheet() -> str:
    """The problem sets' answer key, for the teacher: per lesson each printed question, its
    answer, and the typical wrong answers with the mistake each shows (the class view's
    names)."""
    head = ["#", _("Question"), _("Answer"), _("Wrong answers and the mistake they show")]
    parts = []
    for lesson in ps.SETS:
        rows = []
        for n, item in enumerate(ps.set_items(lesson), start=1):
            rows.append([str(n), shown(item.prompt), item.answer_text, _wrong_answers(item)])
        title = _problem_set_title(lesson)
        parts.append(f"<h3>{esc(title)}</h3>" + _table(head, rows, label=title))
    return _sheet(_("Problem sets: answer key (for the teacher)"), "".join(parts))


def problem_set_key(lang: str | None = None) -> object:
    """The problem sets' answer key as a widget to print, for a teacher's part of a page."""
    return _key_widget(problem_set_key_sheet, lang)


def stacked_deals() -> str:
    """The worked examples' card orders, from the engine's example decks."""
    hit = HitMeConfig(players=3)
    hit_cards = parse_cards(lt.HIT_ME_EXAMPLE_DECK)
    fj = FlapjackConfig(players=3)
    fj_cards = parse_cards(lt.flapjack_deck(lt.FLAPJACK_EXAMPLE_HANDS,
                                            lt.FLAPJACK_EXAMPLE_DRAW))
    hit_rows = [[str(i), c.short, signed(hit.value(c))] for i, c in enumerate(hit_cards, 1)]
    fj_rows = [[str(i), c.short, signed(fj.value(c))] for i, c in enumerate(fj_cards, 1)]
    head = ["#", _("Card"), _("Value")]
    from widgets.lessons.course import by_file

    hit_lesson, fj_lesson = (by_file(f).number for f in ("03_hit_me.ipynb", "05_flapjack.ipynb"))
    return _sheet(
        _("Stacked deals of the worked examples"),
        "<p>" + _("<b>Hit Me</b> (lesson {lesson}), 3 players, Ana deals: stack the deck in this "
                  "order, top card first. Deal face down to Ben, Cam, Ana; then face up to Ben, "
                  "Cam, Ana; then hit from the top.").format(lesson=hit_lesson) + "</p>"
        + _table(head, hit_rows, label=_("Hit Me deck"))
        + "<p>" + _("<b>Flapjack</b> (lesson {lesson}), 3 players, Ana deals: one card at a "
                    "time, starting with Ben; the last cards are the top of the draw "
                    "pile.").format(lesson=fj_lesson) + "</p>"
        + _table(head, fj_rows, label=_("Flapjack deck")))


def kit_html(lang: str | None = None) -> str:
    """The whole kit as HTML, in `lang` (None: the kernel's language)."""
    with speaking(lang):
        sheets = [rule_cards(), number_line_sheet(), hit_me_sheet(), flapjack_sheet(),
                  score_sheet(), exit_ticket_sheets(), unit_check_sheets(), stacked_deals(),
                  problem_set_sheets()]
        note = _("Print this page from the browser (Ctrl+P or \u2318P); each sheet starts on a "
                 "new page.")
    return (f"<style>{KIT_CSS}</style><div class='icg-kit'>"
            f"<p class='icg-kit-noprint'>{esc(note)}</p>" + "".join(sheets) + "</div>")


def printable_kit(lang: str | None = None) -> object:
    """The kit as an HTML output (no widget: nothing to load but the page)."""
    from IPython.display import HTML

    return HTML(kit_html(lang))


def kit_contents(lang: str | None = None) -> str:
    """The sheets of the kit and the engine's figures they use, as text (checked by nbval)."""
    hit = HitMeConfig(players=3)
    fj = FlapjackConfig(players=3)
    res = lt.hit_me_example_round().result()
    fj_cards = len(parse_cards(lt.flapjack_deck(lt.FLAPJACK_EXAMPLE_HANDS,
                                                lt.FLAPJACK_EXAMPLE_DRAW)))
    with speaking(lang):
        return "\n".join([
            "1. " + _("Rule cards: Hit Me (face cards count {black} or {red} by colour) and "
                      "Flapjack (total from {low} to {high}, Flapjack at {targets})").format(
                black=signed(hit.value(Card(12, Suit.SPADES))),
                red=signed(hit.value(Card(12, Suit.HEARTS))), low=signed(fj.low),
                high=signed(fj.high), targets=", ".join(signed(t) for t in fj.targets)),
            "2. " + _("Number lines from {low} to {high}, across and upright").format(
                low=signed(NUMBER_LINE[0]), high=signed(NUMBER_LINE[-1])),
            "3. " + _("Hit Me recording sheet (example: final sums {sums})").format(
                sums=", ".join(f"{lt.NAMES[s]} {signed(res.sums[s])}" for s in (1, 2, 0))),
            "4. " + _("Flapjack running-total sheet"),
            "5. " + _("Score sheet"),
            "6. " + _("Exit tickets of lessons {lessons} (with the chart of Experiment 1)").format(
                lessons=", ".join(str(n) for n in TICKETS)),
            "7. " + _("The unit's checks: readiness (before lesson {first}) and end of unit "
                      "(after lesson {last}), {n} questions each; their answer key for the "
                      "teacher").format(first=uc.check_lesson(uc.READINESS),
                                         last=uc.check_lesson(uc.UNIT_END), n=len(uc.SKILLS)),
            "8. " + _("Stacked deals: Hit Me {hit} cards, Flapjack {flapjack} cards").format(
                hit=len(parse_cards(lt.HIT_ME_EXAMPLE_DECK)), flapjack=fj_cards),
            "9. " + _("Problem sets of lessons {lessons}, homework with room to write ({n} "
                      "questions in all); their answer key for the teacher").format(
                lessons=", ".join(str(n) for n in ps.SETS),
                n=sum(len(problems) for problems in ps.SETS.values())),
        ])
