"""What a workspace path may be, and how each refusal of one reads: values only, touching nothing.

- Bounds: 4096 UTF-8 bytes, 64 components, 255 bytes a component, no character a heading may not
  hold (`first_heading_unsafe`: NUL, controls, bidi, unpaired surrogates). They are checked
  before anything is folded or touched.
- A path is well-formed Unicode: a lone surrogate is refused, and so is U+FFFD, the character
  that stands where one was not well-formed (the Python engine reads a lone surrogate a program
  wrote as U+FFFD, and a listing shows a name that is not UTF-8 with it), so a path never names
  a file other than the one the program meant. Every file operation folds its path here.
- A file's path is not written as a directory's: one ending in `/` (or `/.`) is refused before
  anything is read, made or written.
- A refusal is a `PathRefusal` carrying an `ErrorCode` and one sentence that quotes the path as
  the program wrote it (escaped, at most 200 characters: `quote_path`), never a host path or a
  link's target, and never the operating system's own words about file names.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable

from gg import prompts
from gg.errors import ErrorCode
from gg.state.refusal import PlainRefusal
from gg.wire import escaped, first_heading_unsafe

MAX_PATH_BYTES = 4096
MAX_PATH_DEPTH = 64
MAX_NAME_BYTES = 255
MAX_LINK_HOPS = 40
MAX_QUOTED_CHARS = 200
REPLACEMENT_CHARACTER = "\ufffd"


class PathRefusal(PlainRefusal):
    """A path the call may not use; the SDK turns it into an `ApiError` for its operation."""


def quote_path(text: str) -> str:
    """The path as the program wrote it, for a message: characters a heading may not hold are
    escaped (`\\u000a`), and past 200 characters it is cut with a count of what was dropped."""
    shown = text[:MAX_QUOTED_CHARS]
    dropped = len(text) - len(shown)
    return f"`{escaped(shown)}`" + (f" (and {dropped} more characters)" if dropped else "")


def components(path: str) -> list[str]:
    return [part for part in path.split("/") if part not in ("", ".")]


def check_bounds(path: str) -> None:
    """Refuse an empty, over-long, over-deep or unsafe path before anything else looks at it."""
    if path == "":
        raise PathRefusal(ErrorCode.INVALID_ARGUMENT, "`path` is empty")
    if len(path) > MAX_PATH_BYTES:  # more characters than bytes allowed: no need to encode
        raise too_long(path)
    unsafe = first_heading_unsafe(path)
    if unsafe is not None:
        raise unsafe_character(path, unsafe)
    if REPLACEMENT_CHARACTER in path:
        raise ill_formed(path, path.index(REPLACEMENT_CHARACTER))
    if len(path.encode("utf-8")) > MAX_PATH_BYTES:
        raise too_long(path)
    names = [part for part in path.split("/") if part]
    if len(names) > MAX_PATH_DEPTH:
        raise too_deep(path)
    if any(len(name.encode("utf-8")) > MAX_NAME_BYTES for name in names):
        raise name_too_long(path)


def check_file_form(path: str) -> None:
    """Refuse a file's path written as a directory's: one ending in `/` (or `/.`)."""
    tail = next((end for end in ("/", "/.") if path.endswith(end)), None)
    if tail is not None:
        predicate = prompts.render("path-directory-form", tail=tail)
        raise refuse(ErrorCode.INVALID_ARGUMENT, path, predicate)


def from_os_error(written: str, error: OSError) -> PathRefusal:
    """Translate an OS failure on a path inside the workspace; the message never carries the OS's
    own text about file names."""
    refuse = REFUSAL_BY_ERRNO.get(error.errno or 0)
    if refuse is not None:
        return refuse(written)
    return unusable(written, os.strerror(error.errno) if error.errno else "unknown error")


def refuse(code: ErrorCode, written: str, predicate: str) -> PathRefusal:
    return PathRefusal(code, f"{quote_path(written)} {predicate}")


def outside(written: str) -> PathRefusal:
    return refuse(ErrorCode.INVALID_ARGUMENT, written, "is outside the workspace")


def too_long(written: str) -> PathRefusal:
    return refuse(ErrorCode.INVALID_ARGUMENT, written, f"is longer than {MAX_PATH_BYTES} bytes")


def too_deep(written: str) -> PathRefusal:
    return refuse(ErrorCode.INVALID_ARGUMENT, written, f"is more than {MAX_PATH_DEPTH} levels deep")


def name_too_long(written: str) -> PathRefusal:
    predicate = f"has a component longer than {MAX_NAME_BYTES} bytes"
    return refuse(ErrorCode.INVALID_ARGUMENT, written, predicate)


def unsafe_character(written: str, index: int) -> PathRefusal:
    char = ord(written[index])
    if 0xD800 <= char <= 0xDFFF:
        return ill_formed(written, index)
    predicate = f"holds U+{char:04X} at index {index}; a path may not hold control or bidi characters"
    return refuse(ErrorCode.INVALID_ARGUMENT, written, predicate)


def ill_formed(written: str, index: int) -> PathRefusal:
    """A lone surrogate, or the U+FFFD that stands for one, at `index`."""
    char = ord(written[index])
    template = "path-lone-surrogate" if 0xD800 <= char <= 0xDFFF else "path-replacement-character"
    predicate = prompts.render(template, char=f"U+{char:04X}", index=index)
    return refuse(ErrorCode.INVALID_ARGUMENT, written, predicate)


def too_many_links(written: str) -> PathRefusal:
    return refuse(ErrorCode.INVALID_ARGUMENT, written, f"passes through more than {MAX_LINK_HOPS} links")


def missing(written: str) -> PathRefusal:
    return refuse(ErrorCode.NOT_FOUND, written, "does not exist")


def is_directory(written: str) -> PathRefusal:
    return refuse(ErrorCode.INVALID_ARGUMENT, written, "is a directory")


def not_directory(written: str) -> PathRefusal:
    return refuse(ErrorCode.INVALID_ARGUMENT, written, "is not a directory")


def parent_not_directory(written: str) -> PathRefusal:
    return refuse(ErrorCode.INVALID_ARGUMENT, written, "runs through a file that is not a directory")


def not_regular(written: str) -> PathRefusal:
    return refuse(ErrorCode.INVALID_ARGUMENT, written, "is not a regular file")


def too_many_entries(written: str, cap: int) -> PathRefusal:
    return refuse(
        ErrorCode.LIMIT_EXCEEDED, written, f"holds more than {cap} entries, more than a listing reads"
    )


def unusable(written: str, reason: str) -> PathRefusal:
    return refuse(ErrorCode.IO_ERROR, written, f"could not be used: {reason}")


REFUSAL_BY_ERRNO: dict[int, Callable[[str], PathRefusal]] = {
    errno.ENOENT: missing,
    errno.ENOTDIR: missing,
    errno.EISDIR: is_directory,
    errno.ELOOP: too_many_links,
    errno.ENXIO: not_regular,
    errno.ENODEV: not_regular,
    errno.ENAMETOOLONG: too_long,
}
