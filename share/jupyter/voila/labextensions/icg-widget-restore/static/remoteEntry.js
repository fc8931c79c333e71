/*
 * A Voila page's widgets are drawn once the page has the kernel's widgets, however long the
 * kernel takes to send them.
 *
 * When a page opens, ipywidgets' widget manager asks the kernel for every widget's state
 * (the "restore") while Voila already draws each cell's output. An output whose widget is not
 * there yet waits: ipywidgets 8.1's `get_model` looks for it every 100 ms for 2 s, then fails,
 * and the output is drawn again when the restore ends. Its last look comes before its last
 * sleep, though: on a busy device (or server) the restore can register the widget and end
 * during that sleep, and the output then says "Error displaying widget: model not found" for
 * good. Here the manager looks once more after such a failure.
 *
 * A plugin in a hand-written module-federation container (Voila's loader calls `init` and
 * `get`; no build step): installed in Voila's own labextensions folder by
 * serving/install.py, so only Voila pages load it. tests/browser/test_lesson_pages.py checks it.
 */
(function () {
  'use strict';

  function lookAgain(manager) {
    if (!manager || manager.icgLooksAgain || typeof manager.get_model !== 'function') return;
    var getModel = manager.get_model.bind(manager);
    manager.get_model = function (modelId) {
      return getModel(modelId).catch(function (error) {
        if (typeof manager.has_model === 'function' && manager.has_model(modelId))
          return getModel(modelId);
        throw error;
      });
    };
    manager.icgLooksAgain = true;
  }

  var plugin = {
    id: 'icg-widget-restore:plugin',
    autoStart: true,
    activate: function (app) {
      // Voila's app: the manager is made while the plugins start, before any output is drawn
      var delegate = app && app.widgetManagerPromise;
      if (!delegate || !delegate.promise) return;  // not a Voila page
      if (app.widgetManager) lookAgain(app.widgetManager);
      else delegate.promise.then(lookAgain);
    }
  };

  var container = {
    init: function () { return Promise.resolve(); },
    get: function (module) {
      if (module !== './extension')
        return Promise.reject(new Error('icg-widget-restore has no module ' + module));
      return Promise.resolve(function () { return {__esModule: true, default: [plugin]}; });
    }
  };
  window._JUPYTERLAB = window._JUPYTERLAB || {};
  window._JUPYTERLAB['icg-widget-restore'] = container;
})();
