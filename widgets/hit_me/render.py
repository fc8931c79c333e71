"""Hit Me's pure render functions: observation pieces and view data -> HTML (no ipywidgets).

Every sentence comes from `widgets/words.py`; nothing here reads engine text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.cards import signed
from widgets.render import (  # noqa: F401 - Arrow, Point, Span, score_table_html re-exported
    Arrow,
    Point,
    Span,
    card_back_html,
    card_face_html,
    esc,
    score_table_html,
)
from widgets.words import _, abs_math, join_names, ngettext, sum_math


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
              winner: bool = False, show_sum: bool = True) -> str:
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
        cards_html.append(card_face_html(_with_value(down, v), note=_ace_note(down, v)))
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
               hide_sum: int | None = None) -> str:
    """Every seat. The viewer's face-down card shows only after a peek (or at the reveal);
    `hide_sum`: a seat whose sum is not written (its student is being asked for it)."""
    res = obs.get("result") or {}
    winners = set(res.get("winners", []))
    parts = []
    for seat in obs["seats"]:
        p = seat["seat"]
        show = obs["reveal"] or (obs["viewer"] == p and peeked)
        parts.append(seat_html(obs, seat, names[p], show_down=show, winner=p in winners,
                               show_sum=p != hide_sum))
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
        if p in known:
            kind = "winner" if res and p in res["winners"] else ("me" if p == viewer else "sum")
            points.append(Point(known[p], names[p], kind))
            spans.append(Span(known[p], f"{names[p]}: {abs_math(known[p])}"))
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
    terms = [signed(values[0])] + [f"({signed(v)})" for v in values[1:]]
    question = " + ".join(terms)
    if typed_sum is None or typed_abs is None:
        return False, _("Type a whole number in each box, like -7 or 12 "
                        "(the \u2212 key makes it negative).")
    if typed_sum == total and typed_abs == abs(total):
        return True, _("Right! {sum}, and {abs}.").format(sum=sum_math(values),
                                                          abs=abs_math(total))
    if typed_sum != total:
        return False, _("Your sum is not {typed}. Add the card values again: {question} = ?"
                        ).format(typed=signed(typed_sum), question=question)
    return False, _("Your sum {sum} is right. The absolute value is the distance from zero: "
                    "|{sum}| = ? (you typed {typed})").format(sum=signed(total), typed=typed_abs)


def status_html(text: str, info: Sequence[str]) -> str:
    """The status line: what happens now, then round, dealer, pass and code."""
    return (f'<div role="status"><div class="icg-status-now">{esc(text)}</div>'
            f'<div class="icg-status-info">{esc(", ".join(info))}.</div></div>')


def pass_html(who: str, playing: bool) -> str:
    why = "to take a turn" if playing else "to announce a sum"
    return (f'<div class="icg-pass" role="status">Pass the device to '
            f'{esc(who)} {why}. Everyone else: no peeking!</div>')


def announce_prompt_html(name: str) -> str:
    return (f"<div><b>{esc(name)}</b>, before the cards turn up: what is your sum, and "
            "how far is it from zero? Peek at your face-down card, then use the keys or "
            "type; the \u2212 key makes a number negative.</div>")


def reasons_html(names: Sequence[str], moves: Sequence[Any], revealed: bool) -> str:
    """The teacher's box: the computer players' latest reasons (only with every hand shown)."""
    if not revealed:
        return ('<div class="icg-reason">Turn on "Show every hand" to see why the computer '
                'players move as they do (their reasons give away their cards).</div>')
    rows = [f"<li><b>{esc(names[m.seat])}</b> chose {esc(str(m.action).lower())}: "
            f"\u201c{esc(m.reason)}\u201d</li>" for m in moves[-8:]]
    if not rows:
        return '<div class="icg-reason">No computer moves yet.</div>'
    return ('<div class="icg-reason">Computer players\' reasons (latest last):<ul>'
            f'{"".join(rows)}</ul></div>')


def result_html(res: dict[str, Any] | None, names: Sequence[str], next_dealer: int,
                replay_code: str | None, first_round: bool) -> str:
    """The round's result: winner(s), every sum, the next dealer, the replay code."""
    if not res:
        return ""
    w = res["winners"]
    score = res["scores"][w[0]]
    if len(w) == 1:
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
        where = "this deal" if first_round else "round 1 of this game"
        replay = (f"<div>Replay {where}: deal code <b>{esc(replay_code)}</b> "
                  "(type it in Settings, Deal code).</div>")
    return (f'<div class="icg-msg icg-msg-celebrate" role="status">{esc(head)}</div>'
            f"<ul>{rows}</ul><div>{esc(_('Next dealer: {name}.').format(name=nxt))}</div>"
            f"{replay}")
