// The on-screen keypad types into the box the student last tapped.
// An ipywidgets Text box tells the kernel nothing when it gets the focus, only its value when
// it loses it, so an empty box tapped before a key press was not known to the kernel. When a
// box of an answer entry (.icg-answer, widgets/table/components.py AnswerEntry) gets the focus, this
// presses the matching "Keypad types into" toggle (a real widget: the kernel receives its new
// value before the key's click, in order, on the same websocket). Nothing else is sent, and
// the kernel still checks the toggle's value like any other.
(function () {
  document.addEventListener('focusin', function (e) {
    var box = e.target && e.target.closest ? e.target.closest('.icg-answer .widget-text input')
      : null;
    if (!box) return;
    var entry = box.closest('.icg-answer');
    var boxes = Array.prototype.slice.call(entry.querySelectorAll('.widget-text input'));
    var toggles = entry.querySelectorAll('.widget-toggle-buttons button');
    var i = boxes.indexOf(box);
    if (i < 0 || i >= toggles.length || toggles.length !== boxes.length) return;
    if (!toggles[i].classList.contains('mod-active')) toggles[i].click();
  }, true);
})();
