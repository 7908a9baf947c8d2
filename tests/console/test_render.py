"""Every template escapes: the environment autoescapes and no template marks text safe."""

from __future__ import annotations

import re

from gg.console.render import TEMPLATES, environment, money, size


def test_the_environment_autoescapes_every_template():
    env = environment()
    rendered = env.from_string("{{ text }}").render(text='<script>alert(1)</script>"><img onerror=x>')
    assert rendered == "&lt;script&gt;alert(1)&lt;/script&gt;&#34;&gt;&lt;img onerror=x&gt;"


def test_no_template_marks_text_safe_or_turns_escaping_off():
    unsafe = re.compile(r"\|\s*safe\b|autoescape\s+false|Markup\(")
    templates = sorted(TEMPLATES.rglob("*.html"))
    assert len(templates) > 15
    for template in templates:
        assert not unsafe.search(template.read_text(encoding="utf-8")), template.name


def test_figures_read_as_gg_show_prints_them():
    assert money(0.0123456) == "$0.0123" and money(None) == "—"
    assert size(940, "chars") == "940 chars" and size(12_345, "tokens") == "12.3k tokens"
