"""Seat PINs: a student writes down a 6-digit PIN and takes their seat back on another page
with the room code, their name and the PIN; wrong PINs are counted for every kernel."""

from __future__ import annotations

import secrets
import time

from rooms.codes import MAX_NAME, CodeError, clean_name, hash_secret, new_secret, secret_matches
from rooms.errors import NotAllowed
from rooms.records import SeatTicket
from rooms.transactions import StoreBase


class SeatPins(StoreBase):
    """A seat's PIN: made once, new on request, and the rejoin it allows."""

    PIN_DIGITS = 6
    PIN_FREE_FAILS = 3  # wrong PINs before the seat's PIN waits (then 2, 4, 8 ... 600 s)

    def new_pin(self, code: object, seat: object, secret: object) -> str:
        """A fresh 6-digit PIN for the seat (the old one stops working), for the student to
        write down: `rejoin_pin(code, name, pin)` gives the seat back on another page. Only
        the seat's own secret may ask. The store keeps a hash of it."""
        code = self._code(code)
        self._extra_tables()
        pin = "".join(secrets.choice("0123456789") for _ in range(self.PIN_DIGITS))
        with self._write() as c:
            room = self._room_row(c, code)
            self._check_seat(c, room, seat, secret)
            c.run("DELETE FROM icg_seat_pins WHERE code = ? AND seat = ?", (code, seat))
            c.run("INSERT INTO icg_seat_pins (code, seat, pin_hash) VALUES (?, ?, ?)",
                  (code, seat, hash_secret(code, f"pin{seat}", pin)))
        return pin

    def first_pin(self, code: object, seat: object, secret: object) -> str | None:
        """The seat's PIN if it has none yet, made now for the student to write down; None
        when it has one: a seat's PIN stays the same (a page reopened, a seat link, a PIN
        rejoin on another device) until the student asks for a new one (`new_pin`). Only the
        seat's own secret may ask."""
        code = self._code(code)
        self._extra_tables()
        pin = "".join(secrets.choice("0123456789") for _ in range(self.PIN_DIGITS))
        with self._write() as c:
            room = self._room_row(c, code, lock=True)  # (two pages of a seat: one PIN)
            self._check_seat(c, room, seat, secret)
            if c.one("SELECT 1 FROM icg_seat_pins WHERE code = ? AND seat = ?",
                     (code, seat)) is not None:
                return None
            c.run("INSERT INTO icg_seat_pins (code, seat, pin_hash) VALUES (?, ?, ?)",
                  (code, seat, hash_secret(code, f"pin{seat}", pin)))
        return pin

    def rejoin_pin(self, code: object, name: object, pin: object,
                   now: float | None = None) -> SeatTicket:
        """Back to one's seat from another page with the room code, one's name and the seat
        PIN. The seat gets a new secret (the old link stops working) and comes back from the
        computer player if it had it. Wrong PINs for a seat are counted in the store (for
        every kernel): after 3, each try waits 2, 4, 8 ... up to 600 seconds."""
        code = self._code(code)
        self._extra_tables()
        now = time.time() if now is None else now
        try:
            _, key = clean_name(name)
        except CodeError as e:
            raise NotAllowed(e.code, most=MAX_NAME, name=e.name) from e
        wrong = NotAllowed("wrong-pin")
        secret = new_secret()
        with self._write() as c:
            room = self._room_row(c, code, lock=True)
            rows = [s for s in self._seat_rows(c, code) if s["name_key"] == key]
            if not rows:
                raise wrong
            seat = rows[0]
            pin_row = c.one("SELECT pin_hash, fails, locked_until FROM icg_seat_pins "
                            "WHERE code = ? AND seat = ?", (code, seat["seat"]))
            if pin_row is None:
                raise wrong
            pin_hash, fails, locked_until = pin_row
            if locked_until > now:
                raise NotAllowed("pin-wait", seconds=int(locked_until - now) + 1)
            if not (isinstance(pin, str) and pin.strip().isdigit() and secret_matches(
                    pin_hash, code, f"pin{seat['seat']}", pin.strip())):
                fails += 1
                wait = 0.0 if fails < self.PIN_FREE_FAILS else min(
                    600.0, 2.0 ** (fails - self.PIN_FREE_FAILS + 1))
                # kept even though the transaction is refused below: commit it first
                c.run("UPDATE icg_seat_pins SET fails = ?, locked_until = ? "
                      "WHERE code = ? AND seat = ?", (fails, now + wait, code, seat["seat"]))
                failed = True
            else:
                failed = False
                c.run("UPDATE icg_seat_pins SET fails = 0, locked_until = 0 "
                      "WHERE code = ? AND seat = ?", (code, seat["seat"]))
                c.run("UPDATE icg_seats SET secret_hash = ?, away = 0, last_seen = ? "
                      "WHERE code = ? AND seat = ?",
                      (hash_secret(code, seat["seat"], secret), now, code, seat["seat"]))
                self._bump(c, code, room["version"], time.time())
        if failed:
            raise wrong
        return SeatTicket(code, seat["seat"], seat["name"], secret)

