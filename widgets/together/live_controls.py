"""The teacher's controls of the live class, on the class view (behind the teacher's key):
today's lesson and the class size, Pause / Resume, Open the exit ticket, lock and late
joiners, approval of typed names, confirmation codes, the class list (pasted, or a CSV file
from Google Classroom or a spreadsheet), and each student page: let in, refuse, free the name,
remove, let back. A page that has not named itself is in the list too ("page without a name,
lesson 2, opened 10:41"), and can be removed and let back (by its id, never shown).

Every action is one change of the live class's store (rooms/live_class.py); the students'
pages see it at their next poll (widgets/together/live.py: half a second). In projector mode
(`hide_names`) no name and no confirmation code is drawn: a student is "student 3" in every
table and in the student chooser alike.
"""

from __future__ import annotations

import html
import time
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from rooms.errors import RoomError, StoreUnavailable
from rooms.live_class import (
    DEFAULT_CLASS_SIZE,
    MAX_CLASS_SIZE,
    LiveClass,
    LiveRefused,
    LiveState,
    open_live_class,
    read_class_list,
)
from widgets.table.components import MessageArea, html_widget, make_button, shared_layout
from widgets.words import _, language, live_error_text, ngettext, time_ago

MAX_UPLOAD = 200_000  # bytes of a class list file
# The student chooser's value for a page without a name: this prefix and the page's id (a name
# has no ':').
PAGE_CHOICE = "page:"


def _page_state_words(state: str, moving: bool) -> str:
    if state == "waiting" and moving:
        return _("wants to move to another device")
    return {"in": _("in the class"), "waiting": _("waiting for you"),
            "removed": _("removed"), "open": _("no name yet")}.get(state, state)


def _unnamed_labels(pages: list[Any]) -> dict[str, str]:
    """Each page without a name, in words (its lesson, when it opened; no name to hide), by
    its id; two alike get (2), (3)."""
    labels: dict[str, str] = {}
    seen: dict[str, int] = {}
    for p in pages:
        if p.name:
            continue
        opened = time.strftime("%H:%M", time.localtime(p.opened))
        label = (_("page without a name, opened {time}").format(time=opened)
                 if p.lesson is None else
                 _("page without a name, lesson {lesson}, opened {time}").format(
                     lesson=p.lesson, time=opened))
        seen[label] = seen.get(label, 0) + 1
        labels[p.page] = label if seen[label] == 1 else f"{label} ({seen[label]})"
    return labels


class LiveControls(widgets.VBox):
    """The live class's controls for the teacher (see the module's text)."""

    def __init__(self, store: LiveClass | None = None, *, url: str | None = None,
                 lessons: list[tuple[str, int]] | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store if store is not None else open_live_class(url)
        self.clock = clock
        self.hide_names = False
        self.version: int | None = None
        self.state: LiveState | None = None
        self._numbers: dict[str, int] = {}  # projector mode's "student 3", by name
        if lessons is None:
            from widgets.lessons.course import student_lessons

            lessons = [(f"{lesson.number}. {lesson.title}", lesson.number)
                       for lesson in student_lessons()]
        self.lesson_choice = widgets.Dropdown(
            description=_("Today's lesson"), options=[(_("none chosen"), 0), *lessons],
            style={"description_width": "initial"})
        self.class_size = widgets.BoundedIntText(
            value=DEFAULT_CLASS_SIZE, min=1, max=MAX_CLASS_SIZE, description=_("Students:"),
            style={"description_width": "initial"}, layout=shared_layout(width="12em"))
        self.lesson_button = make_button(
            _("Get today's lesson ready"), self.set_lesson, own_layout=True,
            tooltip=_("the server keeps a page of this lesson ready for every student"))
        self.status = html_widget(classes=("icg-live-status",))
        self.pause_button = make_button(_("Pause"), self.pause, own_layout=True,
                                        button_style="warning",
                                        tooltip=_("every student page shows Eyes on the "
                                                  "teacher and takes no click"))
        self.resume_button = make_button(_("Resume"), self.resume, own_layout=True,
                                         button_style="success",
                                         tooltip=_("the students' pages work again"))
        self.exit_button = make_button(_("Open the exit ticket"), self.open_exit_ticket,
                                       own_layout=True,
                                       tooltip=_("the exit ticket on every page of today's "
                                                 "lesson"))
        self.exit_close_button = make_button(_("Close the exit ticket"),
                                             self.close_exit_ticket, own_layout=True)
        self.toggles = {
            "locked": widgets.Checkbox(description=_("Lock the class (no new names)"),
                                       indent=False),
            "late_join": widgets.Checkbox(description=_("Late joiners wait for me (else "
                                                        "refused)"), indent=False),
            "approve": widgets.Checkbox(description=_("Typed names wait for my approval"),
                                        indent=False),
            "confirm": widgets.Checkbox(description=_("Students confirm their name with a "
                                                      "code"), indent=False),
        }
        for name, box in self.toggles.items():
            box.observe(lambda ch, n=name: self._toggled(n, ch), names="value")
        self._drawing = False
        self.roster_text = widgets.Textarea(
            placeholder=_("First names, one a line, or a CSV exported from Google Classroom "
                          "or a spreadsheet"),
            description=_("Class list"), style={"description_width": "initial"},
            layout=shared_layout(width="30em", height="8em"))
        self.upload = widgets.FileUpload(accept=".csv,.txt", multiple=False,
                                         description=_("Upload a class list"))
        self.upload.observe(lambda _c: self.use_upload(), names="value")
        self.roster_button = make_button(_("Use this class list"), self.use_roster,
                                         own_layout=True)
        self.roster_table = html_widget(classes=("icg-live-roster",))
        self.pages_table = html_widget(classes=("icg-live-pages",))
        self.name_choice = widgets.Dropdown(description=_("Student"), options=[],
                                            style={"description_width": "initial"})
        self.page_buttons = {
            "approve": make_button(_("Let in"), self.approve, own_layout=True),
            "refuse": make_button(_("Refuse"), self.refuse, own_layout=True),
            "free": make_button(_("Free the name"), self.free, own_layout=True,
                                tooltip=_("the name's page lets it go: it can be picked "
                                          "again, on another device")),
            "remove": make_button(_("Remove from the class"), self.remove, own_layout=True,
                                  button_style="danger",
                                  tooltip=_("the page is told and stays out, after a reload "
                                            "too, until you let it back")),
            "let_back": make_button(_("Let back"), self.let_back, own_layout=True),
        }
        self.name_choice.observe(lambda _c: self._update_buttons(), names="value")
        self.message = MessageArea()
        row = lambda *ws: widgets.HBox(list(ws), layout=shared_layout(  # noqa: E731
            flex_flow="row wrap", align_items="center"))
        heading = "<h4>{}</h4>".format
        super().__init__([
            html_widget(heading(html.escape(_("Live class")))),
            row(self.lesson_choice, self.class_size, self.lesson_button), self.status,
            row(self.pause_button, self.resume_button, self.exit_button,
                self.exit_close_button),
            row(*self.toggles.values()),
            html_widget(heading(html.escape(_("Class list")))),
            row(self.roster_text, widgets.VBox([self.upload, self.roster_button])),
            self.roster_table,
            html_widget(heading(html.escape(_("Students' pages")))), self.pages_table,
            row(self.name_choice, *self.page_buttons.values()), self.message,
        ], _dom_classes=("icg-live-controls",))
        self.refresh()

    # ----- drawing ------------------------------------------------------------------------
    def poll(self) -> bool:
        """Redraw when the live class changed (one small read). True if redrawn."""
        try:
            version = self.store.version()
        except StoreUnavailable as e:
            self.message.show(live_error_text(e), "error")
            return False
        if version != self.version:
            self.refresh()
            return True
        return False

    def set_hide_names(self, hide: bool) -> None:
        if hide != self.hide_names:
            self.hide_names = hide
            if hide:  # the last message may name a student
                self.message.clear()
            self.refresh()

    def refresh(self) -> None:
        try:
            state = self.store.state()
            roster = self.store.roster()
            pages = self.store.pages()
        except StoreUnavailable as e:
            self.message.show(live_error_text(e), "error")
            return
        drawn, self.state, self.version = self.state, state, state.version
        # projector mode's numbers: the class list's order, then the typed names A to Z; one
        # number a student in every table and in the chooser
        listed = [r.name for r in roster]
        typed = sorted({p.name for p in pages if p.name} - set(listed), key=str.casefold)
        self._numbers = {name: i + 1 for i, name in enumerate([*listed, *typed])}
        self._drawing = True
        try:
            for name, box in self.toggles.items():
                box.value = bool(getattr(state, name))
            # the lesson and size the teacher may be choosing stay until the class's own
            # change (the button here, or another teacher's page): not at every page opened
            if drawn is None or (drawn.lesson, drawn.class_size) != (state.lesson,
                                                                     state.class_size):
                if state.lesson is not None and state.lesson in [
                        v for _l, v in self.lesson_choice.options]:
                    self.lesson_choice.value = state.lesson
                self.class_size.value = state.class_size
        finally:
            self._drawing = False
        self.status.value = "<p role='status'>" + html.escape(self._status_words(state, pages)) \
            + "</p>"
        self.roster_table.value = self._roster_html(roster)
        unnamed = _unnamed_labels(pages)
        self.pages_table.value = self._pages_html(pages, unnamed)
        options = ([(self._hidden(n), n) for n in self._numbers] if self.hide_names else
                   [(n, n) for n in sorted(self._numbers, key=str.casefold)])
        options += [(label, PAGE_CHOICE + page) for page, label in unnamed.items()]
        if list(self.name_choice.options) != options:
            chosen = self.name_choice.value
            self.name_choice.options = options
            if chosen in [v for _label, v in options]:
                self.name_choice.value = chosen
        self._pages = pages
        self._update_buttons()

    def _hidden(self, name: str) -> str:
        """A student as projector mode shows them: "student 3", the same number everywhere."""
        return _("student {n}").format(n=self._numbers[name])

    def _status_words(self, state: LiveState, pages: list[Any]) -> str:
        inside = sum(p.state == "in" for p in pages)
        waiting = sum(p.state == "waiting" for p in pages)
        unnamed = sum(p.state == "open" for p in pages)
        parts = [ngettext("{n} student in the class", "{n} students in the class",
                          inside).format(n=inside)]
        if waiting:
            parts.append(ngettext("{n} waiting for you", "{n} waiting for you",
                                  waiting).format(n=waiting))
        if unnamed:
            parts.append(ngettext("{n} page without a name", "{n} pages without a name",
                                  unnamed).format(n=unnamed))
        if state.lesson is not None:
            if state.pool_ready is not None and state.pool_ready < state.class_size:
                parts.append(_("today's lesson: {lesson}, ready for {ready} of {n} students "
                               "(the server's memory; the others start when opened)").format(
                    lesson=state.lesson, ready=state.pool_ready, n=state.class_size))
            else:
                parts.append(_("today's lesson: {lesson}, ready for {n} students").format(
                    lesson=state.lesson, n=state.class_size))
        if state.paused:
            parts.append(_("PAUSED: every page shows Eyes on the teacher"))
        if state.exit_ticket is not None:
            parts.append(_("the exit ticket of lesson {lesson} is open").format(
                lesson=state.exit_ticket))
        return "; ".join(parts) + "."

    def _roster_html(self, roster: list[Any]) -> str:
        if not roster:
            return "<p>" + html.escape(_("No class list: students type their first name.")) \
                + "</p>"
        confirm = bool(self.state and self.state.confirm)
        head = [_("Student"), _("Code"), _("Page")] if confirm else [_("Student"), _("Page")]
        out = ["<table class='icg-live-roster-table'><thead><tr>",
               *(f"<th scope='col'>{html.escape(h)}</th>" for h in head), "</tr></thead><tbody>"]
        for r in roster:
            name = self._hidden(r.name) if self.hide_names else r.name
            cells = [name]
            if confirm:
                cells.append("\u2014" if self.hide_names else r.code)
            cells.append(_page_state_words(r.state, False) if r.state else _("not yet"))
            out.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>")
        out.append("</tbody></table>")
        return "".join(out)

    def _pages_html(self, pages: list[Any], unnamed: dict[str, str]) -> str:
        if not pages:
            return "<p>" + html.escape(_("No student page is open yet.")) + "</p>"
        now = self.clock()
        head = [_("Student"), _("Page"), _("Since")]
        out = ["<table class='icg-live-pages-table'><thead><tr>",
               *(f"<th scope='col'>{html.escape(h)}</th>" for h in head), "</tr></thead><tbody>"]
        for p in pages:
            if not p.name:
                name = unnamed[p.page]
            else:
                name = self._hidden(p.name) if self.hide_names else p.name
            cells = [name, _page_state_words(p.state, p.moving), time_ago(now - p.at)]
            out.append(f"<tr data-state='{p.state}'>" + "".join(
                f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>")
        out.append("</tbody></table>")
        return "".join(out)

    def _update_buttons(self) -> None:
        state = self.state
        self.pause_button.disabled = bool(state and state.paused)
        self.resume_button.disabled = not (state and state.paused)
        self.exit_button.disabled = not (state and state.lesson is not None)
        self.exit_close_button.disabled = not (state and state.exit_ticket is not None)
        name = self.name_choice.value
        pages = getattr(self, "_pages", [])
        if isinstance(name, str) and name.startswith(PAGE_CHOICE):
            page = name[len(PAGE_CHOICE):]
            has = {p.state for p in pages if p.page == page and not p.name}
            allowed = {"remove": "open" in has, "let_back": "removed" in has}
            for key, button in self.page_buttons.items():
                button.disabled = not allowed.get(key, False)
            return
        mine = [p for p in pages if p.name == name]
        has = {p.state for p in mine}
        allowed = {"approve": "waiting" in has, "refuse": "waiting" in has,
                   "free": "in" in has, "remove": bool(name) and "removed" not in has,
                   "let_back": "removed" in has}
        for key, button in self.page_buttons.items():
            button.disabled = not allowed[key]

    # ----- the teacher's actions ----------------------------------------------------------
    def _act(self, what: Callable[[], Any], done: str) -> bool:
        try:
            what()
        except RoomError as e:
            self.message.show(live_error_text(e), "error")
            self.refresh()
            return False
        self.message.show(done, "ok")
        self.refresh()
        return True

    def set_lesson(self) -> bool:
        lesson = self.lesson_choice.value or None
        size = int(self.class_size.value)
        done = (_("Today's lesson is lesson {lesson}: a page of it is kept ready for {n} "
                  "students.").format(lesson=lesson, n=size) if lesson else
                _("No lesson is chosen for today."))
        lang = language()  # the class's language: its lessons' pages are kept ready
        return self._act(lambda: self.store.set_lesson(lesson, size, lang=lang), done)

    def pause(self) -> bool:
        return self._act(self.store.pause, _("The class is paused: every page shows Eyes on "
                                             "the teacher."))

    def resume(self) -> bool:
        return self._act(self.store.resume, _("The class goes on."))

    def open_exit_ticket(self) -> bool:
        lesson = self.state.lesson if self.state else None
        if lesson is None:
            self.message.show(_("Choose today's lesson first. Nothing was changed."), "error")
            return False
        return self._act(lambda: self.store.open_exit_ticket(lesson),
                         _("The exit ticket is open on every page of lesson {lesson}.").format(
                             lesson=lesson))

    def close_exit_ticket(self) -> bool:
        return self._act(lambda: self.store.open_exit_ticket(None),
                         _("The exit ticket is closed."))

    def _toggled(self, name: str, change: dict[str, Any]) -> None:
        if self._drawing:
            return
        self._act(lambda: self.store.set_options(**{name: bool(change["new"])}),
                  _("Saved."))

    def use_roster(self, text: str | None = None) -> bool:
        names, left = read_class_list(self.roster_text.value if text is None else text)
        if not names:
            self.message.show(_("No first name found in the class list. Nothing was "
                                "changed."), "error")
            return False
        done = ngettext("The class list has {n} name.", "The class list has {n} names.",
                        len(names)).format(n=len(names))
        if left and self.hide_names:  # the projector shows how many, not whose
            done += " " + ngettext(
                "{n} line was not taken (repeated or not a first name).",
                "{n} lines were not taken (repeated or not a first name).",
                len(left)).format(n=len(left))
        elif left:
            done += " " + _("Not taken (repeated or not a first name): {lines}.").format(
                lines=", ".join(left[:10]))
        ok = self._act(lambda: self.store.set_roster(names), done)
        if ok:
            self.roster_text.value = ""
        return ok

    def use_upload(self) -> bool:
        files = self.upload.value
        if not files:
            return False
        item = files[0] if isinstance(files, (list, tuple)) else next(iter(files.values()))
        content = bytes(item["content"] if isinstance(item, dict) else item.content)
        self.upload.value = ()
        if len(content) > MAX_UPLOAD:
            self.message.show(_("That file is too large for a class list. Nothing was "
                                "changed."), "error")
            return False
        try:
            text = content.decode("utf-8-sig")
        except UnicodeDecodeError:  # a spreadsheet's older export
            text = content.decode("latin-1")
        return self.use_roster(text)

    def _on_name(self, what: Callable[[str], Any], done: str) -> bool:
        name = self.name_choice.value
        if not name:
            self.message.show(_("Choose a student first. Nothing was changed."), "error")
            return False
        shown = _("that student") if self.hide_names else name
        return self._act(lambda: what(name), done.format(name=shown))

    def approve(self) -> bool:
        return self._on_name(self.store.approve, _("{name} is in the class."))

    def refuse(self) -> bool:
        return self._on_name(self.store.refuse, _("{name}'s page was refused."))

    def free(self) -> bool:
        return self._on_name(self.store.free, _("The name {name} is free: it can be picked "
                                                "again."))

    def _on_page(self, what: Callable[[str], bool], done: str) -> bool:
        """A change of the chosen page without a name (by its id)."""
        page = self.name_choice.value[len(PAGE_CHOICE):]

        def change() -> None:
            if not what(page):
                raise LiveRefused("no-page")

        return self._act(change, done)

    def _page_chosen(self) -> bool:
        value = self.name_choice.value
        return isinstance(value, str) and value.startswith(PAGE_CHOICE)

    def remove(self) -> bool:
        if self._page_chosen():
            return self._on_page(self.store.remove_page,
                                 _("That page is out of the class until you let it back."))
        return self._on_name(self.store.remove, _("{name} is out of the class until you let "
                                                  "them back."))

    def let_back(self) -> bool:
        if self._page_chosen():
            return self._on_page(self.store.let_back_page, _("That page is back in the class."))
        return self._on_name(self.store.let_back, _("{name} is back in the class."))
