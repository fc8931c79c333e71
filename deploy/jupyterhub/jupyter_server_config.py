"""A student's own Jupyter server on the hub: Voila pages only, and no code from the browser.

Zero to JupyterHub mounts this file as /etc/jupyter/jupyter_server_config.py in every student's
server (config.yaml, `singleuser.extraFiles.student-server`, given to helm with `--set-file`);
deploy/jupyterhub/jupyterhub_config.py (JupyterHub on one machine; tests/browser/test_hub.py) puts
this folder on the server's JUPYTER_CONFIG_PATH.

Standalone Voila lets the page send its kernel only the messages that widgets need. As a Jupyter
server extension (on a hub, on Binder, in JupyterLab's preview) Voila uses the server's kernel
manager, which forwards everything: an `execute_request` sent over the page's kernel websocket
runs any code, for instance code that reads the face-down cards. This file sets the server's
filter to Voila's list, and takes away what would let a student run code another way:
JupyterLab, the notebook UI, terminals, the language servers, and writing files (a notebook a
student wrote would run when opened as a Voila page). docs/security.md says what remains.
"""

from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager
from tornado.web import HTTPError

c = get_config()  # noqa: F821 - defined by the config loader

# The list standalone Voila gives its kernel manager (voila/app.py, Voila.init_settings).
# tests/test_deploy_config.py checks that it is the same list.
VOILA_ALLOWED_MESSAGE_TYPES = [
    "comm_open",
    "comm_close",
    "comm_msg",
    "comm_info_request",
    "kernel_info_request",
    "shutdown_request",
]
c.MappingKernelManager.allowed_message_types = VOILA_ALLOWED_MESSAGE_TYPES

# Only Voila (and the hub's own extension, which jupyterhub-singleuser adds): no JupyterLab, no
# notebook or tree UI, no terminals, no language servers. Named here as disabled, they stay
# disabled whatever jupyter_server_config.d/ in the environment enables.
c.ServerApp.jpserver_extensions = {
    "voila.server_extension": True,
    "serving.kernel_guard": True,  # checks every kernel websocket frame (docs/security.md)
    "jupyterlab": False,
    "notebook": False,
    "nbclassic": False,
    "notebook_shim": False,
    "jupyter_lsp": False,
    "jupyter_server_terminals": False,
}
c.ServerApp.terminals_enabled = False
# jupyter_server trusts the part count of a binary websocket frame: an 8-byte frame can freeze
# the server. The project's guard checks every frame first (serving/kernel_guard.py), refuses a
# page's comm_open to widget targets and keeps kernel tracebacks off the page.
c.ServerApp.kernel_websocket_connection_class = "serving.kernel_guard.GuardedKernelConnection"


class LessonsContentsManager(AsyncLargeFileManager):
    """The server's files, read-only: the lessons keep no student work.

    A notebook a student uploaded, wrote, copied or renamed into place would run its code as
    soon as it is opened as a Voila page, so the contents API refuses every change.
    """

    _REFUSED = "This server only shows the lessons: it does not change files."

    async def save(self, model, path=""):
        raise HTTPError(403, self._REFUSED)

    async def delete_file(self, path):
        raise HTTPError(403, self._REFUSED)

    async def rename_file(self, old_path, new_path):
        raise HTTPError(403, self._REFUSED)

    async def create_checkpoint(self, path):
        raise HTTPError(403, self._REFUSED)

    async def restore_checkpoint(self, checkpoint_id, path):
        raise HTTPError(403, self._REFUSED)


c.ServerApp.contents_manager_class = LessonsContentsManager
c.ContentsManager.allow_hidden = False
