"""The student's hand as a row of card buttons: `widgets.shell.CardRow`, shared by the tables
(this module keeps the old import path)."""

from __future__ import annotations

from widgets.shell import CardRow

__all__ = ["CardRow"]
