// A student page's place in the live class the teacher runs (widgets/together/live.py), kept
// on this device so that a reload finds it again (a removed page stays out; a page that is in
// stays in). The page holds two widgets for this script:
// - .icg-live-keep: a span whose data-keep is the page's token once it has a name in the class.
//   This script keeps it in this browser's localStorage (this device only).
// - .icg-live-recall: a hidden text box. On a page that is opened, this script types the kept
//   token into it, or "none" when this device keeps none (a "change" event: the widget sends
//   it to the kernel), once per box. The kernel waits for it before the page takes a name,
//   and asks the class's store about a token: one the store does not know is ignored.
// Nothing is sent anywhere else.
(function () {
  var KEY = 'icg-live-page';
  var NO_TOKEN = 'none'; // this device keeps no token: the kernel need not wait for one
  function kept() {
    try { return localStorage.getItem(KEY) || ''; } catch (e) { return ''; }
  }
  function scan() {
    // the recall first: a token this page's kernel made meanwhile (it may not have waited)
    // must not replace the one kept here before the kernel has read that one
    var value = kept();
    var boxes = document.querySelectorAll('.icg-live-recall input');
    for (var j = 0; j < boxes.length; j++) {
      var box = boxes[j];
      if (box.getAttribute('data-recalled')) continue;
      box.setAttribute('data-recalled', '1');
      box.value = value || NO_TOKEN;
      box.dispatchEvent(new Event('change', {bubbles: true}));
    }
    var spans = document.querySelectorAll('.icg-live-keep span[data-keep]');
    for (var i = 0; i < spans.length; i++) {
      var keep = spans[i].getAttribute('data-keep');
      if (!keep || spans[i].getAttribute('data-kept') === keep) continue;
      spans[i].setAttribute('data-kept', keep);
      try { localStorage.setItem(KEY, keep); } catch (e) { /* storage refused */ }
    }
  }
  new MutationObserver(scan).observe(document.documentElement,
    {subtree: true, childList: true, attributes: true, attributeFilter: ['data-keep']});
  scan();
})();
