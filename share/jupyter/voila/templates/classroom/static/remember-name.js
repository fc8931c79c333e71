// What a page keeps on this device: a student's first name, typed once, for the day; and, on
// a practice page of the static site (no server, no store), the student's first tries at
// practice, so that mastery and re-checks outlive the page.
// Each thing kept has two widgets for this script:
// - a keep widget (.icg-name-keep, .icg-practice-keep): a span whose data-keep is the value
//   to keep (the names: {"day": ..., "names": [...]}; the practice: [[day, skill, 0 or 1],
//   ...]), or "" to forget it ("Not you? Change"). This script keeps it in this browser's
//   localStorage (this device only), or forgets it.
// - a recall widget (.icg-name-recall, .icg-practice-recall): a hidden text box. On a page
//   that is opened, this script types what it kept into the box (a "change" event: the widget
//   sends it to the kernel), once per box. The kernel checks it like anything typed: a stale
//   day, a forged name or a malformed practice record is ignored.
// Nothing is sent anywhere else, and nothing of another student is read.
(function () {
  var KEPT = [
    {key: 'icg-student-names', keep: '.icg-name-keep', recall: '.icg-name-recall'},
    {key: 'icg-practice-firsts', keep: '.icg-practice-keep', recall: '.icg-practice-recall'}
  ];
  function kept(key) {
    try { return localStorage.getItem(key) || ''; } catch (e) { return ''; }
  }
  function scanOne(kind) {
    var spans = document.querySelectorAll(kind.keep + ' span[data-keep]');
    for (var i = 0; i < spans.length; i++) {
      var value = spans[i].getAttribute('data-keep');
      if (spans[i].getAttribute('data-kept') === value) continue;
      spans[i].setAttribute('data-kept', value);
      try {
        if (value) localStorage.setItem(kind.key, value); else localStorage.removeItem(kind.key);
      } catch (e) { /* storage refused: typed again, or practised again, next time */ }
    }
    var value = kept(kind.key);
    if (!value) return;
    var boxes = document.querySelectorAll(kind.recall + ' input');
    for (var j = 0; j < boxes.length; j++) {
      var box = boxes[j];
      if (box.getAttribute('data-recalled')) continue;
      box.setAttribute('data-recalled', '1');
      box.value = value;
      box.dispatchEvent(new Event('change', {bubbles: true}));
    }
  }
  function scan() {
    for (var k = 0; k < KEPT.length; k++) scanOne(KEPT[k]);
  }
  new MutationObserver(scan).observe(document.documentElement,
    {subtree: true, childList: true, attributes: true, attributeFilter: ['data-keep']});
  scan();
})();
