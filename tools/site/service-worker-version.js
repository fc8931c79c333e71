// Put in every page of the static site, before JupyterLite starts. JupyterLite notes its
// version beside its service worker only on a visit that the worker already controls, and on
// a controlled visit that finds no note it unregisters every service worker and registers its
// own again (2 to 3 s on this machine), thinking the site was updated. So the second visit of
// every student paid that. The worker now controlling the page is the one of this version
// when no note says otherwise: the note is written here, and a real update (a note of another
// version) still unregisters.
(function () {
  "use strict";
  const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
  const config = document.getElementById("jupyter-config-data");
  if (!worker || !config) return;
  const key = `${worker.scriptURL}-version`;
  try {
    if (localStorage.getItem(key) === null) {
      localStorage.setItem(key, JSON.parse(config.textContent).appVersion);
    }
  } catch (error) {
    // storage off (a private window): JupyterLite registers its worker again, as before
  }
})();
