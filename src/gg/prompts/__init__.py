"""Every sentence the model reads lives here, as a Jinja2 template under `templates/`.

`render(template, **values)` renders `templates/<template>.j2`; a missing value is an error, never an
empty string. Each template is pinned by a test, so a change of wording is a visible change.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import jinja2

__all__ = ["render"]


@cache
def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("gg.prompts", "templates"),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=False,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )


def render(template: str, /, **values: Any) -> str:
    """Render one wording. Raises `jinja2.TemplateNotFound` or `jinja2.UndefinedError`."""
    return _environment().get_template(f"{template}.j2").render(**values).strip("\n")
