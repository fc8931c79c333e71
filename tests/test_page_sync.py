"""widgets/page/late_updates.py: after a page's snapshot of the widgets, what changes is sent again.

The browser test (tests/browser/test_late_update.py) shows the page losing such an update without
it; here, which widgets are sent again, counted by what their comms publish."""

from __future__ import annotations

import comm
import ipywidgets as w
import pytest

from widgets.page import late_updates as page_sync


@pytest.fixture(autouse=True)
def recording_comms(monkeypatch: pytest.MonkeyPatch) -> None:
    """The widgets here get comm's own in-process comm, whatever else was imported before (an
    ipykernel import in the same process makes its kernel-less comms, which publish nothing)."""
    monkeypatch.setattr(comm, "create_comm", lambda *a, **k: comm.DummyComm(*a, **k))


def _published(widget: w.Widget) -> list[dict]:
    out: list[dict] = []
    publish = widget.comm.publish_msg

    def record(msg_type: str, data: dict | None = None, *args, **kwargs) -> None:
        if msg_type == "comm_msg":
            out.append(data or {})
        publish(msg_type, data, *args, **kwargs)

    widget.comm.publish_msg = record
    return out


def test_only_the_widgets_changed_after_the_snapshot_are_sent_again() -> None:
    page_sync.install()
    assert page_sync.install() is False  # once
    before, changed, still = (w.Button(description=d) for d in ("before", "changed", "still"))
    before.disabled = True  # a change before the page's snapshot: the snapshot has it
    sent = {b.description: _published(b) for b in (before, changed, still)}
    w.Widget._control_comm = type("Control", (), {"send": lambda *a, **k: None})()
    try:
        w.Widget._handle_control_comm_msg({"content": {"data": {"method": "request_states"}}})
    finally:
        w.Widget._control_comm = None
    changed.disabled = True  # a computer move while the page makes its models
    assert [m["state"] for m in sent["changed"]] == [{"disabled": True}]

    assert page_sync.resend_changed() == 1
    again = sent["changed"][-1]
    assert again["method"] == "update" and again["state"]["disabled"] is True
    assert again["state"]["description"] == "changed"  # the whole state
    assert sent["before"] == [] and sent["still"] == []
    assert page_sync.resend_changed() == 1  # each time, within the window
