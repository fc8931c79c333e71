"""What the Hit Me table shows now, as data: `table_view(session)` -> `HitMeView`.

Computed only from the viewer's observation (`session.observation()`) and the session's UI state
(phase, holder, peek, announce queue); no ipywidgets. The widget copies these values to traits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from engine.cards import signed
from engine.hit_me import Hit, Phase
from widgets.hit_me.render import (
    Arrow,
    Point,
    Span,
    announce_prompt_html,
    last_reason_html,
    number_line_parts,
    own_cards_html,
    pass_html,
    reasons_html,
    result_html,
    seats_html,
    status_html,
)
from widgets.table.render import _nice_range
from widgets.table.shell import bot_name, format_code
from widgets.words import _, addressed, card_name, hit_me_story_line


@runtime_checkable
class HitMeLook(Protocol):
    """What `table_view` reads of a session: a `HitMeSession` (one screen) and a room's seat
    (widgets/together/seat.py, `HitMeSeat`) both provide it. `observation()` is the viewer's
    own (its legal actions: the moves this screen may make now); `game` is read only for the
    next dealer once the round is over, `ctl` (the computer players' runner: `bot_to_move()`,
    `bot_moves`) only in walkthrough mode. `room`: a seat at a shared room, where each student
    answers the check on their own page and the cards turn up once everyone has (no "Turn up
    all the cards"); `deal_code` None: no code to show (a room deals from a secret)."""

    room: bool

    config: Any
    game: Any
    ctl: Any
    names: Sequence[str]
    phase: Phase
    mode: str
    students: Sequence[int]
    walkthrough: bool
    teacher_reveal: bool
    round_number: int
    code_open: bool
    deal_code: int | str | None
    peeked: bool
    pass_screen: bool
    announced: dict[int, str]
    announce_queue: Sequence[int]

    def needed(self) -> int | None: ...

    def sums_open(self, seat: int | None) -> bool: ...

    def observation(self) -> dict[str, Any]: ...

    def steady_ends(self, viewer: int | None, ends: tuple[int, int]) -> tuple[int, int]: ...


@dataclass(frozen=True)
class AceChoice:
    card: dict[str, Any]
    description: str
    tooltip: str


@dataclass(frozen=True)
class HitMeView:
    viewer: int | None
    pass_to: str | None  # the name the device goes to, while the pass screen is up
    pass_html: str
    seats_html: str
    points: tuple[Point, ...]
    arrow: Arrow | None
    spans: tuple[Span, ...]
    line_ends: tuple[int, int]  # the number line's ends (steady within a round: steady_ends)
    log_lines: tuple[str, ...]
    can_hit: bool
    can_hold: bool
    can_peek: bool
    peek_label: str
    can_show_sum: bool  # "Show my sum" (while playing, after a peek, not yet shown)
    show_sum_visible: bool
    hint_enabled: bool
    show_hint: bool
    show_actions: bool
    show_hit_hold: bool
    aces: tuple[AceChoice, ...]
    aces_active: bool
    status_html: str
    announcing: bool
    announce_prompt: str  # the check's question, while announcing ("" otherwise)
    can_check: bool
    can_finish: bool
    finish_label: str
    round_over: bool
    result_html: str
    can_next_move: bool
    reasons_html: str
    last_reason_html: str  # the teacher's bar: the latest computer move and its reason


def ace_choices(s: HitMeLook, obs: dict[str, Any]) -> tuple[AceChoice, ...]:
    """The viewer's aces (the face-down one once peeked), each a button to count it 1 or 11."""
    viewer = obs["viewer"]
    if not s.config.ace_eleven or viewer is None:
        return ()
    seat = obs["seats"][viewer]
    cards = list(seat["face_up"])
    if s.peeked and not seat["face_down"].get("hidden"):
        cards.insert(0, seat["face_down"])
    out = []
    for c in cards:
        if c.get("rank") != 1:
            continue
        now, sign = abs(c["value"]), (1 if c["value"] > 0 else -1)
        other = 1 if now == 11 else 11
        out.append(AceChoice(
            c, _("{card} counts {now}: make it {other}").format(
                card=f"{c['label']}{c['symbol']}", now=signed(sign * now),
                other=signed(sign * other)),
            _("{name}: count it as {other} instead").format(name=card_name(c),
                                                           other=signed(sign * other))))
    return tuple(out)


def last_drawn(moves: Sequence[Any], events: Sequence[dict[str, Any]]
               ) -> dict[str, Any] | None:
    """The face-up card the latest computer move drew, if it was a hit: the card of the
    viewer's public "hit" event of that seat (a hit card is dealt face up); None otherwise."""
    if not moves or not isinstance(moves[-1].action, Hit):
        return None
    seat = moves[-1].seat
    for e in reversed(events):
        if e.get("seat") == seat and e.get("kind") in ("hit", "hold"):
            card = e.get("card") if e["kind"] == "hit" else None
            return card if isinstance(card, dict) and not card.get("hidden") else None
    return None


def status_text(s: HitMeLook, obs: dict[str, Any]) -> tuple[str, list[str]]:
    names = s.names
    if s.phase is Phase.REVEALED:
        text = _("The round is over: every card is face up.")
    elif s.phase is Phase.ANNOUNCE:
        text = _("Every player has held or has 7 cards. Before the cards turn up, "
                 "announce your sum.")
    else:
        cur = obs["current_player"]
        if cur is None:
            text = ""
        elif cur == obs["viewer"]:
            text = (_("Your turn, {name}: hit or hold?").format(name=names[cur])
                    if s.mode == "pass-device" else _("Your turn: hit or hold?"))
            if not s.peeked:
                text += " " + _("(Peek at your face-down card first.)")
        elif cur in s.students:
            text = _("{name}'s turn.").format(name=names[cur])
        elif s.walkthrough:
            text = _("{name} is next: press Next move.").format(name=bot_name(names[cur]))
        else:
            text = _("{name} is thinking\u2026").format(name=bot_name(names[cur]))
    info = [_("Round {n}").format(n=s.round_number),
            _("you deal") if addressed(names, obs["viewer"]) == obs["dealer"] else
            _("dealer {name}").format(name=names[obs["dealer"]])]
    if s.phase is Phase.PLAY and obs["current_player"] is not None:
        info.append(_("turn {n} of 5 for each player").format(n=obs["pass_number"]))
    if s.code_open:
        info.append(_("deal code {code}").format(code=format_code(s.deal_code)))
    return text, info


def table_view(s: HitMeLook) -> HitMeView:
    """Everything the screen shows, for the session's current viewer."""
    obs = s.observation()
    viewer = obs["viewer"]
    names = s.names
    pass_up = s.pass_screen
    need = s.needed()
    who = names[need] if pass_up and need is not None else None
    peeked = s.peeked and viewer is not None
    # nothing states the student's sum until they answer the check or ask to see it, while
    # playing ("Show my sum") or at the check ("Show me")
    sum_open = s.sums_open(viewer)
    points, arrow, spans = number_line_parts(obs, names, peeked=peeked and sum_open)
    events = obs["events"]
    if (not peeked or not sum_open) and not obs["reveal"]:
        events = [{k: v for k, v in e.items() if k != "private"} for e in events]
    teacher_reveal = s.walkthrough and s.teacher_reveal
    lines = tuple(hit_me_story_line(e, names, viewer, teacher=teacher_reveal) for e in events)
    legal = {a["kind"] for a in obs["legal_actions"]} if viewer is not None else set()
    playing = s.phase is Phase.PLAY and not pass_up and viewer is not None
    my_turn = playing and obs["current_player"] == viewer
    announcing = s.phase is Phase.ANNOUNCE and not pass_up and viewer is not None
    round_over = s.phase is Phase.REVEALED
    replay = None if s.code_open or s.deal_code is None else format_code(s.deal_code)
    text, info = status_text(s, obs)
    values = [p.value for p in points] + [sp.value for sp in spans]
    if arrow is not None:
        values += [arrow.start, arrow.end]
    return HitMeView(
        viewer=viewer,
        pass_to=who,
        pass_html=pass_html(who, s.phase is Phase.PLAY) if who is not None else "",
        seats_html=seats_html(obs, names, peeked=peeked,
                              hide_sum=None if sum_open else viewer,
                              mark_down=s.walkthrough),
        points=tuple(points), arrow=arrow, spans=tuple(spans),
        line_ends=s.steady_ends(viewer, _nice_range([*values, -10, 10], 10)),
        log_lines=lines,
        can_hit=playing and "hit" in legal,
        can_hold=playing and "hold" in legal,
        can_peek=viewer is not None and not round_over and not obs["reveal"],
        peek_label=_("Hide my face-down card") if s.peeked else _("Peek at my face-down card"),
        can_show_sum=playing and peeked and not sum_open,
        show_sum_visible=s.phase is Phase.PLAY and not pass_up and viewer is not None
        and not sum_open,
        hint_enabled=my_turn,
        show_hint=s.phase is Phase.PLAY and not pass_up,
        show_actions=not round_over and not pass_up,
        show_hit_hold=s.phase is Phase.PLAY,
        aces=ace_choices(s, obs),
        aces_active=s.phase is Phase.PLAY and not pass_up and viewer is not None,
        status_html=status_html(text, info),
        announcing=announcing,
        announce_prompt=(announce_prompt_html(
            names[need] if need is not None else "", s.peeked,
            own_cards_html(obs["seats"][viewer], peeked) if viewer is not None else "")
            if s.phase is Phase.ANNOUNCE else ""),
        can_check=announcing and viewer not in s.announced,
        can_finish=announcing and not s.room and (viewer in s.announced or s.walkthrough),
        finish_label=(_("Done: pass to the next student") if len(s.announce_queue) > 1
                      else _("Turn up all the cards")),
        round_over=round_over,
        result_html=(result_html(obs["result"], names, s.game.next_dealer(), replay,
                                 s.round_number == 1, viewer=viewer) if round_over else ""),
        can_next_move=(s.walkthrough and s.phase is Phase.PLAY
                       and s.ctl.bot_to_move() is not None),
        reasons_html=(reasons_html(names, s.ctl.bot_moves, obs["reveal"])
                      if s.walkthrough else ""),
        last_reason_html=(last_reason_html(names, s.ctl.bot_moves, obs["reveal"],
                                           drawn=last_drawn(s.ctl.bot_moves, obs["events"]))
                          if s.walkthrough else ""),
    )
