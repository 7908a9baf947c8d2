"""What every object of a capability set is (`Part`): frozen, keyed camelCase in the document,
unknown keys refused; and a capability's `enabled` switch (`Enabled`), true unless written."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict

from gg.config.values import Flag
from gg.wire import camel


class Part(BaseModel):
    """Every object in a capability set: frozen, camelCase keys, unknown keys refused."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, alias_generator=camel, field_title_generator=lambda name, _: camel(name)
    )


Enabled = Annotated[bool, Flag()]
