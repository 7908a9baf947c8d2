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


TROJAN = "harmless \u202etxt.exe \u2066x\u2069 \x1b[31m \x00 \x85 \u2028"
TROJAN_SHOWN = "harmless \ufffdtxt.exe \ufffdx\ufffd \u241b[31m \u2400 \ufffd \ufffd"


class _Named:
    def __str__(self) -> str:
        return TROJAN


def test_every_kind_of_field_a_template_prints_shows_control_and_bidi_characters_as_gg_show_does():
    """Text, an attribute, a title, a filter's and a macro's output, a join, a concatenation, an
    object's text, a program listing, a diff and a message: each shows U+202E as U+FFFD and ESC
    as its picture, as `gg show` prints them (`gg.wire.printable`)."""
    env = environment()
    page = env.from_string(
        '{% from "parts.html" import source, diff, message, figure %}'
        "<title>{{ t }}</title>|{{ t }}|<a title=\"{{ t }}\" href=\"#{{ t }}\">{{ t|replace('x', 'y') }}</a>"
        "|{{ [t, t]|join(', ') }}|{{ 'a ' ~ t }}|{{ named }}|{{ t|truncate(400) }}|{{ figure(t, t) }}"
        "|{{ source(t + '\\n' + t) }}|{{ diff(['+' + t, '-' + t]) }}|{{ message(msg) }}"
    ).render(
        t=TROJAN,
        named=_Named(),
        msg={"role": "user", "content": TROJAN, "tool_calls": [], "tool_call_id": ""},
    )
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u202e\u2066\u2069]", page)
    shown = TROJAN_SHOWN
    assert page.count(shown) >= 10
    assert f'title="{shown}"' in page and f"<title>{shown}</title>" in page
    assert f'<span class="line">{shown}</span>' in page and f'<span class="add">+{shown}</span>' in page


def test_a_page_keeps_newlines_and_tabs_and_escapes_what_it_pictures():
    rendered = environment().from_string("{{ t }}").render(t="a\tb\nc<\u202e>")
    assert rendered == "a\tb\nc&lt;\ufffd&gt;"
