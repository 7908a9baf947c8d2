"""Where spans go and what they carry, read from the standard OpenTelemetry variables. Pure.

Rules:
- Nothing is exported unless asked: `gg run --otel`, `gg.run(otel=True)`, or `GG_OTEL` set to
  `1`, `true`, `yes` or `on` (any case); `--otel-content` (`otel_content=True`) asks too.
- Spans go over OTLP/HTTP to `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as written, else to
  `OTEL_EXPORTER_OTLP_ENDPOINT` with `/v1/traces` appended, else to `http://localhost:4318/v1/traces`;
  `OTEL_EXPORTER_OTLP_HEADERS` (`key=value,...`) are sent with them, as the exporter reads them.
- The resource is `OTEL_RESOURCE_ATTRIBUTES` (`key=value,...`, values percent-decoded) with
  `service.name` from `OTEL_SERVICE_NAME` (else that list's, else `gg`) and `service.version`
  gg's version.
- Message and program contents go out only with content asked for.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import unquote

from gg.otel.names import Conventions

GG_OTEL = "GG_OTEL"
TRUTHY = frozenset({"1", "true", "yes", "on"})
TRACES_ENDPOINT = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
ENDPOINT = "OTEL_EXPORTER_OTLP_ENDPOINT"
SERVICE_NAME = "OTEL_SERVICE_NAME"
RESOURCE_ATTRIBUTES = "OTEL_RESOURCE_ATTRIBUTES"
DEFAULT_ENDPOINT = "http://localhost:4318"
TRACES_PATH = "/v1/traces"
DEFAULT_SERVICE = "gg"


def asked(environ: Mapping[str, str], *, flag: bool = False, content: bool = False) -> bool:
    """Whether spans are to be exported at all."""
    return flag or content or environ.get(GG_OTEL, "").strip().lower() in TRUTHY


@dataclass(frozen=True)
class OtelSettings:
    endpoint: str
    content: bool = False
    conventions: Conventions = field(default_factory=Conventions)
    resource: dict[str, str] = field(default_factory=dict[str, str])

    @classmethod
    def from_environment(cls, environ: Mapping[str, str], *, content: bool = False) -> OtelSettings:
        return cls(
            endpoint=traces_endpoint(environ),
            content=content,
            conventions=Conventions.from_environment(environ),
            resource=resource_of(environ),
        )


def traces_endpoint(environ: Mapping[str, str]) -> str:
    if own := environ.get(TRACES_ENDPOINT, "").strip():
        return own
    base = environ.get(ENDPOINT, "").strip() or DEFAULT_ENDPOINT
    return base.rstrip("/") + TRACES_PATH


def resource_of(environ: Mapping[str, str]) -> dict[str, str]:
    from gg.version import __version__

    attributes: dict[str, str] = {}
    for item in environ.get(RESOURCE_ATTRIBUTES, "").split(","):
        key, equals, value = item.partition("=")
        if equals and key.strip():
            attributes[key.strip()] = unquote(value.strip())
    service = environ.get(SERVICE_NAME, "").strip() or attributes.get("service.name") or DEFAULT_SERVICE
    return {**attributes, "service.name": service, "service.version": __version__}
