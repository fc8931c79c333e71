"""Page plumbing: the teacher's key, the page's language and query, the in-browser kernel's
switches and the late-update resend of widget state."""
