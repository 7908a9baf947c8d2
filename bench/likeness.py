"""Measure how far the Python arm runs what models write like CPython, construct by construct: the
constructs issue 27 names (methods taken as values, generator expressions, `asyncio`, `bytes`,
`float.is_integer`, the `latin-1` codec, `ast.literal_eval`, a non-finite float at the membrane).

Run as `.venv/bin/python bench/likeness.py`. Each construct is a small program that prints what it
computed; it runs on the real Python arm (Monty) and in this CPython, and the two printouts are
compared. The membrane has no CPython answer: its row holds the refusal gg promises instead. Target:
every construct runs like CPython, or the prompt's statement of the Python subset names it (an
engine limit), so the model does not write it. Prints each construct, the count like CPython and
whether the target is met.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import io
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gg.config.ceilings import Ceilings
from gg.errors import ErrorCode, OperationError
from gg.prompts import render
from gg.sandbox.arms.python import PythonArm
from gg.sdk.registry import Always, Operation, Param, ParamType, Registry

CEILINGS = Ceilings(timeout_secs=30.0, max_memory_bytes=256 * 1024 * 1024)
D = 'd = {"a": 3, "b": 7, "c": 5}\n'
GATHER = (
    "import asyncio\norder = []\n\n\nasync def task(name):\n    order.append(name + '1')\n"
    "    await asyncio.sleep(SECS)\n    order.append(name + '2')\n\n\n"
    "async def main():\n    await asyncio.gather(task('a'), task('b'))\n\n\n"
    "asyncio.run(main())\nprint(order)\n"
)


@dataclass(frozen=True)
class Construct:
    """A program that prints what it computed; `named` is what the subset statement says of it when
    the engine lacks it; `promised` replaces CPython's answer where CPython has none."""

    label: str
    program: str
    named: str | None = None
    promised: str | None = None


CONSTRUCTS = (
    Construct("bound method as a key", D + "print(max(d, key=d.get))", "`max(d, key=d.get)`"),
    Construct(
        "unbound method as a function",
        'print(list(filter(str.isdigit, "a1b22c3")))',
        "`filter(str.isdigit, s)`",
    ),
    Construct("hasattr of a method", D + 'print(hasattr(d, "items"))', '`hasattr(d, "items")` is `False`'),
    Construct(
        "next over a generator expression",
        "print(next(x for x in [5, 6, 7] if x > 5))",
        "`next(x for x in xs)`",
    ),
    Construct("gather interleaves at a sleep", GATHER.replace("SECS", "0.01")),
    Construct(
        "asyncio.sleep(0) is a scheduling point",
        GATHER.replace("SECS", "0"),
        "`await asyncio.sleep(0)` lets no",
    ),
    Construct("bytes from numbers", "print(bytes([104, 105]))", "`bytes([104, 105])`"),
    Construct("float.is_integer", "print((2.0).is_integer(), (2.5).is_integer())", "`float.is_integer`"),
    Construct("the latin-1 codec", 'print("é".encode("latin-1"))', "(no `latin-1`)"),
    Construct(
        "ast.literal_eval", "import ast\nprint(ast.literal_eval(\"[1, (2, 3), {'a': None}]\"))", "`ast`, `io`"
    ),
    Construct(
        "float('inf') at the membrane",
        'import gg\ntry:\n    gg.probe.echo({"x": float("inf")})\nexcept OSError as e:\n    print(e)\n',
        promised='echo: invalid-argument: `value["x"]` must be a finite number, got inf',
    ),
)


def registry() -> Registry:
    echo = Operation("probe", "echo", (Param("value", ParamType.ANY),), "unknown", "echo", Always(), _unused)
    return Registry([echo])


def _unused(scope: Any, args: Mapping[str, Any]) -> None:
    return None


def echo_host(operation: str, args: Mapping[str, Any]) -> Any:
    if operation != "probe.echo":
        raise OperationError(operation, ErrorCode.UNAVAILABLE, "only probe.echo is served")
    return args.get("value")


def in_cpython(program: str) -> str:
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(program, "program.py", "exec"), {"__name__": "__main__"})
    except Exception as error:
        return f"{type(error).__name__}: {error}"
    return out.getvalue().rstrip("\n")


def on_the_arm(arm: PythonArm, program: str) -> str:
    execution = arm.run(program, echo_host, CEILINGS)
    if execution.failure is not None:
        return execution.failure.text.splitlines()[-1]
    return "\n".join(execution.logs)


def main() -> int:
    subset = render("arm-python")
    arm = PythonArm(registry())
    version = importlib.metadata.version("pydantic-monty")
    print(f"The Python arm (pydantic-monty {version}) against CPython {sys.version.split()[0]}:")
    alike = named = 0
    try:
        for construct in CONSTRUCTS:
            wanted = construct.promised or in_cpython(construct.program)
            got = on_the_arm(arm, construct.program)
            if got == wanted:
                alike += 1
                kept = "as promised" if construct.promised else "like CPython"
                print(f"  {kept:<14} {construct.label:<40} {got}")
                continue
            said = construct.named is not None and construct.named in subset
            named += said
            verdict = "named by the prompt's subset statement" if said else "NOT NAMED by the prompt"
            source = "promised" if construct.promised else "CPython"
            print(f"  engine limit   {construct.label:<40} {source} {wanted!r}, arm {got!r}: {verdict}")
    finally:
        arm.close()
    total = len(CONSTRUCTS)
    met = alike + named == total
    print(f"like CPython (or as promised): {alike} of {total}")
    print(f"engine limits named in the prompt: {named} of {total - alike}")
    print(f"target (each construct like CPython, or named in the prompt): {'met' if met else 'NOT met'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
