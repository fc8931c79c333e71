"""A page that loads while its table changes still shows the table as it is.

ipywidgets 8's page (Voila's widget manager, `_loadFromKernel`) asks the kernel for every
widget's state at once (`request_states` on the `jupyter.widget.control` comm), then creates the
widget models one by one, each awaiting its model class and its comm. An `update` the kernel
sends for a widget after that snapshot and before the page has made that widget's model is
dropped by the page: its model is made from the snapshot and stays stale. A table whose computer
players move on the kernel's timer (`TableController.run_bots`, 0.8 s a move) while a page is
loading (a pooled kernel handed to a page just after its notebook ran, an on-demand page, a
reload) lost exactly those updates: the soak's Hit Me and Flapjack pages showed every widget
with every button disabled, waiting for a computer move the kernel had already made.

`install()` (not yet called by the tables: see docs/measurements.md) wraps the control
comm's handler: after the kernel answers a
`request_states`, every widget whose state is sent during the next `RESEND_AFTER[-1]` seconds
sends its whole state again at each of the `RESEND_AFTER` times. A page whose models exist by
then applies it (an update it already has changes nothing); updates after that reach its models
as usual.
"""

from __future__ import annotations

import threading
import time
from typing import Any

RESEND_AFTER = (0.5, 1.5, 4.0, 10.0, 25.0)

_lock = threading.Lock()
_installed = False
_window_until = 0.0
_changed: set[str] = set()
_resending = threading.local()


def install() -> bool:
    """Wrap ipywidgets' control comm handler and widget sends once; True if done now."""
    global _installed
    with _lock:
        if _installed:
            return False
        from ipywidgets.widgets.widget import Widget

        answer = Widget._handle_control_comm_msg.__func__
        send = Widget._send

        def _handle_control_comm_msg(cls: Any, msg: dict) -> None:
            answer(cls, msg)
            if (msg.get("content") or {}).get("data", {}).get("method") == "request_states":
                _page_loading()

        def _send(self: Any, msg: dict, buffers: Any = None) -> None:
            send(self, msg, buffers=buffers)
            if (msg.get("method") == "update" and time.monotonic() < _window_until
                    and not getattr(_resending, "on", False)):
                with _lock:
                    _changed.add(self.model_id)

        Widget._handle_control_comm_msg = classmethod(_handle_control_comm_msg)
        Widget._send = _send
        _installed = True
        return True


def _page_loading() -> None:
    """A page took a snapshot of every widget: re-send what changes after it, for a while."""
    global _window_until
    from widgets.table.controller import call_later

    with _lock:
        _window_until = time.monotonic() + RESEND_AFTER[-1]
    for delay in RESEND_AFTER:
        call_later(delay, resend_changed)


def resend_changed() -> int:
    """Send again the whole state of every widget that changed since a page's snapshot; the
    number sent."""
    from ipywidgets.widgets.widget import _instances

    with _lock:
        ids = sorted(_changed)
        if time.monotonic() >= _window_until:
            _changed.clear()
    sent = 0
    _resending.on = True
    try:
        for model_id in ids:
            widget = _instances.get(model_id)
            if widget is not None and widget.comm is not None:
                widget.send_state()
                sent += 1
    finally:
        _resending.on = False
    return sent
