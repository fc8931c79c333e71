"""The Flapjack table in four parts: session (no widgets), view (frozen data for one viewer),
render (view to HTML) and table (the thin ipywidgets class). See docs/architecture.md."""
