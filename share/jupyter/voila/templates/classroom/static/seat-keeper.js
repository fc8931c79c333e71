// A plain reload of the same tab keeps a student's seat at a shared table.
// The play-together page shows its own seat link (a.icg-seat-link, "?room=...&seat=...&key=...",
// widgets/together/lobby.py); its key is this tab's own and is never sent to another seat. This
// script writes that query into this tab's address (history.replaceState: no request, no new
// history entry), so a reload (F5, a closed lid, a dropped network) asks for the same seat; the
// kernel checks the key like any seat link (PlayTogether._from_link) and a wrong one waits like
// a wrong PIN. Nothing else is read or sent.
(function () {
  function keep() {
    var a = document.querySelector('a.icg-seat-link[href^="?room="]');
    if (!a) return;
    var href = a.getAttribute('href');
    if (!/^\?[A-Za-z0-9=&_%.~-]+$/.test(href) || location.search === href) return;
    history.replaceState(history.state, '', location.pathname + href);
  }
  new MutationObserver(keep).observe(document.documentElement,
    {subtree: true, childList: true, attributes: true, attributeFilter: ['href']});
})();
