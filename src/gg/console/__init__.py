"""The console: a local web app reading every run in a run store (`gg console`)."""

from __future__ import annotations

from gg.console.app import create_app

__all__ = ["create_app"]
