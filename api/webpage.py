"""One web page's HTML: the shell (``api/web/page.html``) loading one ES module. Shared by the
card room's pages (:mod:`api.routes.pages`) and the pages of profiles and leaderboards
(:mod:`api.routes.ratings`)."""

from __future__ import annotations

from pathlib import Path
from string import Template

from litestar import MediaType, Response

WEB_DIR = Path(__file__).resolve().parent / "web"
STATIC = "/static"
_SHELL = Template((WEB_DIR / "page.html").read_text(encoding="utf-8"))


def page(title: str, module: str) -> Response[str]:
    """The shell titled ``title`` running ``/static/js/<module>``. The page's name (the module's
    stem) is ``<html data-page>``: ``i18n.js`` titles the page with ``core.page.<name>`` in the
    reader's language (design §5, "Languages")."""
    name = module.removesuffix(".js")
    html = _SHELL.substitute(title=title, module=f"{STATIC}/js/{module}", static=STATIC, page=name)
    return Response(html, media_type=MediaType.HTML)


def wants_html(accept: str) -> bool:
    """Whether a request's ``Accept`` asks for a page (a browser navigating) over JSON."""
    return "text/html" in accept
