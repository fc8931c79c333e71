"""What the Flapjack table reads and the clicks it sends: `FlapjackTableSession`, met by the
one-screen `FlapjackSession` (widgets/flapjack/session.py) and a room's `FlapjackSeat`
(widgets/together/seat.py), so `FlapjackTable.for_session` draws either
(tests/test_table_contract.py checks both, and plays the same clicks on both)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class FlapjackTableSession(Protocol):
    # read by the view and the table
    config: Any
    names: Any
    room: bool
    teacher_controls: bool
    show_hands: bool
    say_total: bool
    selected: str | None
    pending: tuple[str, int] | None
    practice_serial: int
    banner_from: int
    note: Any
    on_change: Callable[[], None]  # the one hook: the session changed, redraw

    @property
    def viewer(self) -> int: ...
    @property
    def walkthrough(self) -> bool: ...
    @property
    def code_open(self) -> bool: ...
    def observation(self, viewer: int | None = None) -> Any: ...
    def card_whys(self, viewer: int) -> Any: ...
    def my_turn(self, viewer: int | None = None) -> bool: ...
    def hint_lines(self) -> list[Any]: ...
    def hint_text(self) -> str: ...
    def refused_card(self, key: str) -> Any: ...

    # the clicks
    def click_card(self, key: str) -> Any: ...
    def choose_sign(self, sign: int) -> Any: ...
    def cancel(self) -> Any: ...
