"""The web page and API of ``colorit serve``.

Light on purpose: the solver processes import ``colorit.web.worker`` (and the package
with it) and must not pay for the web framework, so ``create_app`` and ``serve`` are
imported on first use.

>>> from colorit.web import ServerConfig, serve
>>> serve(ServerConfig(port=0, workers=2), open_browser=False)  # doctest: +SKIP
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .config import ServerConfig

if TYPE_CHECKING:
    from .app import create_app
    from .server import serve

__all__ = ["ServerConfig", "create_app", "serve"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    if name == "serve":
        from .server import serve

        return serve
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
