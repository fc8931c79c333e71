// Voila's page helpers (voila/templates/base/voila_setup.macro.html.j2) as a file, not inline
// scripts (the Content-Security-Policy allows scripts from the server only). Voila's lab
// template calls voila_process(i, n) from an inline script in every cell; here an observer
// reads the cells' cell-index and data-cell-count attributes as the page streams in.
// Its one sentence, "Executing 3 of 12", comes in the page's language from the JSON data block
// #classroom-words (widgets/words/page.py; see kernel-watch.js).
(function () {
  var progress = null;
  function progressText(index, count) {
    if (progress === null) {
      var block = document.getElementById('classroom-words');
      try { progress = (block && JSON.parse(block.textContent).progress) || ''; }
      catch (err) { progress = ''; }
    }
    return progress.replace('{index}', String(index)).replace('{count}', String(count));
  }
  window.voila_heartbeat = function () {
    console.log('Ok, voila is still executing...');
  };
  window.update_loading_text = function (cellIndex, cellCount, text) {
    var spinner = document.getElementById('loading');
    if (spinner && spinner.style.display === 'none') {
      spinner.style.display = 'flex';
    }
    var el = document.getElementById('loading_text');
    if (el) {
      el.textContent = text || progressText(cellIndex, cellCount);
    }
  };
  window.display_cells = function () {
    if (!window.themeLoaded) {
      window.cellLoaded = true;
      return;
    }
    var el = document.getElementById('loading');
    if (el) {
      el.parentNode.removeChild(el);
    }
    el = document.getElementById('rendered_cells');
    if (el) {
      el.style.display = '';
    }
  };
  window.voila_process = window.update_loading_text;

  var cells = new MutationObserver(function (records) {
    records.forEach(function (record) {
      record.addedNodes.forEach(function (node) {
        if (node.nodeType === 1 && node.hasAttribute('cell-index')) {
          window.voila_process(Number(node.getAttribute('cell-index')),
                               Number(node.getAttribute('data-cell-count')));
        }
      });
    });
  });
  cells.observe(document.documentElement, { childList: true, subtree: true });
  window.voila_finish = function () {
    cells.disconnect();
    window.display_cells();
  };
})();
