"""Pure rendering for the Flapjack table: observations and views to HTML text.

Every function takes what a viewer may see (`FlapjackState.observation(seat)`, or pieces of it)
and returns a string; nothing here touches a game state or ipywidgets. Card faces, the number
line and the move log come from `widgets.render`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from widgets.render import (
    Arrow,
    Point,
    card_back_html,
    card_face_html,
    esc,
    hand_html,
    message_html,
    number_line_svg,
    signed,
)
from widgets.words import (
    _,
    addressed,
    flapjack_banner_text,
    flapjack_end_text,
    flapjack_log_line,
    flapjack_pass_sentence,
    ngettext,
    play_math,
    total_text,
)

DEFAULT_NAMES = ("You", "Ada", "Ben", "Cleo", "Dev", "Emi", "Femi", "Gus")

# A small stylesheet of the Flapjack table's own (the shared one is widgets/style.css):
# the "Flapjack!" banner flips in; the table shows the cards in play in a felt-coloured strip.
FLAPJACK_CSS = """
.icg-fj-banner { margin: 4px 0; }
.icg-fj-flapjack { display: block; background: #fff4d6; border: 3px solid #b58900;
  border-radius: 10px; padding: 6px 10px; font-weight: 700; font-size: 1.25em;
  animation: icg-fj-flip 0.9s ease-out 1; }
.icg-fj-flapjack .icg-fj-word { font-size: 1.3em; color: #7a4b00; letter-spacing: 0.03em; }
@keyframes icg-fj-flip {
  0% { transform: scale(0.6) rotate(-8deg); opacity: 0.2; }
  60% { transform: scale(1.08) rotate(2deg); opacity: 1; }
  100% { transform: scale(1) rotate(0deg); } }
@media (prefers-reduced-motion: reduce) { .icg-fj-flapjack { animation: none; } }
.icg-fj-pass { display: block; background: #eef3fa; border-radius: 6px; padding: 3px 8px; }
.icg-fj-end { display: block; background: #e6f4e6; border: 2px solid #1b6e1b; border-radius: 10px;
  padding: 6px 10px; font-weight: 700; }
.icg-fj-table { background: #e9f3ec; border: 1px solid #9bbfa5; border-radius: 10px;
  padding: 6px 10px; margin: 4px 0; }
.icg-fj-total { font-size: 1.5em; font-weight: 700; }
.icg-fj-sum { font-family: ui-monospace, Menlo, Consolas, monospace; }
.icg-fj-pile { display: inline-flex; align-items: center; gap: 6px; }
.icg-fj-pending { outline: 3px dashed #b58900; outline-offset: 2px; }
/* Large print: ipywidgets gives HTML, buttons and inputs their own font size, so set it here. */
.icg-flapjack.icg-large .widget-html-content { font-size: 22px; line-height: 1.35; }
.icg-flapjack.icg-large .widget-button, .icg-flapjack.icg-large .widget-toggle-button {
  font-size: 20px; height: auto; min-height: 2.2em; }
.icg-flapjack.icg-large .icg-card-btn { font-size: 24px; }
.icg-flapjack.icg-large .widget-text input, .icg-flapjack.icg-large select,
.icg-flapjack.icg-large .widget-label { font-size: 20px; height: auto; }
"""

def seat_names(players: int, names: Sequence[str] | None = None) -> list[str]:
    """One name per seat: the given names, then defaults ('You', 'Ada', 'Ben', ...)."""
    given = [str(n) for n in (names or ())][:players]
    out = list(given)
    for i in range(len(given), players):
        out.append(DEFAULT_NAMES[i] if i < len(DEFAULT_NAMES) else f"Player {i + 1}")
    return out


def is_add_or_subtract(obs: dict[str, Any]) -> bool:
    return bool(obs["config"].get("add_or_subtract"))


# ----- one play as arithmetic -------------------------------------------------------------
def play_question(before: int, delta: int, add_or_subtract: bool = False) -> str:
    """The same sum with the answer left out: '+2 + (-7) = ?'."""
    return play_math(before, delta, add_or_subtract).rsplit("=", 1)[0] + "= ?"


def direction_hint(before: int, delta: int, add_or_subtract: bool = False) -> str:
    """Where the new total lies, in words, without giving it away."""
    if delta == 0:
        return _("Adding zero leaves the total where it is.")
    if delta > 0:
        text = _("Start at {total} on the number line and move {n} steps to the right (each "
                 "step is 1 greater).")
    else:
        text = _("Start at {total} on the number line and move {n} steps to the left (each "
                 "step is 1 less).")
    return text.format(total=total_text(before, add_or_subtract), n=abs(delta))


@dataclass(frozen=True)
class LastPlay:
    """The most recent play read from the public event log."""

    seat: int
    card: str  # 'Q♠'
    before: int
    delta: int
    after: int
    flapjack: bool


def last_play(obs: dict[str, Any]) -> LastPlay | None:
    """The latest play in the observation's events (None before the first play)."""
    events = obs.get("events", [])
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        if e.get("kind") != "play":
            continue
        flap = i + 1 < len(events) and events[i + 1].get("kind") == "flapjack"
        return LastPlay(int(e["seat"]), f"{e['card']['label']}{e['card']['symbol']}",
                        int(e["before"]), int(e["delta"]), int(e["after"]), flapjack=flap)
    return None


# ----- the table: cards in play, total, draw pile -------------------------------------------
def table_html(obs: dict[str, Any], *, hide_total: bool = False) -> str:
    """The cards in play with their values, the running total (as a sum) and the draw pile."""
    aos = is_add_or_subtract(obs)
    cards = obs.get("table", [])
    parts = [f'<div class="icg-fj-table" role="region" aria-label="{esc(_("cards in play"))}">']
    if cards:
        faces = []
        for c in cards:
            note = ""
            if aos:
                note = (_("adds {n}") if c["added"] >= 0 else _("subtracts {n}")).format(
                    n=abs(c["added"]))
            faces.append(card_face_html(c, small=True, note=note))
        parts.append(f'<div><b>{esc(_("Cards in play ({n}):").format(n=len(cards)))}</b> '
                     f'<span class="icg-hand" role="group" aria-label="'
                     f'{esc(_("cards in play"))}">{"".join(faces)}</span></div>')
    else:
        parts.append(f'<div><b>{esc(_("Cards in play:"))}</b> '
                     f'{esc(_("none. The next card played leads."))}</div>')
    if hide_total:
        parts.append(f'<div class="icg-fj-total">{esc(_("Running total: ?"))} '
                     f'<span class="icg-fj-sum">{esc(_("(you work it out)"))}</span></div>')
    else:
        total = int(obs["total"])
        parts.append(f'<div class="icg-fj-total" aria-live="polite">'
                     f'{esc(_("Running total: {total}").format(total=total_text(total, aos)))}'
                     f'</div>')
        if len(cards) > 1:
            parts.append(f'<div class="icg-fj-sum">{esc(sum_text(cards, aos))}</div>')
    pile = int(obs.get("draw_pile", 0))
    back = card_back_html(_("draw pile, face down"), small=True) if pile else ""
    pile_text = ngettext("Draw pile: {n} card", "Draw pile: {n} cards", pile).format(n=pile)
    parts.append(f'<div class="icg-fj-pile">{back}<span>{esc(pile_text)}</span></div>')
    parts.append("</div>")
    return "".join(parts)


def sum_text(cards: Sequence[dict[str, Any]], add_or_subtract: bool = False) -> str:
    """The cards in play as one sum: '+5 + (-3) + (+7) = +9' or '5 - 3 + 7 = 9'."""
    adds = [int(c["added"]) for c in cards]
    total = sum(adds)
    if add_or_subtract:
        text = str(adds[0])
        for a in adds[1:]:
            text += f" {'+' if a >= 0 else '-'} {abs(a)}"
        return f"{text} = {total}"
    if len(adds) == 1:
        return f"{signed(adds[0])} = {signed(total)}"
    return " + ".join([signed(adds[0])] + [f"({signed(a)})" for a in adds[1:]]) + \
        f" = {signed(total)}"


# ----- seats ---------------------------------------------------------------------------------
def seats_html(obs: dict[str, Any], names: Sequence[str], you: int | None = 0) -> str:
    """One box per player: cards in hand (faces only where the observation shows them),
    cards won and Flapjacks; the player to move and the dealer are marked."""
    boxes = []
    result = obs.get("result") or {}
    winners = set(result.get("winners", [])) if obs.get("over") else set()
    for seat in obs["seats"]:
        p = int(seat["seat"])
        classes = ["icg-seat"]
        tags = []
        if p == obs.get("current_player"):
            classes.append("icg-current")
            tags.append(_("to play"))
        if p in winners:
            classes.append("icg-winner")
            tags.append(_("winner"))
        if p == obs.get("dealer"):
            tags.append(_("dealer"))
        n = int(seat["hand_count"])
        won = int(seat["trick_count"])
        flaps = int(seat.get("flapjacks", 0))
        if seat.get("hand") is not None and p != you:
            cards = hand_html(seat["hand"], label=_("{name}'s hand").format(name=names[p]),
                              small=True)
        elif p == you:
            cards = ""
        else:
            cards = hand_html([{"hidden": True}] * min(n, 7),
                              label=_("{name}'s hand, face down").format(name=names[p]),
                              small=True)
        tag_text = f" ({', '.join(tags)})" if tags else ""
        boxes.append(
            f'<div class="{" ".join(classes)}" role="group" aria-label="{esc(names[p])}">'
            f'<div class="icg-seat-name">{esc(names[p])}{esc(tag_text)}</div>'
            f'<div class="icg-seat-status">'
            f'{esc(ngettext("{n} card in hand", "{n} cards in hand", n).format(n=n))}; '
            f'{esc(_("cards won: {won}; Flapjacks: {flaps}").format(won=won, flaps=flaps))}'
            f'</div>{cards}</div>'
        )
    return f'<div class="icg-seats">{"".join(boxes)}</div>'


# ----- status, banner, end -------------------------------------------------------------------
def status_text(obs: dict[str, Any], names: Sequence[str], you: int | None = 0, *,
                walkthrough: bool = False, choosing: str = "") -> str:
    """One line saying whose turn it is and what to do."""
    if obs.get("over"):
        return _("The game is over.")
    cur = obs.get("current_player")
    if cur is None:
        return ""
    lead = not obs.get("table")
    if cur == you:
        if choosing:
            return choosing
        return _("Your turn: lead: play any card that keeps the total within the limits.") \
            if lead else _("Your turn: play a card that keeps the total within the limits.")
    name = names[cur]
    if walkthrough:
        return _("{name}'s turn: press Next move to see what {name} plays.").format(name=name)
    return _("{name} is thinking...").format(name=name)


def banner_html(events: Sequence[dict[str, Any]], names: Sequence[str],
                you: int | None = 0, add_or_subtract: bool = False) -> str:
    """Announcements for a batch of new events: every Flapjack (celebrated), every pass."""
    lines = []
    spoken = addressed(names, you)
    for e in events:
        kind = e.get("kind")
        if kind == "flapjack":
            text = flapjack_banner_text(e, names, spoken, add_or_subtract)
            lines.append(
                f'<div class="icg-fj-flapjack" role="status">'
                f'<span class="icg-fj-word">{esc(_("Flapjack!"))}</span> {esc(text)}</div>')
        elif kind == "pass":
            lines.append(f'<div class="icg-fj-pass" role="status">'
                         f'{esc(flapjack_pass_sentence(e, names, spoken))}.</div>')
    if not lines:
        return ""
    return f'<div class="icg-fj-banner">{"".join(lines)}</div>'


def end_text(obs: dict[str, Any], names: Sequence[str], you: int | None = 0) -> str:
    """'Game over: every card has been played. Ada wins with 12 cards.' (co-winners on a tie)."""
    result = obs.get("result")
    if not obs.get("over") or not result:
        return ""
    return flapjack_end_text(result, names, addressed(names, you))


def end_html(obs: dict[str, Any], names: Sequence[str], you: int | None = 0) -> str:
    """The end announcement as a banner (empty while the game goes on)."""
    text = end_text(obs, names, you)
    if not text:
        return ""
    left = sum(int(s["hand_count"]) for s in obs["seats"]) + len(obs.get("table", []))
    extra = (" " + ngettext("{n} card still in hands or in play is won by no one.",
                            "{n} cards still in hands or in play are won by no one.",
                            left).format(n=left)) if left else ""
    return f'<div class="icg-fj-end" role="status">{esc(text + extra)}</div>'


# ----- move log ------------------------------------------------------------------------------
def log_lines(obs: dict[str, Any], names: Sequence[str], you: int | None = 0) -> list[str]:
    """The move log, oldest first: plays as equations ('Ben: -3 + (+5) = +2  [5♠]'),
    Flapjacks, passes, your own draws (only you see them) and the end."""
    aos = is_add_or_subtract(obs)
    lines = (flapjack_log_line(e, names, you, aos) for e in obs.get("events", []))
    return [ln for ln in lines if ln is not None]


# ----- number line ---------------------------------------------------------------------------
def number_line_args(obs: dict[str, Any], *, hide_total: bool = False) -> dict[str, Any]:
    """Arguments for `number_line_svg` / `NumberLine.show`: the running total as a point, the
    last card as an arrow, the targets marked and everything outside the limits shaded."""
    aos = is_add_or_subtract(obs)
    low, high = int(obs["low"]), int(obs["high"])
    args: dict[str, Any] = {
        "marks": tuple(int(t) for t in obs["targets"]),
        "limits": (low, high),
        "lo": low if aos else -high,
        "hi": high,
    }
    if hide_total:
        return args
    total = int(obs["total"])
    # (number_line_svg writes each point's value after its label)
    args["points"] = (Point(total, _("total"), "total"),)
    last = last_play(obs)
    if last is not None:
        step = play_math(last.before, last.delta, aos).split(" = ")[0]
        label = f"{last.card} {signed(last.delta)}".strip() if not aos else \
            f"{last.card} {'+' if last.delta >= 0 else '-'}{abs(last.delta)}".strip()
        if last.flapjack:
            label += " " + _("Flapjack!")
        args["arrow"] = Arrow(last.before, last.after, label or step)
        if last.flapjack:
            # The trick was taken and the table is empty again (total 0): mark where it was made.
            flap = Point(last.after, _("Flapjack!"), "winner")
            args["points"] = (flap,) if last.after == total else \
                (Point(total, _("total now"), "total"), flap)
    return args


def number_line_html(obs: dict[str, Any], *, hide_total: bool = False) -> str:
    """The Flapjack number line as HTML (see number_line_args)."""
    return number_line_svg(title=_("Running total"),
                           **number_line_args(obs, hide_total=hide_total))


# ----- say-the-new-total practice -----------------------------------------------------------
def practice_prompt_html(before: int, card: dict[str, Any], sign: int,
                         add_or_subtract: bool = False) -> str:
    """'The total is +2. You play 7♦ (-7). What is the new total? +2 + (-7) = ?'"""
    delta = sign * abs(int(card["value"])) if add_or_subtract else int(card["value"])
    if add_or_subtract:
        how = (_("add {n}") if sign > 0 else _("subtract {n}")).format(n=abs(delta))
    else:
        how = _("add {n}").format(n=signed(delta))
    before_text = esc(_("The total is {total}. You play").format(
        total=total_text(before, add_or_subtract)))
    after_text = esc(_("and {how}. What is the new total?").format(how=how))
    return (f'<div class="icg-fj-question"><b>{esc(_("Say the new total."))}</b> '
            f'{before_text} {card_face_html(card, small=True)} {after_text} '
            f'<span class="icg-fj-sum">{esc(play_question(before, delta, add_or_subtract))}'
            f'</span></div>')


def reasons_html(moves: Sequence[tuple[str, str, str]]) -> str:
    """Computer players' reasons, newest first: (name, move text, reason)."""
    if not moves:
        return ""
    rows = "".join(f"<li><b>{esc(n)}</b> {esc(m)}: <span class='icg-reason'>{esc(r)}</span></li>"
                   for n, m, r in reversed(moves))
    return (f'<div class="icg-fj-reasons"><b>{esc(_("Why the computer players moved:"))}</b>'
            f'<ul>{rows}</ul></div>')


def notice_html(text: str, kind: str = "info") -> str:
    """A message (re-exported so the table needs one render import)."""
    return message_html(text, kind)


# ----- pieces of a table view (widgets/flapjack/view.py) ---------------------------------------
def header_html(h: Any) -> str:
    """The title and the rules in one paragraph (h: a view.Header)."""
    aos = h.add_or_subtract
    targets = ", ".join(total_text(t, aos) for t in h.targets)
    if aos:
        count = "Every card counts its rank (A = 1, J = 11, Q = 12, K = 13); you choose to " \
                "add it or subtract it."
    else:
        pos = "black" if h.colors == "black-positive" else "red"
        neg = "red" if pos == "black" else "black"
        count = f"{pos.capitalize()} cards are positive, {neg} cards negative."
    limits = f"{total_text(h.low, aos)} to {total_text(h.high, aos)}"
    code = f" Deal code: <b>{esc(h.code)}</b>." if h.code is not None else ""
    return (f'<div class="icg-title">Flapjack: {esc(h.title)}</div>'
            f"<div>{esc(count)} Keep the running total within {esc(limits)}; "
            f"make it exactly {esc(targets)} for a Flapjack and win the cards in play."
            f"{code}</div>")


def view_banner_html(v: Any) -> str:
    """New Flapjacks and passes, the end, and the replay code once it may show (v: TableView)."""
    aos = is_add_or_subtract(v.obs)
    out = banner_html(v.banner_events, v.names, v.viewer, aos) + end_html(v.obs, v.names,
                                                                          v.viewer)
    if v.replay_code is not None:
        out += (f'<div class="icg-fj-replay">Replay this deal: deal code '
                f"<b>{esc(v.replay_code)}</b> (type it in Settings, Deal code).</div>")
    return out


def view_reasons_html(v: Any) -> str:
    """The computer players' reasons for a teacher (only with every hand shown)."""
    if not v.walkthrough:
        return ""
    if not v.show_reasons:
        return notice_html("Turn on \"Show every hand\" to see why the computer players "
                           "moved (a reason can name a card in their hand).", "info")
    return reasons_html(v.bot_moves)


def sign_prompt_html(s: Any) -> str:
    """'You chose 7♦ (it counts 7). Add it to the total or subtract it?' (s: SignPrompt)."""
    return (f"<div>You chose {card_face_html(s.card, small=True)} "
            f"(it counts {s.counts}). Add it to the total or subtract it?</div>")


def hand_title_html(count: int) -> str:
    return (f"<b>Your hand ({count} card{'s' if count != 1 else ''})</b>" if count
            else "<b>Your hand is empty.</b>")
