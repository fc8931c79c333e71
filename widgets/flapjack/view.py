"""What a Flapjack table shows one viewer, as frozen data: `table_view(session, viewer)`.

Computed only from the viewer's observation (`session.observation(viewer)`: their own hand,
every hand only when the teacher reveals them or the game is over), the session's screen state
(the chosen card, the total being asked, the teacher's switches) and `session.card_whys(viewer)`
(why each card of the viewer's own hand is refused, as data). Never from the raw game state.
The words come from widgets/words/; widgets/flapjack/render.py turns a view into HTML.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.errors import Reason, Why
from engine.flapjack import Play
from widgets import words
from widgets.flapjack.session import MINUS
from widgets.table.deal_codes import format_code
from widgets.words import _, ngettext

if TYPE_CHECKING:
    from widgets.flapjack.session import FlapjackSession


def current_announcements(events: Sequence[dict[str, Any]]) -> tuple[dict[str, Any], ...]:
    """The events a banner may still announce: every pass, and a Flapjack only until the next
    card is played (a Flapjack follows its own play): a later card moved the total, so an
    older "Flapjack! ... exactly -10" would no longer be true (the move log keeps it)."""
    last_play = max((i for i, e in enumerate(events) if e.get("kind") == "play"), default=-1)
    return tuple(e for i, e in enumerate(events) if e.get("kind") != "flapjack" or i > last_play)


@dataclass(frozen=True)
class CardChoice:
    """One card of the viewer's hand as its button shows it."""

    key: str
    card: dict[str, Any]  # the observation's card view
    reason: str | None  # why it cannot be played now (None: playable)
    short: str = ""  # the reason, short enough for the button ("": not on the label)
    chosen: bool = False


@dataclass(frozen=True)
class SignChoice:
    """Add or subtract: one button of the chosen card's choice."""

    sign: int
    description: str
    tooltip: str
    disabled: bool


@dataclass(frozen=True)
class SignPrompt:
    card: dict[str, Any]
    counts: int
    buttons: tuple[SignChoice, ...]


@dataclass(frozen=True)
class Header:
    title: str
    add_or_subtract: bool  # the player chooses to add or subtract each card
    colors: str
    targets: tuple[int, ...]
    low: int
    high: int
    code: str | None  # the deal code, when it may show
    # every card counts positive, totals written without a sign (None: when adding or
    # subtracting)
    plain: bool | None = None


@dataclass(frozen=True)
class TableView:
    """Everything the table shows `viewer`."""

    obs: dict[str, Any]  # the viewer's observation (the view's only game data)
    viewer: int
    names: tuple[str, ...]
    header: Header
    banner_events: tuple[dict[str, Any], ...]
    replay_code: str | None  # shown under the banner once the game is over
    status: str
    hand: tuple[CardChoice, ...]
    signs: SignPrompt | None
    walkthrough: bool
    next_enabled: bool
    show_reasons: bool  # the teacher sees the computer players' reasons
    bot_moves: tuple[tuple[str, str, str], ...]  # (name, what it did, its reason)
    # the teacher's bar: the latest computer move (name, what it did, its reason or "" while
    # the hands are hidden: a reason can name a card in a hand); None: no move yet
    last_move: tuple[str, str, str] | None
    asking_total: bool  # say-total: the new total is being asked
    # the hint button: on the viewer's own turn only (off while the computers play), and not
    # while the new total is being asked
    hint_enabled: bool
    is_over: bool
    settings_label: str


def _short_reason(found: tuple[Why | None, ...], reason: str, obs: dict[str, Any]) -> str:
    """The reason a card is disabled, short enough for its button ('would make -15, less
    than -13'; add or subtract: 'would make 23 or -3, outside 0 to 13')."""
    if not all(w is not None and w.reason is Reason.LIMIT_EXCEEDED for w in found):
        return reason
    plain = words.plain_totals(obs["config"])
    if len(found) == 1:
        return words.limit_short(found[0], plain)
    return words.limit_short_both([w["total"] for w in found if w is not None],
                                  int(obs["low"]), int(obs["high"]), plain)


def _reason_words(found: tuple[Why | None, ...], plain: bool, viewer: int) -> str | None:
    """Why a card cannot be played at all, in words (None: some way is legal)."""
    texts = [None if w is None else words.reason_text(w, plain, viewer=viewer) for w in found]
    if any(t is None for t in texts):
        return None
    if len(texts) == 1 or texts[0] == texts[1]:
        return texts[0]
    return words.both_ways_refused(texts[0], texts[1])


def _hand(session: FlapjackSession, obs: dict[str, Any], viewer: int,
          whys: dict[str, tuple[Why | None, ...]]) -> tuple[CardChoice, ...]:
    plain = words.plain_totals(obs["config"])
    pending = session.pending[0] if session.pending else None
    out = []
    for card in obs["seats"][viewer]["hand"] or []:
        found = whys.get(card["key"], (Why(Reason.NOT_IN_HAND),))
        reason = _reason_words(found, plain, viewer)
        # a reason of the moment (another player's turn, the game over) stays off the card's
        # label: the status says it once, and the row keeps its length
        waiting = all(w is not None and w.reason in (Reason.NOT_YOUR_TURN, Reason.GAME_OVER)
                      for w in found)
        out.append(CardChoice(card["key"], card, reason,
                              _short_reason(found, reason, obs) if reason and not waiting
                              else "", card["key"] in (session.selected, pending)))
    return tuple(out)


def _signs(session: FlapjackSession, obs: dict[str, Any], viewer: int,
           hand: tuple[CardChoice, ...], whys: dict[str, tuple[Why | None, ...]],
           my_turn: bool) -> SignPrompt | None:
    aos = bool(obs["config"].get("add_or_subtract"))
    chosen = next((c for c in hand if c.key == session.selected), None)
    if chosen is None or not my_turn or not aos:
        return None
    plain = words.plain_totals(obs["config"])
    n = int(chosen.card["value"])
    shown = words.total_text(n, plain)  # '7', or with signed cards '-7' / '+7'
    buttons = []
    for i, sign in enumerate((1, -1)):
        w = whys[chosen.key][i]
        why = None if w is None else words.reason_text(w, plain, viewer=viewer)
        mark = "+" if sign > 0 else MINUS
        label = (_("Add {n}") if sign > 0 else _("Subtract {n}")).format(n=shown)
        tip = (_("add {n}") if sign > 0 else _("subtract {n}")).format(n=shown)
        buttons.append(SignChoice(
            sign, f"{mark} {label}" + (f" ({why})" if why else ""),
            _("{action}: not allowed, {why}").format(action=tip, why=why) if why else tip,
            why is not None))
    return SignPrompt(chosen.card, n, tuple(buttons))


def _bot_moves(session: FlapjackSession, aos: bool) -> tuple[tuple[str, str, str], ...]:
    moves = []
    for m in session.controller.bot_moves[-max(1, len(session.names) - 1) * 3:]:
        card = m.action.card if isinstance(m.action, Play) else None
        what = _("played a card")
        if card is not None:
            if aos:
                what = (_("played {card} (subtract)") if m.action.sign < 0 else
                        _("played {card} (add)")).format(card=card.short)
            else:
                what = _("played {card}").format(card=card.short)
        moves.append((session.names[m.seat], what, m.reason))
    return tuple(moves)


def table_view(session: FlapjackSession, viewer: int = 0) -> TableView:
    """The table as `viewer` sees it now (see the module docstring)."""
    from widgets.flapjack.render import status_text

    obs = session.observation(viewer)
    cfg = session.config  # the settings (public): title and colours for the header
    aos = bool(obs["config"].get("add_or_subtract"))
    names = tuple(session.names)
    my_turn = session.my_turn(viewer)
    whys = session.card_whys(viewer)
    hand = _hand(session, obs, viewer, whys)
    signs = _signs(session, obs, viewer, hand, whys, my_turn)
    # (a room deals from a secret nobody sees: it has no code to show, `deal_code` None)
    code = None if session.deal_code is None else format_code(session.deal_code)
    choosing = ""
    chosen = next((c for c in hand if c.key == session.selected), None)
    if chosen is not None:
        choosing = _("You chose {card}: add it or subtract it?").format(
            card=f"{chosen.card['label']}{chosen.card['symbol']}")
    elif session.pending is not None:
        choosing = _("Type the new total, then press Check.")
    walk = session.walkthrough
    last = _bot_moves(session, aos)[-1:] if walk else ()
    last_move = (last[0][0], last[0][1], last[0][2] if obs["reveal"] else "") if last else None
    bot_to_move = (not obs["is_over"] and obs["current_player"] is not None
                   and obs["current_player"] != viewer)
    return TableView(
        obs=obs, viewer=viewer, names=names,
        header=Header(words.variant_title(cfg.variant), aos, cfg.colors.value,
                      tuple(int(t) for t in obs["targets"]),
                      int(obs["low"]), int(obs["high"]),
                      code if session.code_open else None,
                      plain=words.plain_totals(obs["config"])),
        banner_events=current_announcements(obs["events"][session.banner_from:]),
        replay_code=code if obs["is_over"] and not session.code_open else None,
        status=status_text(obs, names, viewer, walkthrough=walk, choosing=choosing),
        hand=hand, signs=signs, walkthrough=walk,
        next_enabled=walk and bot_to_move,
        show_reasons=walk and bool(obs["reveal"]),
        bot_moves=_bot_moves(session, aos) if walk and obs["reveal"] else (),
        last_move=last_move,
        asking_total=session.pending is not None, is_over=bool(obs["is_over"]),
        hint_enabled=my_turn and session.pending is None,
        settings_label=ngettext("Settings ({variant}, {n} player)",
                                "Settings ({variant}, {n} players)", cfg.players).format(
            variant=words.variant_title(cfg.variant), n=cfg.players),
    )
