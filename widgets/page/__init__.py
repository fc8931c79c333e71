"""Page plumbing: the teacher's key, the page's language, the in-browser kernel's switches and
the late-update resend of widget state."""
