"""A failure is named by one line: the first of an engine's rendering, the last of a traceback."""

from gg.outcome import failure_headline


def test_a_javascript_rendering_is_named_by_its_first_line() -> None:
    assert failure_headline("TypeError: x is undefined\n    at program.js:3:7") == "TypeError: x is undefined"


def test_a_python_traceback_is_named_by_its_exception_line() -> None:
    text = 'Traceback (most recent call last):\n  File "program.py", line 3\nValueError: boom\n'
    assert failure_headline(text) == "ValueError: boom"


def test_an_empty_text_has_an_empty_headline() -> None:
    assert failure_headline("\n  \n") == ""
