"""Hit Me's pure render functions: observation pieces and view data -> HTML (no ipywidgets).

Every sentence comes from `widgets/words/`; nothing here reads engine text.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from engine.cards import signed
from engine.mistakes import Shape, classify
from widgets.table.render import (  # noqa: F401 - Arrow, Point, Span, score_table_html re-exported
    Arrow,
    Point,
    Span,
    card_back_html,
    card_face_html,
    esc,
    score_table_html,
)
from widgets.words import (
    _,
    abs_math,
    action_text,
    addressed,
    join_names,
    mistake_feedback,
    ngettext,
    sum_math,
    sum_terms,
)


def text_esc(text: str) -> str:
    """HTML-escape text between tags (quotes kept as they are)."""
    return html.escape(text, quote=False)


def own_values(seat: dict[str, Any]) -> list[int]:
    """A seat's card values as they score (face-down first; aces as chosen), from the
    observation's `values` (present for the viewer's own seat and after the reveal)."""
    return list(seat["values"])


# ----- pure helpers (observation -> data / HTML) -------------------------------------------
def _ace_note(card: dict[str, Any], value: int | None = None) -> str:
    if "ace_high" not in card:
        return ""
    v = card["value"] if value is None else value
    if card.get("ace_high") is None:
        return _("ace counts {n} (not set)").format(n=abs(v))
    return _("ace counts {n}").format(n=abs(v))


def seat_html(obs: dict[str, Any], seat: dict[str, Any], name: str, *, show_down: bool,
              winner: bool = False, show_sum: bool = True, mark_down: bool = False) -> str:
    """One player's place at the table: name, role, cards, and the sums that are known."""
    p = seat["seat"]
    classes = ["icg-seat"]
    if obs["current_player"] == p:
        classes.append("icg-current")
    if winner:
        classes.append("icg-winner")
    tags = []
    if obs["dealer"] == p:
        tags.append(_("dealer"))
    if obs["current_player"] == p:
        tags.append(_("to play"))
    if seat["held"]:
        tags.append(_("held"))
    elif seat["cards"] >= 7:
        tags.append(_("7 cards"))
    if winner:
        tags.append(_("winner"))
    down = seat["face_down"]
    vals = seat.get("values") if show_down else None
    cards_html = []
    if show_down and not down.get("hidden"):
        v = vals[0] if vals else None
        note = _ace_note(down, v)
        if mark_down:  # walkthrough: which card was the face-down one
            note = ", ".join(n for n in (_("was face down"), note) if n)
        cards_html.append(card_face_html(_with_value(down, v), note=note))
    else:
        label = _("your face-down card (not peeked)") if obs["viewer"] == p else \
            _("{name}'s face-down card").format(name=name)
        cards_html.append(card_back_html(label))
    for i, c in enumerate(seat["face_up"]):
        v = vals[i + 1] if vals else None
        cards_html.append(card_face_html(_with_value(c, v), note=_ace_note(c, v)))
    lines = [_("face-up cards: {sum}").format(sum=signed(seat["face_up_sum"]))]
    if show_down and show_sum and seat["sum"] is not None:
        lines.append(_("sum {sum}, {abs}").format(sum=signed(seat["sum"]),
                                                  abs=abs_math(seat["sum"])))
    hits = seat["hits"]
    lines.append(ngettext("{n} hit", "{n} hits", hits).format(n=hits))
    return (f'<div class="{" ".join(classes)}" role="group" aria-label="{esc(name)}">'
            f'<div class="icg-seat-name">{esc(name)}'
            f'{" (" + esc(", ".join(tags)) + ")" if tags else ""}</div>'
            f'<div class="icg-hand">{"".join(cards_html)}</div>'
            f'<div class="icg-seat-status">{esc("; ".join(lines))}</div></div>')


def _with_value(card: dict[str, Any], value: int | None) -> dict[str, Any]:
    if value is None or value == card.get("value"):
        return card
    c = dict(card)
    c["value"], c["value_text"] = value, signed(value)
    return c


def seats_html(obs: dict[str, Any], names: Sequence[str], *, peeked: bool,
               hide_sum: int | None = None, mark_down: bool = False) -> str:
    """Every seat. The viewer's face-down card shows only after a peek (or at the reveal);
    `hide_sum`: a seat whose sum is not written (its student has not answered or asked to see
    it); `mark_down`: a face-down card shown face up says so (the teacher's walkthrough)."""
    res = obs.get("result") or {}
    winners = set(res.get("winners", []))
    parts = []
    for seat in obs["seats"]:
        p = seat["seat"]
        show = obs["reveal"] or (obs["viewer"] == p and peeked)
        parts.append(seat_html(obs, seat, names[p], show_down=show, winner=p in winners,
                               show_sum=p != hide_sum or obs["reveal"], mark_down=mark_down))
    return f'<div class="icg-seats">{"".join(parts)}</div>'


def number_line_parts(obs: dict[str, Any], names: Sequence[str], *, peeked: bool
                      ) -> tuple[list[Point], Arrow | None, list[Span]]:
    """Points, the last card's arrow and |sum| spans for the number line, from an observation."""
    viewer = obs["viewer"]
    res = obs.get("result")
    points: list[Point] = []
    spans: list[Span] = []
    known: dict[int, int] = {}
    for seat in obs["seats"]:
        p = seat["seat"]
        if seat["sum"] is not None and (obs["reveal"] or (p == viewer and peeked)):
            known[p] = seat["sum"]
    for seat in obs["seats"]:
        p = seat["seat"]
        if p in known:  # each dot says what it counts
            kind = "winner" if res and p in res["winners"] else ("me" if p == viewer else "sum")
            points.append(Point(known[p], _("{name} (all cards)").format(name=names[p]), kind))
            spans.append(Span(known[p], _("{name}: {abs}").format(name=names[p],
                                                                  abs=abs_math(known[p]))))
        else:
            points.append(Point(seat["face_up_sum"],
                                _("{name} (face-up cards)").format(name=names[p]), "sum"))
    arrow = None
    hits = [e for e in obs["events"] if e["kind"] == "hit"]
    if hits and not res:
        p = hits[-1]["seat"]
        seat = obs["seats"][p]
        card = seat["face_up"][-1]
        if p in known:
            value, end = int(card["value"]), known[p]
        else:  # face-up cards only, at their printed values
            value = int(card["value"])
            if card.get("rank") == 1:
                value = 1 if value > 0 else -1
            end = seat["face_up_sum"]
        arrow = Arrow(end - value, end, _("{name}: last card {value}").format(
            name=names[p], value=signed(value)))
    return points, arrow, spans


def announce_feedback(values: list[int], typed_sum: int | None, typed_abs: int | None
                      ) -> tuple[bool, str]:
    """Check a typed sum and |sum| against the cards; (right?, feedback text with arithmetic)."""
    total = sum(values)
    question = sum_terms(values)
    if typed_sum is None or typed_abs is None:
        return False, _("Type a whole number in each box, like -7 or 12 "
                        "(the \u2212 key makes it negative).")
    if typed_sum == total and typed_abs == abs(total):
        return True, _("Right! {sum}, and {abs}.").format(sum=sum_math(values),
                                                          abs=abs_math(total))
    both = len(values) >= 2  # the sum and |sum| asked together (engine/mistakes.py)
    if typed_sum != total:
        text = _("Your sum is not {typed}. Add the card values again: {question} = ?"
                 ).format(typed=signed(typed_sum), question=question)
        mistake = classify(Shape("sum", tuple(values), both=both), typed_sum)
    else:
        text = _("Your sum {sum} is right. The absolute value is the distance from zero: "
                 "|{sum}| = ? (you typed {typed})").format(sum=signed(total), typed=typed_abs)
        mistake = classify(Shape("abs-sum", tuple(values), both=both), typed_abs)
    return False, text if mistake is None else f"{mistake_feedback(mistake)} {text}"


def status_html(text: str, info: Sequence[str]) -> str:
    """The status line: what happens now, then round, dealer, pass and code."""
    return (f'<div role="status"><div class="icg-status-now">{esc(text)}</div>'
            f'<div class="icg-status-info">{esc(", ".join(info))}.</div></div>')


def pass_html(who: str, playing: bool) -> str:
    text = (_("Pass the device to {name} to take a turn. Everyone else: no peeking!") if playing
            else _("Pass the device to {name} to announce a sum. Everyone else: no peeking!"))
    return f'<div class="icg-pass" role="status">{esc(text.format(name=who))}</div>'


def own_cards_html(seat: dict[str, Any], peeked: bool) -> str:
    """The viewer's own hand as one line of text for the check ("Your cards: 3♥ (-3),
    7♦ (-7)"), each card with its signed value as it scores (an ace as chosen), so the
    cards to add stay in sight next to the box when the seats are scrolled away (200% zoom).
    The face-down card is named only after a peek, as the seat shows it."""
    down = seat["face_down"]
    vals = seat.get("values")
    shown_down = peeked and not down.get("hidden")
    texts = [_card_text(_with_value(down, vals[0] if vals else None)) if shown_down
             else _("your face-down card (not peeked)")]
    for i, c in enumerate(seat["face_up"]):
        texts.append(_card_text(_with_value(c, vals[i + 1] if vals else None)))
    return '<div class="icg-own-cards">{}</div>'.format(
        esc(_("Your cards: {cards}").format(cards=", ".join(texts))))


def _card_text(card: dict[str, Any]) -> str:
    """A card as text: rank, suit symbol and signed value ("7♦ (-7)")."""
    return f"{card['label']}{card['symbol']} ({card.get('value_text', signed(card['value']))})"


def announce_prompt_html(name: str, peeked: bool = False, own_cards: str = "") -> str:
    """The check's question for `name`, then `own_cards` (own_cards_html: the hand to add)."""
    text = esc(_("{name}, before the cards turn up: what is your sum, and how far is it from "
                 "zero? Use the keys or type; the \u2212 key makes a number negative.") if peeked
               else _("{name}, before the cards turn up: what is your sum, and how far is it "
                      "from zero? Peek at your face-down card, then use the keys or type; the "
                      "\u2212 key makes a number negative."))
    return "<div>" + text.replace("{name}", f"<b>{esc(name)}</b>", 1) + "</div>" + own_cards


def last_reason_html(names: Sequence[str], moves: Sequence[Any], revealed: bool,
                     drawn: dict[str, Any] | None = None) -> str:
    """The teacher's bar: the latest computer move, with the card a hit drew (`drawn`: the
    face-up card, as the public events show it; a face-down card is never named) and its
    reason once every hand is shown (a reason gives away the computer's cards)."""
    if not moves:
        return '<div class="icg-reason icg-last-reason">{}</div>'.format(
            esc(_("No computer moves yet.")))
    m = moves[-1]
    name, action = names[m.seat], action_text(m.action)
    if drawn is not None and not drawn.get("hidden") and "label" in drawn:
        card = f"{drawn['label']}{drawn['symbol']} ({drawn['value_text']})"
        what = (_("{name} chose {action} and drew {card}: \u201c{reason}\u201d").format(
            name=name, action=action, card=card, reason=m.reason) if revealed
            else _("{name} chose {action} and drew {card}").format(name=name, action=action,
                                                                  card=card))
    else:
        what = (_("{name} chose {action}: \u201c{reason}\u201d").format(
            name=name, action=action, reason=m.reason) if revealed
            else _("{name} chose {action}").format(name=name, action=action))
    return '<div class="icg-reason icg-last-reason"><b>{}</b> {}</div>'.format(
        esc(_("Last move:")), esc(what))


def reasons_html(names: Sequence[str], moves: Sequence[Any], revealed: bool) -> str:
    """The teacher's box: the computer players' latest reasons (only with every hand shown)."""
    if not revealed:
        return '<div class="icg-reason">{}</div>'.format(text_esc(
            _('Turn on "Show every hand" to see why the computer players move as they do '
              "(their reasons give away their cards).")))
    rows = ["<li>" + text_esc(_("{name} chose {action}: \u201c{reason}\u201d")).replace(
        "{name}", f"<b>{esc(names[m.seat])}</b>", 1).format(
        action=esc(action_text(m.action)), reason=esc(m.reason)) + "</li>" for m in moves[-8:]]
    if not rows:
        return '<div class="icg-reason">{}</div>'.format(esc(_("No computer moves yet.")))
    return ('<div class="icg-reason">{}<ul>'.format(
        text_esc(_("Computer players' reasons (latest last):")))
        + f'{"".join(rows)}</ul></div>')


def result_html(res: dict[str, Any] | None, names: Sequence[str], next_dealer: int,
                replay_code: str | None, first_round: bool, viewer: int | None = None) -> str:
    """The round's result: winner(s), every sum, the next dealer, the replay code."""
    if not res:
        return ""
    w = res["winners"]
    score = res["scores"][w[0]]
    if len(w) == 1 and w[0] == addressed(names, viewer):
        head = _("You win the round: |sum| = {score} is the closest to zero.").format(
            score=score)
    elif len(w) == 1:
        head = _("{name} wins the round: |sum| = {score} is the closest to zero.").format(
            name=names[w[0]], score=score)
    else:
        head = _("Tie: {who} are co-winners, each with |sum| = {score}.").format(
            who=join_names(names, w), score=score)
    line = _("sum {sum}, {abs}")
    rows = "".join(
        f"<li>{esc(names[p])}: "
        f"{esc(line.format(sum=signed(res['sums'][p]), abs=abs_math(res['sums'][p])))}</li>"
        for p in range(len(names)))
    nxt = names[next_dealer]
    replay = ""
    if replay_code is not None:
        text = (_("Replay this deal: deal code {code} (type it in Settings, Deal code).")
                if first_round else
                _("Replay round 1 of this game: deal code {code} (type it in Settings, Deal "
                  "code)."))
        replay = "<div>" + esc(text).replace("{code}", f"<b>{esc(replay_code)}</b>", 1) + \
            "</div>"
    dealer = _("Next dealer: {name}.").format(name=nxt)
    return (f'<div class="icg-msg icg-msg-celebrate" role="status">{esc(head)}</div>'
            f"<ul>{rows}</ul><div>{esc(dealer)}</div>"
            f"{replay}")
