"""What a test program keeps of each SDK call it tries, written once for each arm.

`seen` holds one line a call: `label ok`, or what its refusal said, in the form `shown` names:
- `message`: `label <code>: <message>`;
- `code-operation`: `label <code> <operation>`;
- `operation`: `label <operation>`.
The helper is called `name` (`attempt` unless told); a program prints `seen` at its end.
"""

from __future__ import annotations

JS_SEEN = "const seen = [];\n"
PY_SEEN = "seen = []\n"
_JS_SHOWN = {
    "message": "`${label} ${e.code}: ${e.message}`",
    "code-operation": "`${label} ${e.code} ${e.operation}`",
    "operation": "`${label} ${e.operation}`",
}
_PY_SHOWN = {
    "message": 'd.code + ": " + d.message',
    "code-operation": 'd.code + " " + d.operation',
    "operation": "d.operation",
}


def js_attempt(shown: str = "message", name: str = "attempt") -> str:
    """The JavaScript helper: `name(label, () => call)`."""
    return (
        f"const {name} = (label, f) => {{\n"
        f"  try {{ f(); seen.push(`${{label}} ok`); }} catch (e) {{ seen.push({_JS_SHOWN[shown]}); }}\n"
        "};\n"
    )


def py_attempt(shown: str = "message", name: str = "attempt") -> str:
    """The Python helper: `name(label, lambda: call)`; the program imports `gg`."""
    return (
        f"def {name}(label, f):\n"
        "    try:\n"
        "        f()\n"
        '        seen.append(label + " ok")\n'
        "    except gg.ApiError as e:\n"
        "        d = gg.core.details(e)\n"
        f'        seen.append(label + " " + {_PY_SHOWN[shown]})\n'
    )
