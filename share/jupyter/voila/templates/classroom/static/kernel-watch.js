// The dead-kernel and slow-start alerts of the classroom template (see index.html.j2).
// A file rather than an inline script: the Content-Security-Policy allows scripts from the
// server only (script-src 'self').
//
// The words: every sentence below comes from the page's JSON data block
// <script type="application/json" id="classroom-words"> that the template renders in the page's
// language (widgets/words/page.py, through the icg catalogue); none is written here.
(function () {
  var Native = window.WebSocket;
  var words = null;
  function word(key) {
    if (words === null) {
      var block = document.getElementById('classroom-words');
      try { words = block ? JSON.parse(block.textContent) : {}; } catch (err) { words = {}; }
    }
    return words[key] || '';
  }
  if (!Native || Native.classroomWatched) { return; }
  var STATUS = /"execution_state"\s*:\s*"(restarting|autorestarting|dead)"/;
  var shown = false;
  var unloading = false;
  var open = 0;
  window.addEventListener('beforeunload', function () { unloading = true; });

  function showAlert(text) {
    if (shown || unloading) { return; }
    shown = true;
    var put = function () {
      var box = document.createElement('div');
      box.id = 'classroom-kernel-alert';
      box.setAttribute('role', 'alert');
      box.appendChild(document.createTextNode(text + ' '));
      var button = document.createElement('button');
      button.type = 'button';
      button.textContent = word('reload');
      button.addEventListener('click', function () { window.location.reload(); });
      box.appendChild(button);
      document.body.insertBefore(box, document.body.firstChild);
      var cells = document.getElementById('rendered_cells');
      if (cells) {
        cells.inert = true;
        cells.setAttribute('aria-disabled', 'true');
        cells.style.opacity = '0.45';
      }
      button.focus();
    };
    if (document.body) { put(); } else { document.addEventListener('DOMContentLoaded', put); }
  }

  function check(text) {
    if (STATUS.test(text)) {
      showAlert(word('kernelStopped'));
    }
  }

  function Watched(url, protocols) {
    var ws = protocols === undefined ? new Native(url) : new Native(url, protocols);
    if (String(url).indexOf('/api/kernels/') === -1) { return ws; }
    open += 1;
    ws.addEventListener('message', function (event) {
      var data = event.data;
      if (typeof data === 'string') { check(data); }
      else if (data instanceof ArrayBuffer) { check(new TextDecoder().decode(data)); }
      else if (data && typeof data.text === 'function') { data.text().then(check); }
    });
    ws.addEventListener('close', function () {
      open -= 1;
      // a short drop is reconnected by the page itself; one that lasts is reported
      setTimeout(function () {
        if (open <= 0) {
          showAlert(word('connectionLost'));
        }
      }, 8000);
    });
    return ws;
  }
  Watched.prototype = Native.prototype;
  Watched.CONNECTING = Native.CONNECTING;
  Watched.OPEN = Native.OPEN;
  Watched.CLOSING = Native.CLOSING;
  Watched.CLOSED = Native.CLOSED;
  Watched.classroomWatched = true;
  window.WebSocket = Watched;

  // A page whose kernel never starts (or whose cells never finish) would show the spinner for
  // ever: after a while, say so and offer a reload; the note goes away by itself if the page
  // does finish. (window.classroomStartLimitMs lets a test shorten the wait.)
  function loading() {
    var l = document.getElementById('loading');
    return document.readyState !== 'complete' || (l !== null && l.offsetParent !== null);
  }
  setTimeout(function () {
    if (!loading() || shown || unloading) { return; }
    var box = document.createElement('div');
    box.id = 'classroom-start-alert';
    box.setAttribute('role', 'alert');
    box.style.cssText = 'position: sticky; top: 0; z-index: 1000; margin: 0; ' +
      'padding: 12px 16px; background: #fff4ce; color: #3b2f00; font-size: 1.1rem; ' +
      'border-bottom: 2px solid #7a5c00;';
    box.appendChild(document.createTextNode(word('slowStart') + ' '));
    var button = document.createElement('button');
    button.type = 'button';
    button.textContent = word('reload');
    button.style.cssText = 'margin-left: 12px; padding: 4px 12px; font-size: 1rem;';
    button.addEventListener('click', function () { window.location.reload(); });
    box.appendChild(button);
    document.body.insertBefore(box, document.body.firstChild);
    var done = setInterval(function () {
      if (!loading()) { clearInterval(done); box.remove(); }
    }, 1000);
  }, window.classroomStartLimitMs || 120000);
})();
