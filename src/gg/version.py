"""gg's version: the one place it is written (the build reads it here, `gg --version` and the
OpenTelemetry scope name it)."""

__version__ = "0.1.0"
