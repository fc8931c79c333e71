"""Pure rendering for the Flapjack table: observations and views to HTML text.

Every function takes what a viewer may see (`FlapjackState.observation(seat)`, or pieces of it)
and returns a string; nothing here touches a game state or ipywidgets. Card faces, the number
line and the move log come from `widgets.table.render`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from widgets.table.render import (
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
    plain_totals,
    play_math,
    total_text,
)

# A small stylesheet of the Flapjack table's own (the shared one is widgets/table/style.css):
# the "Flapjack!" banner flips in; the table shows the cards in play in a felt-coloured strip.
FLAPJACK_CSS = """
.icg-fj-banner { margin: 4px 0; }
/* the messages' own place: room for a banner line and a message, kept when they are empty */
.icg-fj-messages { min-height: 5.2em; justify-content: flex-start; }
/* a box, not a scrolling region (a banner flips in a little larger than its place) */
.icg-flapjack .icg-fj-messages.widget-box { overflow: visible; }
.icg-fj-messages .icg-fj-banner { margin: 0; }
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
.icg-flapjack.icg-large .widget-html-content { font-size: 24px; line-height: 1.35; }
.icg-flapjack.icg-large .widget-button, .icg-flapjack.icg-large .widget-toggle-button {
  font-size: 24px; height: auto; min-height: 2.2em; }
.icg-flapjack.icg-large .icg-card-btn { font-size: 24px; }
.icg-flapjack.icg-large .widget-text input, .icg-flapjack.icg-large select,
.icg-flapjack.icg-large .widget-label { font-size: 24px; height: auto; }
"""

def is_add_or_subtract(obs: dict[str, Any]) -> bool:
    """Does the player choose to add or subtract each card?"""
    return bool(obs["config"].get("add_or_subtract"))


def is_plain(obs: dict[str, Any]) -> bool:
    """Is every card counted positive, its totals written without a sign ('7')?"""
    return plain_totals(obs["config"])


# ----- one play as arithmetic -------------------------------------------------------------
def play_question(before: int, delta: int, plain: bool = False,
                  value: int | None = None) -> str:
    """The same equation with the answer left out: '+2 + (-7) = ?', '+5 - (-7) = ?'."""
    return play_math(before, delta, plain, value).rsplit("=", 1)[0] + "= ?"


def direction_hint(before: int, delta: int, plain: bool = False) -> str:
    """Where the new total lies, in words, without giving it away."""
    if delta == 0:
        return _("Adding zero leaves the total where it is.")
    if delta > 0:
        text = _("Start at {total} on the number line and move {n} steps to the right (each "
                 "step is 1 greater).")
    else:
        text = _("Start at {total} on the number line and move {n} steps to the left (each "
                 "step is 1 less).")
    return text.format(total=total_text(before, plain), n=abs(delta))


@dataclass(frozen=True)
class LastPlay:
    """The most recent play read from the public event log."""

    seat: int
    card: str  # 'Q♠'
    before: int
    delta: int
    after: int
    flapjack: bool
    # the card's value (a signed card subtracted: -delta); read from the same event, so
    # two plays are the same play without it
    value: int | None = field(default=None, compare=False)


def last_play(obs: dict[str, Any]) -> LastPlay | None:
    """The latest play in the observation's events (None before the first play)."""
    events = obs.get("events", [])
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        if e.get("kind") != "play":
            continue
        flap = i + 1 < len(events) and events[i + 1].get("kind") == "flapjack"
        return LastPlay(int(e["seat"]), f"{e['card']['label']}{e['card']['symbol']}",
                        int(e["before"]), int(e["delta"]), int(e["after"]), flapjack=flap,
                        value=None if e.get("value") is None else int(e["value"]))
    return None


# ----- the table: cards in play, total, draw pile -------------------------------------------
def table_html(obs: dict[str, Any], *, hide_total: bool = False) -> str:
    """The cards in play with their values, the running total (as a sum) and the draw pile."""
    aos = is_add_or_subtract(obs)
    plain = is_plain(obs)
    cards = obs.get("table", [])
    # (no _() inside f-strings: Babel's extraction reads calls, not f-string expressions)
    in_play = esc(_("cards in play"))
    parts = [f'<div class="icg-fj-table" role="region" aria-label="{in_play}">']
    if cards:
        faces = []
        for c in cards:
            note = ""
            if aos and plain:
                note = (_("adds {n}") if c["added"] >= 0 else _("subtracts {n}")).format(
                    n=abs(c["added"]))
            elif aos:  # a signed card: 'subtracts (-7)'
                note = (_("adds {n}") if c["added"] == c["value"] else
                        _("subtracts {n}")).format(n=f"({signed(int(c['value']))})")
            faces.append(card_face_html(c, small=True, note=note))
        head = esc(_("Cards in play ({n}):").format(n=len(cards)))
        parts.append(f'<div><b>{head}</b> '
                     f'<span class="icg-hand" role="group" aria-label="'
                     f'{in_play}">{"".join(faces)}</span></div>')
    else:
        head, none = esc(_("Cards in play:")), esc(_("none. The next card played leads."))
        parts.append(f'<div><b>{head}</b> {none}</div>')
    if hide_total:
        head, work = esc(_("Running total: ?")), esc(_("(you work it out)"))
        parts.append(f'<div class="icg-fj-total">{head} '
                     f'<span class="icg-fj-sum">{work}</span></div>')
    else:
        total = int(obs["total"])
        head = esc(_("Running total: {total}").format(total=total_text(total, plain)))
        parts.append(f'<div class="icg-fj-total" aria-live="polite">{head}</div>')
        if len(cards) > 1:
            parts.append(f'<div class="icg-fj-sum">{esc(sum_text(cards, plain))}</div>')
    pile = int(obs.get("draw_pile", 0))
    back = card_back_html(_("draw pile, face down"), small=True) if pile else ""
    pile_text = ngettext("Draw pile: {n} card", "Draw pile: {n} cards", pile).format(n=pile)
    parts.append(f'<div class="icg-fj-pile">{back}<span>{esc(pile_text)}</span></div>')
    parts.append("</div>")
    return "".join(parts)


def sum_text(cards: Sequence[dict[str, Any]], plain: bool = False) -> str:
    """The cards in play as one sum: '+5 + (-3) + (+7) = +9', a signed card subtracted
    '+5 - (-3) + (+7) = +15', or (`plain`, every card positive) '5 - 3 + 7 = 9'."""
    adds = [int(c["added"]) for c in cards]
    total = sum(adds)
    if plain:
        text = str(adds[0])
        for a in adds[1:]:
            text += f" {'+' if a >= 0 else '-'} {abs(a)}"
        return f"{text} = {total}"
    if len(adds) == 1:
        return f"{signed(adds[0])} = {signed(total)}"
    text = signed(adds[0])
    for c, a in zip(cards[1:], adds[1:], strict=True):
        value = int(c.get("value", a))  # a card subtracted adds minus its value
        text += f" - ({signed(value)})" if a != value else f" + ({signed(a)})"
    return f"{text} = {signed(total)}"


# ----- seats ---------------------------------------------------------------------------------
def seats_html(obs: dict[str, Any], names: Sequence[str], you: int | None = 0) -> str:
    """One box per player: cards in hand (faces only where the observation shows them),
    cards won and Flapjacks; the player to move and the dealer are marked."""
    boxes = []
    result = obs.get("result") or {}
    winners = set(result.get("winners", [])) if obs.get("is_over") else set()
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
        in_hand = esc(ngettext("{n} card in hand", "{n} cards in hand", n).format(n=n))
        won_text = esc(_("cards won: {won}; Flapjacks: {flaps}").format(won=won, flaps=flaps))
        boxes.append(
            f'<div class="{" ".join(classes)}" role="group" aria-label="{esc(names[p])}">'
            f'<div class="icg-seat-name">{esc(names[p])}{esc(tag_text)}</div>'
            f'<div class="icg-seat-status">'
            f'{in_hand}; {won_text}'
            f'</div>{cards}</div>'
        )
    return f'<div class="icg-seats">{"".join(boxes)}</div>'


# ----- status, banner, end -------------------------------------------------------------------
def status_text(obs: dict[str, Any], names: Sequence[str], you: int | None = 0, *,
                walkthrough: bool = False, choosing: str = "") -> str:
    """One line saying whose turn it is and what to do."""
    if obs.get("is_over"):
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
                you: int | None = 0, plain: bool = False) -> str:
    """Announcements for a batch of new events: every Flapjack (celebrated), every pass."""
    lines = []
    spoken = addressed(names, you)
    for e in events:
        kind = e.get("kind")
        if kind == "flapjack":
            text = flapjack_banner_text(e, names, spoken, plain)
            word = esc(_("Flapjack!"))
            lines.append(
                f'<div class="icg-fj-flapjack" role="status">'
                f'<span class="icg-fj-word">{word}</span> {esc(text)}</div>')
        elif kind == "pass":
            lines.append(f'<div class="icg-fj-pass" role="status">'
                         f'{esc(flapjack_pass_sentence(e, names, spoken))}.</div>')
    if not lines:
        return ""
    return f'<div class="icg-fj-banner">{"".join(lines)}</div>'


def end_text(obs: dict[str, Any], names: Sequence[str], you: int | None = 0) -> str:
    """'Game over: every card has been played. Ada wins with 12 cards.' (co-winners on a tie)."""
    result = obs.get("result")
    if not obs.get("is_over") or not result:
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
    plain = is_plain(obs)
    lines = (flapjack_log_line(e, names, you, plain) for e in obs.get("events", []))
    return [ln for ln in lines if ln is not None]


# ----- number line ---------------------------------------------------------------------------
def number_line_args(obs: dict[str, Any], *, hide_total: bool = False) -> dict[str, Any]:
    """Arguments for `number_line_svg` / `NumberLine.show`: the running total as a point, the
    last card as an arrow, the targets marked and everything outside the limits shaded."""
    aos = is_plain(obs)
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
        step = play_math(last.before, last.delta, aos, last.value).split(" = ")[0]
        if aos:
            label = f"{last.card} {'+' if last.delta >= 0 else '-'}{abs(last.delta)}".strip()
        elif last.value is not None and last.delta == -last.value:  # a signed card subtracted
            label = f"{last.card} -({signed(last.value)})".strip()
        else:
            label = f"{last.card} {signed(last.delta)}".strip()
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
                         add_or_subtract: bool = False, plain: bool | None = None) -> str:
    """'The total is +2. You play 7♦ (-7). What is the new total? +2 + (-7) = ?'; adding or
    subtracting a signed card: '... and subtract -7. ... +5 - (-7) = ?'."""
    plain = add_or_subtract if plain is None else plain
    value = int(card["value"])
    delta = sign * abs(value) if plain else sign * value
    if add_or_subtract:
        how = (_("add {n}") if sign > 0 else _("subtract {n}")).format(
            n=total_text(value, plain))
    else:
        how = _("add {n}").format(n=signed(delta))
    before_text = esc(_("The total is {total}. You play").format(
        total=total_text(before, plain)))
    after_text = esc(_("and {how}. What is the new total?").format(how=how))
    say = esc(_("Say the new total."))
    return (f'<div class="icg-fj-question"><b>{say}</b> '
            f'{before_text} {card_face_html(card, small=True)} {after_text} '
            f'<span class="icg-fj-sum">{esc(play_question(before, delta, plain, value))}'
            f'</span></div>')


def reasons_html(moves: Sequence[tuple[str, str, str]]) -> str:
    """Computer players' reasons, newest first: (name, move text, reason)."""
    if not moves:
        return ""
    rows = "".join(f"<li><b>{esc(n)}</b> {esc(m)}: <span class='icg-reason'>{esc(r)}</span></li>"
                   for n, m, r in reversed(moves))
    why = esc(_("Why the computer players moved:"))
    return (f'<div class="icg-fj-reasons"><b>{why}</b>'
            f'<ul>{rows}</ul></div>')


def notice_html(text: str, kind: str = "info") -> str:
    """A message (re-exported so the table needs one render import)."""
    return message_html(text, kind)


# ----- pieces of a table view (widgets/flapjack/view.py) ---------------------------------------
def header_html(h: Any) -> str:
    """The title and the rules in one paragraph (h: a view.Header)."""
    aos = h.add_or_subtract if h.plain is None else h.plain
    targets = ", ".join(total_text(t, aos) for t in h.targets)
    if aos:
        count = _("Every card counts its rank (A = 1, J = 11, Q = 12, K = 13); you choose to "
                  "add it or subtract it.")
    elif h.colors == "black-positive":
        count = _("Black cards are positive, red cards negative.")
    else:
        count = _("Red cards are positive, black cards negative.")
    if h.add_or_subtract and not aos:  # signed cards, added or subtracted
        count += " " + _("You choose to add the card or to subtract it: subtracting a negative "
                         "card moves the total up, +5 - (-7) = +12.")
    limits = _("{low} to {high}").format(low=total_text(h.low, aos),
                                         high=total_text(h.high, aos))
    code = (" " + esc(_("Deal code: {code}.")).replace("{code}", f"<b>{esc(h.code)}</b>", 1)
            if h.code is not None else "")
    rules = _("Keep the running total within {limits}; make it exactly {targets} for a "
              "Flapjack and win the cards in play.").format(limits=limits, targets=targets)
    title = esc(_("Flapjack: {variant}").format(variant=h.title))
    return (f'<div class="icg-title">{title}'
            f"</div><div>{esc(count)} {esc(rules)}{code}</div>")


def view_banner_html(v: Any) -> str:
    """New Flapjacks and passes, the end, and the replay code once it may show (v: TableView)."""
    out = banner_html(v.banner_events, v.names, v.viewer, is_plain(v.obs)) \
        + end_html(v.obs, v.names, v.viewer)
    if v.replay_code is not None:
        text = esc(_("Replay this deal: deal code {code} (type it in Settings, Deal code)."))
        out += ('<div class="icg-fj-replay">'
                + text.replace("{code}", f"<b>{esc(v.replay_code)}</b>", 1) + "</div>")
    return out


def view_reasons_html(v: Any) -> str:
    """The computer players' reasons for a teacher (only with every hand shown)."""
    if not v.walkthrough:
        return ""
    if not v.show_reasons:
        return notice_html(_('Turn on "Show every hand" to see why the computer players '
                             "moved (a reason can name a card in their hand)."), "info")
    return reasons_html(v.bot_moves)


def view_last_reason_html(v: Any) -> str:
    """The teacher's bar: the latest computer move, with its reason once every hand is shown
    (v: TableView; the same place and look as Hit Me's)."""
    if not v.walkthrough:
        return ""
    if v.last_move is None:
        return '<div class="icg-reason icg-last-reason">{}</div>'.format(
            esc(_("No computer moves yet.")))
    name, what, reason = v.last_move
    said = f": \u201c{esc(reason)}\u201d" if reason else ""
    return (f'<div class="icg-reason icg-last-reason"><b>{esc(_("Last move:"))}</b> '
            f"{esc(name)} {esc(what)}{said}</div>")


def sign_prompt_html(s: Any) -> str:
    """'You chose 7♦ (it counts 7). Add it to the total or subtract it?' (s: SignPrompt)."""
    text = esc(_("You chose {card} (it counts {n}). Add it to the total or subtract it?"))
    return ("<div>" + text.replace("{card}", card_face_html(s.card, small=True), 1).replace(
        "{n}", esc(str(s.counts)), 1) + "</div>")


def hand_title_html(count: int) -> str:
    if not count:
        return "<b>" + esc(_("Your hand is empty.")) + "</b>"
    text = ngettext("Your hand ({n} card)", "Your hand ({n} cards)", count).format(n=count)
    return "<b>" + esc(text) + "</b>"
