// The "class is full" (503) and "too many lessons are starting" (429) pages (503.html): show
// the note that the page tries again by itself, and load the lesson again after a minute (the
// Retry-After the server sends), unless the student presses the note's button (WCAG 2.2.1:
// a timed reload one can turn off). A file, not an inline script: the Content-Security-Policy
// allows scripts from the server only. Its words are in the page (widgets/words/page.py).
(function () {
  var note = document.getElementById('classroom-retry');
  var stop = document.getElementById('classroom-retry-stop');
  if (!note || !stop) { return; }
  // (window.classroomRetryMs lets a test shorten the wait)
  var timer = setTimeout(function () { window.location.reload(); },
                         window.classroomRetryMs || 60000);
  note.hidden = false;
  stop.addEventListener('click', function () {
    clearTimeout(timer);
    note.remove();
  });
})();
