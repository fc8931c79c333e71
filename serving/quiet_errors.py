"""A log no anonymous request can grow: short error pages, one line a refusal, a cap per source.

A student's script sending the same request again and again must not fill the server's disk.
Standalone Voila serves jupyter_server's handlers (the kernel websocket, `/logout`) without the
`static_path` setting that jupyter_server's error pages need, and Voila's template file
handler trips on paths it does not expect. What each request wrote before:

- `GET /logout`: jupyter_server's logout page needs `static_url`: an 8.5 kB traceback a request
  (about 1.6 GiB per 10 minutes from one connection);
- a `/voila/templates/...` path without `<template>/static/<file>`: Voila's handler splits it
  and raises `ValueError` (a traceback each, about 0.65 GiB per 10 minutes);
- a refused kernel websocket handshake (HTTP 429): jupyter_server looks for `429.html` among
  its own templates, then renders `error.html`, which needs `static_url` again (4.7 kB a
  refusal, outside the refusal log's rate limit).

`install()` (called from serving/voila_config.py, so for `make serve`, `make class` and the
systemd unit) makes these:

- on a server without `static_path` (standalone Voila), a jupyter_server handler's error page
  that cannot be rendered (its templates need `static_url`) is a short page of its own (the
  status and its reason, nothing of the server); Voila's own error pages (the classroom
  template's 429.html and 503.html) are kept; `/logout` (there is no login to leave) is a 404;
- a template file path Voila cannot read is a 404;
- tracebacks of requests (tornado's "Uncaught exception") go through a `RefusalLog`: the first
  few each minute are written whole, the rest counted in one summary line;
- access-log lines of refused requests (status 400 and above) are capped per computer
  (`ACCESS_BURST` a minute, then one summary line), so a flood of refusals from one computer
  writes a few lines a minute whatever its rate. Successful requests are logged as before.

With a `static_path` (Voila inside JupyterLab or a hub's single-user server) jupyter_server's own
error and logout pages are kept.
"""

from __future__ import annotations

import functools
import html
import logging
from http.client import responses
from typing import Any

from tornado import web

from serving.kernels import client_address
from serving.refusal_log import RefusalLog

log = logging.getLogger("serving.quiet_errors")
# Tracebacks of requests written whole each minute (the rest are counted).
TRACEBACK_BURST = 5
# Access-log lines of refused requests (status >= 400) per computer each minute.
ACCESS_BURST = 20
TRACEBACKS = RefusalLog(logging.getLogger("tornado.application"), burst=TRACEBACK_BURST)
ACCESS = RefusalLog(logging.getLogger("tornado.access"), burst=ACCESS_BURST)

_installed = False


def standalone(handler: web.RequestHandler) -> bool:
    """Whether the handler runs in standalone Voila (no jupyter_server static files)."""
    return "static_path" not in handler.settings


def short_page(status_code: int, reason: str = "") -> str:
    """The error page of a jupyter_server handler in standalone Voila: the status only."""
    text = html.escape(reason or responses.get(status_code, "Error"))
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{status_code} '
            f"{text}</title></head><body><h1>{status_code} {text}</h1></body></html>")


def _reason(kwargs: dict[str, Any]) -> str:
    exc = (kwargs.get("exc_info") or (None, None, None))[1]
    return getattr(exc, "reason", "") or ""


def _client(handler: web.RequestHandler) -> str:
    header = getattr(handler.settings.get("kernel_manager"), "client_address_header",
                     "X-Real-IP")
    try:
        return client_address(handler.request, header) or "this machine"
    except Exception:  # noqa: BLE001 - a request we cannot read is still logged
        return "unknown"


def install() -> bool:
    """Install the handlers' short error pages, the 404s and the log caps (once)."""
    global _installed
    if _installed:
        return True
    _installed = True
    _quiet_jupyter_handlers()
    _quiet_template_files()
    _capped_logs()
    return True


def _quiet_jupyter_handlers() -> None:
    try:
        from jupyter_server.auth.logout import LogoutHandler
        from jupyter_server.base.handlers import JupyterHandler
    except ImportError:
        return
    own_write_error = JupyterHandler.write_error

    @functools.wraps(own_write_error)
    def write_error(self: Any, status_code: int, **kwargs: Any) -> None:
        if not standalone(self):
            return own_write_error(self, status_code, **kwargs)
        try:  # Voila's own pages (the classroom template's 429.html, 503.html) render
            return own_write_error(self, status_code, **kwargs)
        except Exception:  # noqa: BLE001 - jupyter_server's templates need static_url
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.write(short_page(status_code, _reason(kwargs)))
        return None

    JupyterHandler.write_error = write_error
    # APIHandler writes JSON errors of its own; only the HTML pages needed templates.
    own_logout = LogoutHandler.get

    @functools.wraps(own_logout)
    def get(self: Any, *args: Any, **kwargs: Any) -> Any:
        if standalone(self):
            raise web.HTTPError(404)
        return own_logout(self, *args, **kwargs)

    LogoutHandler.get = get


def _quiet_template_files() -> None:
    try:
        from voila.static_file_handler import TemplateStaticFileHandler
    except ImportError:
        return
    own_get = TemplateStaticFileHandler.get

    @functools.wraps(own_get)
    async def get(self: Any, path: str, include_body: bool = True) -> None:
        try:
            await own_get(self, path, include_body)
        except web.HTTPError:
            raise
        except (ValueError, AssertionError, OSError, KeyError, TypeError) as e:
            raise web.HTTPError(404) from e

    TemplateStaticFileHandler.get = get


def _capped_logs() -> None:
    own_log_exception = web.RequestHandler.log_exception

    @functools.wraps(own_log_exception)
    def log_exception(self: web.RequestHandler, typ: Any, value: Any, tb: Any) -> None:
        if isinstance(value, web.HTTPError):
            return own_log_exception(self, typ, value, tb)  # one line (a warning), or none
        if TRACEBACKS.burst_left("uncaught exception", _client(self)):
            return own_log_exception(self, typ, value, tb)
        return None

    web.RequestHandler.log_exception = log_exception

    own_log_request = web.Application.log_request

    @functools.wraps(own_log_request)
    def log_request(self: web.Application, handler: web.RequestHandler) -> None:
        if handler.get_status() < 400 or "log_function" in self.settings:
            return own_log_request(self, handler)
        client = _client(handler)
        if ACCESS.burst_left(f"HTTP {handler.get_status() // 100}xx from {client}", client):
            return own_log_request(self, handler)
        return None

    web.Application.log_request = log_request
