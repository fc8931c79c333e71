"""The printable kit: everything a class needs to play with real decks, on one page to print.

Rule cards for both games, a Hit Me recording sheet, a Flapjack running-total sheet, a score
sheet, the exit tickets and the stacked deals of the worked examples. Every figure comes from
the engine (card values, limits, targets, the worked examples played out), none is typed by
hand. The page is plain HTML (no widget) with print styles: each sheet starts a new page and
no table is split across pages.
"""

from __future__ import annotations

from engine.cards import Card, Suit, parse_cards, signed
from engine.flapjack import FlapjackConfig
from engine.hit_me import MAX_CARDS, HitMeConfig
from widgets import lesson_tools as lt
from widgets.exit_ticket import TICKETS
from widgets.render import esc

KIT_CSS = """
.icg-kit { font-family: "DejaVu Sans", Arial, sans-serif; color: #000; max-width: 48em; }
.icg-kit h2 { margin: 0.3em 0; }
.icg-kit table { border-collapse: collapse; width: 100%; margin: 0.4em 0 0.8em; }
.icg-kit th, .icg-kit td { border: 1px solid #000; padding: 0.25em 0.4em; text-align: left;
                           vertical-align: top; }
.icg-kit td.blank { height: 1.6em; }
.icg-kit .icg-kit-sheet { padding-bottom: 1em; border-bottom: 2px dashed #999;
                          margin-bottom: 1em; }
.icg-kit .icg-kit-sheet, .icg-kit table, .icg-kit .icg-kit-card { break-inside: avoid; }
.icg-kit .icg-kit-card { border: 2px solid #000; border-radius: 8px; padding: 0.5em 0.8em;
                         margin: 0.5em 0; }
@media screen and (max-width: 600px) {  /* a phone: columns share the width, words wrap */
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
  .icg-kit .icg-kit-sheet { break-after: page; border-bottom: none; }
  .icg-kit .icg-kit-sheet:last-child { break-after: auto; }
  .icg-kit-noprint { display: none !important; }
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
    hit_card = (
        "<div class='icg-kit-card'><h3>Hit Me: the rules</h3><ol>"
        "<li>Black cards count plus, red cards minus. Ace 1, number cards their number, "
        f"face cards {esc(hit_face)} (for black; red ones are negative).</li>"
        "<li>Each player gets one card face down (look at it, keep it hidden) and one card "
        "face up.</li>"
        "<li>In turn, the dealer last, say \"Hit me!\" for one more face-up card, or hold. "
        f"Holding is final. At most {MAX_CARDS} cards each.</li>"
        "<li>Then every card is turned up. Your score is the distance of your sum from zero, "
        "|sum|. The lowest score wins; equal scores tie and share the round.</li></ol>"
        "<p>A game by Denise Gaskins, from <i>Prealgebra &amp; Geometry: Math Games for "
        "Middle School</i> (Let's Play Math); told in our own words.</p></div>")
    fj_card = (
        "<div class='icg-kit-card'><h3>Flapjack: the rules</h3><ol>"
        "<li>Black cards count plus, red cards minus. Ace 1, number cards their number, "
        f"{esc(fj_face)} (for black).</li>"
        "<li>Deal 7 cards each; the rest is the draw pile. The player left of the dealer "
        "leads any card.</li>"
        "<li>In turn, add one card to the table, say the new total aloud and draw a card. The "
        f"total must stay from {signed(fj.low)} to {signed(fj.high)}; with no card that "
        "keeps it there, pass.</li>"
        f"<li>A total of exactly {esc(targets)} is a Flapjack: say so, take every card on "
        "the table and lead next.</li>"
        "<li>When nobody can play, the player with the most cards won wins.</li></ol>"
        f"<p><b>Simple ten:</b> no face cards, total from {signed(ten.low)} to "
        f"{signed(ten.high)}, Flapjack at {esc(ten_targets)}.</p>"
        "<p>Made up by \u201cLisa in AZ\u201d and shared on Denise Gaskins' blog "
        "<i>Let's Play Math</i>; told in our own words.</p></div>")
    return _sheet("Rule cards (cut along the borders)", hit_card + fj_card)


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
        example.append([f"Example: {lt.NAMES[seat]}", cards, ", ".join(running),
                        str(abs(res.sums[seat])),
                        "won" if seat in res.winners else ""])
    head = ["Round / player", "Cards (value of each)", "Running sum after each card", "|sum|",
            "Won?"]
    return _sheet("Hit Me recording sheet",
                  "<p>Write each card with its value, the sum after each card, and the "
                  "distance of the final sum from zero.</p>"
                  + _table(head, example, blank_rows=rounds * 3, label="Hit Me recording sheet"))


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
        rows.append([f"Example: {lt.NAMES[seat]}", f"{card.short}", signed(v),
                     f"{signed(total)} + ({signed(v)}) = {signed(new)}",
                     "Flapjack!" if flap else ""])
        total = 0 if flap else new
    head = ["Player", "Card", "Value", "Total before + value = new total", "Flapjack?"]
    return _sheet("Flapjack running-total sheet",
                  f"<p>The total must stay from {signed(cfg.low)} to {signed(cfg.high)}. A "
                  "Flapjack clears the table: the next total starts from 0.</p>"
                  + _table(head, rows, blank_rows=turns, label="Flapjack running-total sheet"))


def score_sheet(players: int = 4, rounds: int = 8) -> str:
    head = ["Player"] + [f"Round {r}" for r in range(1, rounds + 1)] + ["Total"]
    return _sheet("Score sheet",
                  "<p>Hit Me: write each round's score |sum| and circle the winner. Flapjack: "
                  "write the number of cards each player won.</p>"
                  + _table(head, [], blank_rows=players * 2, label="Score sheet"))


def exit_ticket_sheets() -> str:
    """Every exit ticket on paper: the questions, choices to circle and a line for the code."""
    from widgets.course import student_lessons

    titles = {lesson.number: lesson.title for lesson in student_lessons()}
    parts = []
    for lesson, items in TICKETS.items():
        qs = []
        for item in items:
            answer = ("circle one: " + " / ".join(esc(c) for c in item.choices)
                      if item.choices else "answer: ______")
            qs.append(f"<li>{esc(item.prompt)}<br>{answer}</li>")
        parts.append(f"<div class='icg-kit-card'><h3>Exit ticket, lesson {lesson}: "
                     f"{esc(titles.get(lesson, ''))}</h3><p>Name: ____________________</p>"
                     f"<ol>{''.join(qs)}</ol><p>Code: L{lesson}-"
                     + " ".join("__" for _ in items) + " (R right, X not right)</p></div>")
    return _sheet("Exit tickets", "".join(parts))


def stacked_deals() -> str:
    """The worked examples' card orders, from the engine's example decks."""
    hit = HitMeConfig(players=3)
    hit_cards = parse_cards(lt.HIT_ME_EXAMPLE_DECK)
    fj = FlapjackConfig(players=3)
    fj_cards = parse_cards(lt.flapjack_deck(lt.FLAPJACK_EXAMPLE_HANDS,
                                            lt.FLAPJACK_EXAMPLE_DRAW))
    hit_rows = [[str(i), c.short, signed(hit.value(c))] for i, c in enumerate(hit_cards, 1)]
    fj_rows = [[str(i), c.short, signed(fj.value(c))] for i, c in enumerate(fj_cards, 1)]
    return _sheet(
        "Stacked deals of the worked examples",
        "<p><b>Hit Me</b> (lesson 3), 3 players, Ana deals: stack the deck in this order, top "
        "card first. Deal face down to Ben, Cam, Ana; then face up to Ben, Cam, Ana; then hit "
        "from the top.</p>" + _table(["#", "Card", "Value"], hit_rows, label="Hit Me deck")
        + "<p><b>Flapjack</b> (lesson 4), 3 players, Ana deals: one card at a time, starting "
        "with Ben; the last cards are the top of the draw pile.</p>"
        + _table(["#", "Card", "Value"], fj_rows, label="Flapjack deck"))


def kit_html() -> str:
    sheets = [rule_cards(), hit_me_sheet(), flapjack_sheet(), score_sheet(),
              exit_ticket_sheets(), stacked_deals()]
    return (f"<style>{KIT_CSS}</style><div class='icg-kit'>"
            "<p class='icg-kit-noprint'>Print this page from the browser (Ctrl+P or "
            "\u2318P); each sheet starts on a new page.</p>" + "".join(sheets) + "</div>")


def printable_kit() -> object:
    """The kit as an HTML output (no widget: nothing to load but the page)."""
    from IPython.display import HTML

    return HTML(kit_html())


def kit_contents() -> str:
    """The sheets of the kit and the engine's figures they use, as text (checked by nbval)."""
    hit = HitMeConfig(players=3)
    fj = FlapjackConfig(players=3)
    res = lt.hit_me_example_round().result()
    return "\n".join([
        "1. Rule cards: Hit Me (face cards count "
        f"{signed(hit.value(Card(12, Suit.SPADES)))}) and Flapjack (total from {signed(fj.low)} "
        f"to {signed(fj.high)}, Flapjack at {', '.join(signed(t) for t in fj.targets)})",
        "2. Hit Me recording sheet (example: final sums "
        + ", ".join(f"{lt.NAMES[s]} {signed(res.sums[s])}" for s in (1, 2, 0)) + ")",
        "3. Flapjack running-total sheet",
        "4. Score sheet",
        f"5. Exit tickets of lessons {', '.join(str(n) for n in TICKETS)}",
        "6. Stacked deals: Hit Me "
        f"{len(parse_cards(lt.HIT_ME_EXAMPLE_DECK))} cards, Flapjack "
        f"{len(parse_cards(lt.flapjack_deck(lt.FLAPJACK_EXAMPLE_HANDS, lt.FLAPJACK_EXAMPLE_DRAW)))}"
        " cards",
    ])
