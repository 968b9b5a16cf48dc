"""A student's server on a JupyterHub: Voilà alone, behind the hub's login.

``python -m mathcards.widgets.singleuser`` is the command a hub starts for each
student (``deploy/values.yaml``'s ``KubeSpawner.cmd``; ``tests/hub``): Voilà's own
server (not a Jupyter server with Voilà inside), so the student's server has no
JupyterLab, no terminals, no contents API and no kernels API. Its kernels take only
the widget messages Voilà allows (comm messages, kernel info, shutdown: never an
``execute_request``), so a student runs no code of their own there.

The hub's login guards it as it guards any single-user server: JupyterHub's
identity provider (OAuth with the hub, the ``access:servers`` scope of this server)
with its callback under this server's prefix. Where it listens, its prefix and its
root folder come from the variables the hub sets (``JUPYTERHUB_SERVICE_URL``,
``JUPYTERHUB_SERVICE_PREFIX``, ``JUPYTERHUB_ROOT_DIR``, ``JUPYTERHUB_DEFAULT_URL``);
other Voilà settings (``lessons/voila.json``) come from ``JUPYTER_CONFIG_PATH``
as everywhere else; more ``--Voila.x=y`` may follow on the command line.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlparse

from jupyter_server.utils import url_path_join
from jupyterhub.singleuser.extension import JupyterHubIdentityProvider
from tornado import web
from voila.app import Voila

DEFAULT_URL = "/voila/render/index.ipynb"  # the landing page, from the lessons folder


class HubIdentityProvider(JupyterHubIdentityProvider):  # type: ignore[misc]  # JupyterHub and Voila ship no types
    """JupyterHub's own identity provider, fitted to Voilà's server: its handlers
    (the OAuth callback, logout) under this server's prefix, and the hub's API token
    as its token (Voilà passes a token of its own, which is ignored)."""

    @property
    def token(self) -> str:
        return str(self.hub_auth.api_token)

    @token.setter
    def token(self, value: str) -> None:
        pass

    def get_handlers(self) -> list[tuple[Any, ...]]:
        prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/")
        return [(url_path_join(prefix, path), *rest) for path, *rest in super().get_handlers()]


class HubVoila(Voila):  # type: ignore[misc]  # JupyterHub and Voila ship no types
    """Voilà with the hub's default URL at the server's top address."""

    def init_handlers(self) -> list[tuple[Any, ...]]:
        handlers = super().init_handlers()
        default = os.environ.get("JUPYTERHUB_DEFAULT_URL") or DEFAULT_URL
        top = (url_path_join(self.server_url, "/?"), web.RedirectHandler,
               {"url": url_path_join(self.base_url, default)})
        return [top, *handlers]


def hub_arguments(environ: dict[str, str] | os._Environ[str]) -> list[str]:
    """Voilà's command-line settings from the variables the hub sets."""
    url = urlparse(environ["JUPYTERHUB_SERVICE_URL"])
    prefix = environ.get("JUPYTERHUB_SERVICE_PREFIX", "/")
    args = ["--no-browser", f"--Voila.ip={url.hostname or '127.0.0.1'}",
            f"--Voila.port={url.port or 8888}", "--Voila.port_retries=0",
            f"--Voila.base_url={prefix}",
            f"--Voila.identity_provider_class={__name__}.HubIdentityProvider",
            # One student's server: no pool of kernels warmed ahead for every page.
            # lessons/voila.json warms one (two for a table) for each of the lessons'
            # pages, for a whole class on one server; on a hub that is about 20 kernels
            # for each student (1.7 GB, against a 700 MB limit: deploy/values.yaml), and
            # a class of them fills the machine. A page's kernel starts when it is opened.
            "--VoilaConfiguration.preheat_kernel=False"]
    root = environ.get("JUPYTERHUB_ROOT_DIR")
    if root:
        args.append(f"--Voila.root_dir={root}")
    return args


def main(argv: Sequence[str] | None = None) -> None:
    if "JUPYTERHUB_SERVICE_URL" not in os.environ:
        sys.exit("mathcards.widgets.singleuser runs as a JupyterHub user's server: "
                 "JUPYTERHUB_SERVICE_URL is not set (start it from a hub)")
    extra = list(sys.argv[1:] if argv is None else argv)
    HubVoila.launch_instance([*hub_arguments(os.environ), *extra])


if __name__ == "__main__":
    main()
