"""Browser tests: Debian's Chromium (``/usr/bin/chromium``) driven by Playwright against a real
``cardroom serve`` on embedded defaults (a subprocess in a temp dir, on a free port).

Every test here is marked ``browser``. A missing Chromium is a failure that says how to
install it (``apt-get install -y chromium``) or to deselect these tests (``-m "not browser"``);
Playwright's own browser download is not used. Screenshots go to ``tests/browser/artifacts/``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.server import CardroomServer

CHROMIUM = Path(os.environ.get("CARDROOM_CHROMIUM", "/usr/bin/chromium"))
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test here that drives the browser or the server is marked ``browser``."""
    for item in items:
        uses = set(getattr(item, "fixturenames", ())) & {"browser", "page", "server"}
        if uses and Path(str(item.path)).resolve().is_relative_to(HERE):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright launches Debian's Chromium, never a downloaded browser."""
    if not CHROMIUM.exists():
        pytest.fail(
            f"Chromium not found at {CHROMIUM}: install it with `apt-get install -y chromium` "
            "(Debian), set CARDROOM_CHROMIUM to its path, or deselect the browser tests with "
            "`-m 'not browser'`",
            pytrace=False,
        )
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM)}


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CardroomServer]:
    """One ``cardroom serve`` per test session (per xdist worker), stacked decks allowed."""
    with CardroomServer(tmp_path_factory.mktemp("cardroom-serve")) as running:
        yield running


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
