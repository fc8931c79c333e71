// Links to lessons open once, in the same tab. JupyterLab's renderer gives every link in a
// lesson's text and outputs target="_blank", so "Next lesson" or a lesson of the start page
// opened a new tab each time, and a double click two tabs: each tab a page with its own
// kernel on the server, the old ones kept alive while their tabs stay open. A plain click on a
// link to a lesson (/voila/render/..., or /voici/render/... on the static site, whose pages
// run this template too) now loads it in this tab (the page left behind frees its kernel),
// and another click in the next 3 seconds (the second click of a double click) is ignored.
// Ctrl/Cmd/Shift/Alt and middle clicks, a new tab on purpose, are left alone.
(function () {
  var last = 0;
  document.addEventListener('click', function (e) {
    var a = e.target && e.target.closest ? e.target.closest('a[href]') : null;
    if (!a || e.defaultPrevented || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey
        || e.altKey) return;
    var url = new URL(a.href, document.baseURI);
    if (url.origin !== location.origin || !/\/vo(ila|ici)\/render\//.test(url.pathname)) return;
    // a link to a place in this page ("#play"): static/play-focus.js
    if (url.pathname === location.pathname && url.search === location.search && url.hash)
      return;
    e.preventDefault();
    e.stopPropagation();
    var now = Date.now();
    if (now - last < 3000) return;
    last = now;
    a.setAttribute('aria-busy', 'true');
    window.location.assign(url.href);
  }, true);
})();
