"""The Hit Me table in four parts: session (no widgets), view (data), render (HTML), table."""
