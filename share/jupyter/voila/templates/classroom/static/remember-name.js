// A student's first name, typed once, is remembered on this device for the day.
// The name bar (widgets/lessons/student.py NameBar) holds two widgets for this script:
// - .icg-name-keep: a span whose data-keep is {"day": ..., "names": [...]} once the student has
//   named themselves, or "" after "Not you? Change". This script keeps it in this browser's
//   localStorage (this device only), or forgets it.
// - .icg-name-recall: a hidden text box. On a page that is opened, this script types what it
//   kept into the box (a "change" event: the widget sends it to the kernel), once per box.
//   The kernel checks it like anything typed: a stale day or a forged name is ignored.
// Nothing is sent anywhere else, and nothing of another student is read.
(function () {
  var KEY = 'icg-student-names';
  function kept() {
    try { return localStorage.getItem(KEY) || ''; } catch (e) { return ''; }
  }
  function scan() {
    var spans = document.querySelectorAll('.icg-name-keep span[data-keep]');
    for (var i = 0; i < spans.length; i++) {
      var value = spans[i].getAttribute('data-keep');
      if (spans[i].getAttribute('data-kept') === value) continue;
      spans[i].setAttribute('data-kept', value);
      try {
        if (value) localStorage.setItem(KEY, value); else localStorage.removeItem(KEY);
      } catch (e) { /* storage refused: the student types the name again next time */ }
    }
    var value = kept();
    if (!value) return;
    var boxes = document.querySelectorAll('.icg-name-recall input');
    for (var j = 0; j < boxes.length; j++) {
      var box = boxes[j];
      if (box.getAttribute('data-recalled')) continue;
      box.setAttribute('data-recalled', '1');
      box.value = value;
      box.dispatchEvent(new Event('change', {bubbles: true}));
    }
  }
  new MutationObserver(scan).observe(document.documentElement,
    {subtree: true, childList: true, attributes: true, attributeFilter: ['data-keep']});
  scan();
})();
