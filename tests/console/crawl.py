"""Walking the console the way a reader clicks through it: every link of every page, once.

`crawl` follows each same-site `href` (the static files and the live streams aside) from a start
page; `visit` opens one path and returns the page's HTML. Each link is returned with the page it
was found on, so a test can name where a broken one sits.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

HREF = re.compile(r'href="([^"]*)"')
SKIPPED = ("/static/",)


@dataclass(frozen=True)
class Link:
    page: str  # the path of the page it is on
    href: str  # as written, resolved against that page: a path, with its query and fragment

    @property
    def path(self) -> str:
        return self.href.split("#", 1)[0]

    @property
    def fragment(self) -> str | None:
        return self.href.split("#", 1)[1] if "#" in self.href else None


def links_of(page: str, text: str) -> list[Link]:
    """Every same-site link on the page at `page` (whose HTML is `text`)."""
    out: list[Link] = []
    for found in HREF.findall(text):
        written = html.unescape(found)
        href = urljoin(page, written)
        if urlsplit(written).netloc or href.startswith(SKIPPED) or _is_live(href):
            continue
        out.append(Link(page, href))
    return out


def _is_live(href: str) -> bool:
    path = href.split("?", 1)[0]
    return path == "/live" or path.endswith("/live")


def crawl(start: str, visit: Callable[[str], str]) -> tuple[dict[str, str], list[Link]]:
    """Every page reachable from `start` (path → its HTML) and every link found on them."""
    pages: dict[str, str] = {}
    links: list[Link] = []
    todo = [start]
    while todo:
        path = todo.pop()
        if path in pages:
            continue
        pages[path] = visit(path)
        found = links_of(path, pages[path])
        links.extend(found)
        todo.extend(link.path for link in found if link.path not in pages)
    return pages, links
