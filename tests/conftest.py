"""What every test may ask for: the real arms, shared by the whole session, and the guest agent of
`guest_world` over them.

A test module says which arm its tests get as `arm` with the `arms` marker, naming languages and,
for a world with its own operations, the function that builds its registry:

    pytestmark = pytest.mark.arms("javascript", "typescript")          # the real SDK
    pytestmark = pytest.mark.arms("python", registry=pyworld.registry)  # a world's own SDK

Every test that takes `arm` then runs once per language named. One arm per language and registry
serves the whole session (a program runs in a fresh guest scope, so programs share nothing); it is
built on first use and closed at the session's end; a test that picks its arm as it runs asks the
session's `arms` shelf (`arms.get("python")`). A test that needs a fresh or specially configured
arm, or closes it, builds its own.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from gg.sandbox.execution import Arm
from gg.sdk.catalogue import default_registry
from gg.telemetry.location import StoreLocation, parse_store_url
from support.guest_world import GuestAgent, csv_agent
from support.postgres_server import PostgresServer
from support.shared_arms import ArmShelf, ArmSpec


def pytest_configure(config: pytest.Config) -> None:
    # Run as a background job of a script, the suite starts with Ctrl-C ignored, and every `gg` it
    # starts would inherit that and rightly keep ignoring it, so the tests that send SIGINT would
    # see it ignored. A handler (not "ignore") is never inherited: each `gg` starts with the default.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    config.addinivalue_line(
        "markers", "arms(*languages, registry=default_registry): the shared arms a module's `arm` runs on"
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "arm" not in metafunc.fixturenames or metafunc.definition.get_closest_marker("arms") is None:
        return
    marker = metafunc.definition.get_closest_marker("arms")
    assert marker is not None
    builder = marker.kwargs.get("registry", default_registry)
    specs = [ArmSpec(language, builder) for language in marker.args]
    metafunc.parametrize("arm", specs, indirect=True, ids=[spec.language for spec in specs])


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """One real PostgreSQL server for the session (`postgres_server`), stopped at its end."""
    server = PostgresServer()
    yield server
    server.stop()
    server.remove()


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    """Each store test runs on both of the run store's databases."""
    return str(request.param)


@pytest.fixture
def store_at(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> StoreLocation:
    """A new, empty run store of the test's backend (its local files under `tmp_path/.gg/`)."""
    if backend == "sqlite":
        return parse_store_url(tmp_path, base=tmp_path)
    server: PostgresServer = request.getfixturevalue("postgres")
    return parse_store_url(server.fresh_database(), base=tmp_path)


@pytest.fixture(scope="session")
def arms() -> Iterator[ArmShelf]:
    shelf = ArmShelf()
    yield shelf
    shelf.close()


@pytest.fixture
def arm(request: pytest.FixtureRequest, arms: ArmShelf) -> Arm:
    """The shared arm the module's `arms` marker names (see above)."""
    spec = getattr(request, "param", None)
    assert isinstance(spec, ArmSpec), f"{request.node.nodeid}: mark the module with pytest.mark.arms(...)"
    return arms.get(spec.language, spec.registry)


@pytest.fixture
def agent(arm: Arm, tmp_path: Path) -> GuestAgent:
    """A guest agent on `arm` over the spec workspace, with the CSV skill in the arm's language."""
    return csv_agent(arm, tmp_path)
