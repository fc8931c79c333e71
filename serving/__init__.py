"""Server-side pieces for serving the lessons (Voila settings, installer, kernel frame guard).

`serving.kernel_guard` runs in the Voila / Jupyter server process, never in a kernel. The
package is installed with the project (pyproject.toml) so that a server started from any
directory, or by systemd or a hub, can import it by name.
"""
