// Playing a card table by keyboard and by touch (the Hit Me and Flapjack tables: .icg-game,
// widgets/hit_me/table.py and widgets/flapjack/table.py). ipywidgets cannot move the focus to
// a button from the kernel, so the page does it here. Nothing here is sent to the kernel
// except what a student's own key press would send.
//
// 1. Focus follows play. A move disables or hides the button just pressed ("Hit me!" while the
//    computer players move, a card played), and the browser drops the focus to the page body.
//    Then the focus goes to the next enabled control of the same table (after the pressed
//    one, else the first), and back to the pressed control once it is enabled again, as long
//    as the student has not moved the focus since; a new question to answer (the answer
//    entry's Check enabled again) takes it to the question's first box, and a next step shown
//    (.icg-next-step: Flapjack's Add / Subtract after a card is chosen) to its first enabled
//    button, from where the focus goes back to the chosen card's place once the step is
//    done. Each change of the status line of the table being played, and each next step's
//    prompt, is announced in a live region (#icg-live).
// 2. A link to an anchor in the page ("Play", href="#play" at the top of a lesson) scrolls to
//    it in this tab (the lesson's renderer opens every link in a new tab: here a second page
//    with its own kernel) and puts the focus on the table's first enabled control, scrolled
//    into view too when the window is short, as long as the status line stays on screen.
// 3. Enter in a box of a table sends the box's value first, then ipywidgets' "submit" event:
//    ipywidgets sends the value on the change event that follows the key press, after its
//    submit message, so the kernel would check the value from before. The kernel handles the
//    submit (widgets/table/components.py AnswerEntry, widgets/page/teacher_key.py).
// 4. The answer boxes of a table (.icg-answer) ask a tablet for its number keyboard
//    (inputmode="numeric"). An iPhone's number pad has no minus key: a box for a number that
//    may be negative has a "± Sign" button right after it (widgets/table/components.py AnswerEntry),
//    and the table's keypad has its own minus key.
(function () {
  var GAME = '.icg-game';
  // what is not a move of the game: the teacher's and page controls, settings, the keypad
  var NOT_PLAY = '.icg-teacher-row, .icg-walkthrough, .icg-walkthrough-more, .icg-settings, '
    + '.icg-keypad, .widget-toggle-buttons, .widget-toggle-button';
  var last = null; // the game control the student last put the focus on
  var lastIndex = -1; // its place among its table's controls then
  var lastRoot = null;
  var pending = null; // that control, after a move took the focus from it
  var moving = false; // the focus is being moved here (not by the student)
  var live = null;
  var lastSaid = ''; // the status line last announced
  var stepFrom = new WeakMap(); // a next step's button: the control the student was on

  function controls(root) {
    return Array.prototype.filter.call(
      root.querySelectorAll('button, input[type=text], input:not([type])'),
      function (el) { return !el.closest(NOT_PLAY) && el.closest(GAME) === root; });
  }

  function usable(el) {
    if (!el || !el.isConnected || el.disabled) return false;
    if (el.checkVisibility) return el.checkVisibility({checkVisibilityCSS: true});
    return el.offsetParent !== null;
  }

  function lost() {
    var a = document.activeElement;
    return !a || a === document.body || a === document.documentElement
      || (a === last && !usable(a));
  }

  function best(root) {
    if (usable(pending)) return pending;
    var list = controls(root);
    var start = lastIndex;
    if (pending && pending.isConnected) {
      start = 0;
      for (var i = 0; i < list.length; i++) {
        if (pending.compareDocumentPosition(list[i]) & Node.DOCUMENT_POSITION_FOLLOWING) break;
        start = i + 1;
      }
    }
    for (var j = 0; j < list.length; j++) {
      var el = list[(Math.max(start, 0) + j) % list.length];
      if (usable(el)) return el;
    }
    return null;
  }

  function speak(text) {
    if (!live) {
      live = document.createElement('div');
      live.id = 'icg-live';
      live.setAttribute('role', 'status');
      live.setAttribute('aria-live', 'polite');
      var s = live.style;  // read by a screen reader, not shown
      s.position = 'absolute'; s.width = '1px'; s.height = '1px'; s.overflow = 'hidden';
      s.clip = 'rect(0 0 0 0)'; s.clipPath = 'inset(50%)'; s.whiteSpace = 'nowrap';
      document.body.appendChild(live);
    }
    if (text && live.textContent !== text) live.textContent = text;
  }

  function textOf(el) {
    return el ? (el.innerText || el.textContent || '').replace(/\s+/g, ' ').trim() : '';
  }

  function say(root) {
    var text = textOf(root.querySelector('.icg-status-now, .icg-fj-status'));
    if (text && text !== lastSaid) { lastSaid = text; speak(text); }
  }

  function moveTo(el, root, prompt) {
    moving = true;
    try { el.focus({preventScroll: false}); } finally { moving = false; }
    say(root);
    if (prompt) speak(prompt);
  }

  // A next step shown (its buttons usable, or its prompt new: another card chosen) takes the
  // focus from the table to its first enabled button, and its prompt is announced.
  var offered = new WeakMap();
  function nextStep(root) {
    var steps = root.querySelectorAll('.icg-next-step');
    for (var i = 0; i < steps.length; i++) {
      var buttons = Array.prototype.filter.call(steps[i].querySelectorAll('button'), usable);
      if (!buttons.length) { offered.delete(steps[i]); continue; }
      var prompt = textOf(steps[i].querySelector('.widget-html'));
      if (offered.get(steps[i]) === prompt) continue;
      offered.set(steps[i], prompt);
      var a = document.activeElement;
      var here = a && a !== document.body && root.contains(a) && !steps[i].contains(a);
      if (!here && !lost()) continue;
      var from = steps[i].contains(last) ? stepFrom.get(last) : last;
      moveTo(buttons[0], root, prompt);
      if (from) stepFrom.set(buttons[0], from);
      pending = null; last = buttons[0];
      return true;
    }
    return false;
  }

  // A question to answer (an answer entry's Check enabled again: Hit Me's sum at the end of
  // a round, Flapjack's new total after a card) takes the focus to its first box, when the
  // student is playing that table (the focus in it, or dropped to the page body).
  var asked = new WeakSet();
  function question(root) {
    var entries = root.querySelectorAll('.icg-answer');
    for (var i = 0; i < entries.length; i++) {
      var check = entries[i].querySelector('.jupyter-button.mod-primary');
      if (!usable(check)) { if (check) asked.delete(check); continue; }
      if (asked.has(check)) continue;
      asked.add(check);
      var a = document.activeElement;
      var here = a && a !== document.body && root.contains(a);
      if (a && a.matches && a.matches('.icg-answer input') && root.contains(a)) continue;
      if (!here && !lost()) continue;
      var box = Array.prototype.filter.call(entries[i].querySelectorAll('input'), usable)[0];
      if (box) { moveTo(box, root); pending = null; last = box; return true; }
    }
    return false;
  }

  var scheduled = false;
  function check() {
    scheduled = false;
    mark();
    if (!lastRoot || !lastRoot.isConnected) return;
    say(lastRoot);  // the table being played: what its status line says now
    if (question(lastRoot) || nextStep(lastRoot)) return;
    if (pending === null) {
      if (!last || !lost()) return;
      pending = stepFrom.get(last) || last;
    } else if (document.activeElement !== last && !lost()) {
      return;  // not where it was put here, and not lost: the student's own
    }
    var to = best(lastRoot);
    if (to && to !== document.activeElement) moveTo(to, lastRoot);
  }

  function schedule() {
    if (!scheduled) {
      scheduled = true;
      requestAnimationFrame(check);
    }
  }

  document.addEventListener('focusin', function (e) {
    if (moving) { last = e.target; return; }
    var root = e.target && e.target.closest ? e.target.closest(GAME) : null;
    pending = null;
    if (root && controls(root).indexOf(e.target) >= 0) {
      // from one button of a next step to another: the chosen card's place goes with it
      var step = last && last.closest ? last.closest('.icg-next-step') : null;
      if (step && step.contains(e.target) && stepFrom.has(last))
        stepFrom.set(e.target, stepFrom.get(last));
      last = e.target;
      lastRoot = root;
      lastIndex = controls(root).indexOf(e.target);
    } else {
      last = null;
      lastRoot = null;
    }
  }, true);

  new MutationObserver(schedule).observe(document.documentElement, {
    subtree: true, childList: true, attributes: true,
    attributeFilter: ['disabled', 'style', 'class']});

  // the answer boxes: a number keyboard on a tablet
  function mark() {
    var boxes = document.querySelectorAll('.icg-answer input:not([inputmode])');
    for (var i = 0; i < boxes.length; i++) {
      boxes[i].setAttribute('inputmode', 'numeric');
      boxes[i].setAttribute('autocomplete', 'off');
    }
  }

  document.addEventListener('click', function (e) {
    var a = e.target && e.target.closest ? e.target.closest('a[href^="#"]') : null;
    if (!a || e.defaultPrevented || e.button !== 0) return;
    var id = decodeURIComponent(a.getAttribute('href').slice(1));
    if (!id) return;
    e.preventDefault();
    e.stopPropagation();
    // a table's anchor is a class of its root (widgets/table/shell.py game_classes)
    var target = document.getElementById(id)
      || document.querySelector('.icg-anchor-' + (window.CSS ? CSS.escape(id) : id));
    if (!target) return;  // the table is not on the page yet: stay here
    var root = target.closest(GAME) || target;
    root.scrollIntoView({block: 'start'});
    var first = controls(root).filter(usable)[0];
    if (first) {
      moving = true;
      try { first.focus({preventScroll: true}); } finally { moving = false; }
      // a short window (200% zoom): the control comes in too, as long as the line that says
      // what to do stays on screen
      first.scrollIntoView({block: 'nearest'});
      var status = root.querySelector('.icg-status-now, .icg-fj-status');
      if (status && status.getBoundingClientRect().top < 0) status.scrollIntoView({block: 'start'});
      last = first; lastRoot = root; lastIndex = controls(root).indexOf(first); pending = null;
      say(root);
    }
    if (history.replaceState) history.replaceState(null, '', '#' + id);
  }, true);

  // 5. Enter in an answer box (a table's, an exit ticket's or unit check's, a practice set's)
  //    checks it (the kernel handles the submit) and then the focus goes where the answer
  //    leads: to the next step when one is offered (a button that was not usable before:
  //    "Turn up all the cards", "Next question"), else to the result (the message that
  //    changed), as long as the student has not moved the focus meanwhile. A lesson's button
  //    pressed by keyboard that then goes ("Next question", a choice) leaves the focus on what
  //    comes next (followButton).
  var ANSWER = '.icg-answer, .icg-exit-ticket, .icg-unit-check, .icg-problem-set, .icg-practice';
  var RESULT = '[role=status], [role=alert], .icg-msg';

  // the buttons an answer may lead to: not the page's controls, and not the name bar's
  // (its "Not you? Change" can come into sight late, after the question, and is no next step)
  function buttonsOf(root) {
    return Array.prototype.filter.call(root.querySelectorAll('button'), function (b) {
      return usable(b) && !b.closest(NOT_PLAY) && !b.closest('.icg-name-bar');
    });
  }

  function focusOn(el) {
    moving = true;
    try { el.focus({preventScroll: true}); } finally { moving = false; }
    el.scrollIntoView({block: 'nearest'});
  }

  function followAnswer(box) {
    var area = box.closest(ANSWER);
    if (!area) return;
    var root = area.closest(GAME) || area;
    var before = buttonsOf(root);
    var results = Array.prototype.map.call(root.querySelectorAll(RESULT), textOf);
    var changedAt = 0;
    var resultEl = null;  // the result, once the focus was put on it
    var t0 = Date.now();
    function still() {
      var a = document.activeElement;
      return a === box || a === resultEl || !a || a === document.body
        || (a === last && !usable(a));
    }
    (function look() {
      // a loaded server answers late: the next step may come seconds after the result
      if (!still() || Date.now() - t0 > 60000) return;
      var fresh = buttonsOf(root).filter(function (b) { return before.indexOf(b) < 0; });
      if (fresh.length) {
        var after = fresh.filter(function (b) {
          return box.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING;
        });
        focusOn(after[0] || fresh[0]);
        return;
      }
      if (!resultEl) {
        var shown = root.querySelectorAll(RESULT);
        var changed = null;
        for (var i = 0; i < shown.length; i++) {
          var text = textOf(shown[i]);
          if (text && text !== results[i] && usable(shown[i])) changed = shown[i];
        }
        if (changed && !changedAt) changedAt = Date.now();
        // no next step with the result (a wrong answer to fix): the focus goes to the result,
        // and on to a next step if one still comes
        if (changed && Date.now() - changedAt > 1500) {
          if (!changed.hasAttribute('tabindex')) changed.setAttribute('tabindex', '-1');
          resultEl = changed;
          focusOn(changed);
        }
      }
      setTimeout(look, 100);
    })();
  }

  // A lesson's button pressed by keyboard that then goes (a choice answered, "Next
  // question"): the focus goes to a box shown anew (the next question's), else to a button
  // offered anew ("Next question"), else the first box or button of the exit ticket.
  function followButton(button) {
    var area = button.closest('.icg-exit-ticket, .icg-unit-check, .icg-problem-set, .icg-practice');
    if (!area || area.closest(GAME)) return;
    var inputs = function () {
      return Array.prototype.filter.call(area.querySelectorAll('input'), usable);
    };
    var boxesBefore = inputs();
    var before = buttonsOf(area);
    var t0 = Date.now();
    var goneAt = 0;  // when the button stopped being usable
    (function look() {
      var a = document.activeElement;
      if (Date.now() - t0 > 60000) return;
      if (a && a !== document.body && a !== button) return;  // the student went on
      if (!usable(button)) {
        // the kernel's changes come one by one (the choices disabled, then "Next question"
        // enabled): on a loaded server the next step comes a while after the button goes
        if (!goneAt) goneAt = Date.now();
        var boxes = inputs();
        var newBox = boxes.filter(function (b) { return boxesBefore.indexOf(b) < 0; })[0];
        var newButton = buttonsOf(area).filter(function (b) { return before.indexOf(b) < 0; })[0];
        var target = newBox || newButton;
        if (!target && Date.now() - goneAt > 3000) target = boxes[0] || buttonsOf(area)[0];
        if (target) {
          focusOn(target);
          return;
        }
      }
      setTimeout(look, 100);
    })();
  }

  document.addEventListener('keydown', function (e) {
    if (e.key !== 'Enter' || e.isComposing) return;
    var box = e.target;
    if (!box || !box.matches) return;
    if (!box.matches(GAME + ' input, .icg-teacher-gate input, .icg-exit-ticket input, '
                     + '.icg-unit-check input, .icg-problem-set input, .icg-practice input')) {
      return;
    }
    box.dispatchEvent(new Event('change', {bubbles: true}));
    if (box.closest(ANSWER)) followAnswer(box);
  }, true);
  document.addEventListener('click', function (e) {
    var b = e.target && e.target.closest && e.target.closest('button');
    if (b && e.detail === 0) followButton(b);  // a key press on a button, not a tap
  }, true);
})();
