"""`gg.replay`: a stored run played again through the real turn loop and held against its record,
as `gg replay --verify RUN` does (`gg.playback`).

- `run` names the run as `gg show` does (an id, a unique prefix of one, `latest`); `store` is the
  folder whose `.gg/` keeps it (the working directory by default), or the `runs.db` file itself.
- `fingerprint` is `"exact"`, `"shape"` or `"none"`; by default `exact` for a run of one agent and
  `shape` for a run of many.
- It returns a `gg.Verdict` (`faithful`, or the first divergence, and `said()`, the line `gg
  replay --verify` prints); a run that cannot be played (not in the store, recorded without
  `record=`, a capability set that no longer loads) raises `gg.Unverifiable`, saying why.
- Playing a stored run back is only done to verify it: `verify` must be True (a journal is
  replayed with `gg.run(config, journal=...)`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gg.playback.verdict import Verdict


def replay(
    run: str = "latest",
    *,
    verify: bool = False,
    store: str | Path | None = None,
    fingerprint: str | None = None,
) -> Verdict:
    """Play the stored run `run` again and return its verdict (this module's documentation says
    more of each argument). Raises `gg.Unverifiable`, or `ValueError` for a wrong argument."""
    from gg.playback.fingerprint import Fingerprint
    from gg.playback.verify import verify_run
    from gg.telemetry.location import store_location

    if not verify:
        raise ValueError("gg.replay plays a stored run back to verify it: pass verify=True")
    modes = [m.value for m in Fingerprint]
    if fingerprint is not None and fingerprint not in modes:
        raise ValueError(f"fingerprint must be one of {', '.join(modes)}, not {fingerprint!r}")
    where = store_location(store, base=Path.cwd())
    return verify_run(where, run, None if fingerprint is None else Fingerprint(fingerprint))
