"""The browsable API docs, ``/docs`` (Swagger UI) and ``/redoc``, that work offline: FastAPI's own
pages load their scripts and styles from a CDN, these load them from the ``fastapi_offline``
package (its ``static`` folder: Swagger UI's and ReDoc's bundles), served here. This is
FastAPI's documented way ("Custom Docs UI Static Assets"): ``docs_url=None``, then pages built
by ``get_swagger_ui_html`` / ``get_redoc_html`` naming local files."""

from __future__ import annotations

from pathlib import Path

import fastapi_offline
from fastapi import FastAPI, Request
from fastapi.openapi.docs import (
    get_redoc_html,
    get_swagger_ui_html,
    get_swagger_ui_oauth2_redirect_html,
)
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

ASSETS = Path(fastapi_offline.__file__).parent / "static"
AT = "/api-docs"  # where the assets are served


def install(app: FastAPI) -> None:
    """``/docs``, ``/redoc`` and their assets on ``app`` (made with ``docs_url=None,
    redoc_url=None``). Before any mount at ``/``: that would answer their paths first."""
    app.mount(AT, StaticFiles(directory=ASSETS), name="api-docs")
    redirect = app.swagger_ui_oauth2_redirect_url or "/docs/oauth2-redirect"

    @app.get("/docs", include_in_schema=False)
    async def swagger(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return get_swagger_ui_html(
            openapi_url=f"{root}{app.openapi_url}",
            title=f"{app.title} API",
            oauth2_redirect_url=f"{root}{redirect}",
            swagger_js_url=f"{root}{AT}/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{AT}/swagger-ui.css",
            swagger_favicon_url=f"{root}{AT}/favicon.png",
            # no badge that sends the schema to swagger.io's online validator
            swagger_ui_parameters={"validatorUrl": None},
        )

    @app.get(redirect, include_in_schema=False)
    async def swagger_redirect() -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()

    @app.get("/redoc", include_in_schema=False)
    async def redoc(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return get_redoc_html(
            openapi_url=f"{root}{app.openapi_url}",
            title=f"{app.title} API",
            redoc_js_url=f"{root}{AT}/redoc.standalone.js",
            redoc_favicon_url=f"{root}{AT}/favicon.png",
            with_google_fonts=False,
        )
