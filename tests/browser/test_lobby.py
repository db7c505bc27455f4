"""The lobby (``/``): live tables to watch, tables waiting for players to join, ended tables
to replay, and the create-table form built from ``GET /games``: each option's label shown, its
rule as its tooltip. The OpenAPI browser (``/schema/swagger``) works offline: its assets come
from the package."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser

from tests.browser.server import CardroomServer


def test_the_lobby_lists_live_waiting_and_ended_tables_and_creates_one(
    server: CardroomServer, browser: Browser, artifacts: Path
) -> None:
    live = server.open_table("bourre", {"seats": 2})
    for name in ("Ann", "Bob"):
        server.sit(live, name)
    waiting = server.open_table("burraco", {"players": 2})
    server.sit(waiting, "Cy")
    closing = server.open_table("bourre", {"seats": 3})
    token = server.sit(closing, "Di")

    page = browser.new_page(viewport={"width": 1100, "height": 1200})
    page.goto(server.base + "/")
    page.wait_for_selector(f"#live-tables tr[data-table='{live}'] a[href='/watch/{live}']")
    page.wait_for_selector(f"#waiting-tables tr[data-table='{waiting}'] a[href='/play/{waiting}']")
    assert "Ann, Bob" in page.inner_text(f"#live-tables tr[data-table='{live}']")
    # A table that has ended is offered for replay (the lobby lists ended tables too).
    page.wait_for_selector(f"#waiting-tables tr[data-table='{closing}']")
    server.act(closing, token, {"type": "close_table"})
    replay = f"a[href='/watch/{closing}?at=1']"
    page.wait_for_selector(f"#ended-tables tr[data-table='{closing}'] {replay}")

    # The form shows the chosen game's options as GET /games lists them, each with its label
    # shown and its rule as the tooltip.
    page.select_option("form.create select[name=game]", "burraco")
    listed = {entry["game"]: entry for entry in server.http.get("/games").json()}
    offered = page.eval_on_selector_all("form.create fieldset [name]", "ns => ns.map(n => n.name)")
    assert offered == [f"opt-{option['name']}" for option in listed["burraco"]["options"]]
    page.click("form.create details.all-options > summary")  # the fold of every option
    target = page.locator("label:has(input[name=opt-target])")
    assert "Rule 27" in (target.get_attribute("title") or "")
    assert "Points that win the match" in target.inner_text()
    page.fill("input[name=opt-target]", "3000")
    page.screenshot(path=str(artifacts / "lobby.png"), full_page=True)
    page.click("form.create button[type=submit]")
    page.wait_for_url("**/play/*")
    created = page.url.rsplit("/", 1)[1]
    options = server.view(created)["options"]
    assert options["target"] == 3000 and options["players"] == 4
    page.close()


def test_the_openapi_browser_loads_nothing_from_another_host(
    server: CardroomServer, browser: Browser
) -> None:
    page = browser.new_page()
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(server.base + "/schema/swagger")
    page.wait_for_selector(".swagger-ui .info .title:has-text('cardroom')")
    assert requested and all(url.startswith(server.base) for url in requested), requested
    html = server.http.get("/schema/swagger").text
    assert "https://" not in html and "http://" not in html  # every asset URL is local
    page.close()
