// Put in every lesson page of the static site, after its status line #icg-starting.
// Voici runs the lesson's cells one by one once the page's Python has started, writing their
// outputs into the lesson's text (#rendered_cells), and moves that text into its application
// panel (#main) only when every cell has run; until then the panel, an empty grey page, covers
// everything. The page's stylesheet keeps the panel out of sight until the text is in it, so
// the text can be read at once and each table shows when its cell has run. This script:
// - takes the status line ("Starting the lesson...") away once the first output shows;
// - when the text moves into the panel, keeps the part of the lesson the student had scrolled
//   to at the same height in the window, and the control they had focused (moving the text
//   would reset both), without undoing a scroll of theirs that comes meanwhile.
(function () {
  "use strict";
  const note = document.getElementById("icg-starting");
  let anchor = null; // the first cell in sight, and its top in the window
  let focused = null;
  let moved = false;
  // Whether the student has scrolled down from the top (as the last scroll left it): until then
  // there is no place to keep, and the page's changes cost no layout of their own (reading the
  // scroll position or a cell's place makes the browser lay the page out at once).
  let away = false;

  function noteAnchor() {
    anchor = null;
    if (window.scrollY <= 0) return;
    for (const cell of document.querySelectorAll("#rendered_cells [cell-index]")) {
      const top = cell.getBoundingClientRect().top;
      if (cell.getBoundingClientRect().bottom > 0) {
        anchor = { cell, top };
        return;
      }
    }
  }

  // The place noted once in the next frame, however many changes come before it.
  let pending = false;
  function noteSoon() {
    if (moved || pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      if (!moved) noteAnchor();
    });
  }
  window.addEventListener("scroll", () => {
    if (moved) return;
    away = window.scrollY > 0;
    noteSoon();
  }, { passive: true });
  document.addEventListener("focusin", (event) => {
    if (!moved) focused = event.target;
  });

  function keepPlace(cells) {
    if (focused && focused.isConnected && document.activeElement !== focused) {
      focused.focus({ preventScroll: true });
    }
    if (!anchor || !anchor.cell.isConnected) return;
    // The panel lays itself out (and puts the text in place again) over the next frames: the
    // place is set again on each of them, until the student scrolls, taps, clicks or types,
    // which then wins.
    let frames = 0;
    let theirs = false;
    const yours = () => { theirs = true; };
    for (const type of ["pointerdown", "wheel", "touchstart", "keydown"]) {
      window.addEventListener(type, yours, { capture: true, once: true, passive: true });
    }
    const settle = () => {
      if (theirs) return;
      const off = anchor.cell.getBoundingClientRect().top - anchor.top;
      if (Math.abs(off) > 1) cells.scrollTop += off;
      frames += 1;
      if (frames < 30) requestAnimationFrame(settle);
    };
    requestAnimationFrame(settle);
  }

  const observer = new MutationObserver(() => {
    const cells = document.getElementById("rendered_cells");
    if (note && note.isConnected && cells && cells.querySelector(".jp-OutputArea-output")) {
      note.remove();
    }
    const main = document.getElementById("main");
    if (!moved && cells && main && main.contains(cells)) {
      moved = true;
      observer.disconnect();
      if (note && note.isConnected) note.remove();
      keepPlace(cells);
    } else if (!moved && cells && away) {
      noteSoon(); // an output above the place shifted it (the browser keeps it in sight)
    }
  });
  observer.observe(document.documentElement, { childList: true, subtree: true });
})();
