// Voila's log macro (voila/templates/base/log.macro.html.j2) as a file, not an inline script
// (the Content-Security-Policy allows scripts from the server only): console messages are
// also posted to the parent window, where the Voila preview in JupyterLab shows them.
(function () {
  var levels = ['debug', 'info', 'warn', 'error'];
  function post(payload) {
    try {
      window.top.postMessage(payload);
    } catch (err) {
      window.top.postMessage({
        level: 'debug',
        msg: ['[Voilà]:', 'Issue cloning object when posting log message, JSON stringify ' +
              'version is:', JSON.stringify(payload)]
      });
    }
  }
  levels.forEach(function (level) {
    var original = console[level];
    console[level] = function () {
      var args = Array.prototype.slice.call(arguments);
      post({ level: level, msg: ['[Voilà]:'].concat(args) });
      original.apply(console, args);
    };
  });
})();
