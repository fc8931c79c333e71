// Every cell has run: show the page (Voila's inline `window.voila_finish()`, as a file).
window.voila_finish();
