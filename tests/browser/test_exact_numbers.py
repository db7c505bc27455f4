"""Every number on the page is exact: Bourré chips without a pot limit can pass 2^53 (rule 25
compounds the pot), so the page parses large integers as BigInt. The test feeds the watch
page such a table by rewriting the API's answers on their way to the browser."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Browser, Route

from tests.browser.server import CardroomServer

POT = 2**53 + 1  # 9007199254740993: a float would show ...992
NETS = [2**65, -(2**64) - 7, 2**64 + 7 - 2**65]


def grouped(n: int) -> str:
    return f"{abs(n):,}"


def test_chips_past_two_to_the_53_are_shown_exactly(
    server: CardroomServer, browser: Browser
) -> None:
    table = server.open_table("bourre", {"seats": 3}, seed=3)
    tokens = {seat: server.sit(table, name) for seat, name in enumerate(["Ann", "Bob", "Cy"])}
    while server.view(table)["hand"] == 1:
        server.play(table, tokens, 1)

    def rich(route: Route) -> None:
        answer = route.fetch()
        body: Any = answer.json()
        if "/ledger" in route.request.url:
            body["pot"] = POT
            for player, net in zip(body["players"], NETS, strict=True):
                player["net"] = net
        elif isinstance(body, dict) and "pot" in body:
            body["pot"] = POT
            for seat, net in zip(body["seats"], NETS, strict=True):
                seat["net"] = net
        route.fulfill(response=answer, body=json.dumps(body))

    page = browser.new_page()
    page.route(f"**/tables/{table}/replay*", rich)
    page.route(f"**/tables/{table}/ledger*", rich)
    page.goto(f"{server.base}/watch/{table}")
    page.wait_for_selector(".oval .pot .amount")
    assert page.inner_text(".pot .amount") == grouped(POT)
    for seat, net in enumerate(NETS):
        sign = "+" if net > 0 else "−"
        assert page.inner_text(f"[data-seat='{seat}'] .net") == f"net {sign}{grouped(net)}"
    page.wait_for_selector(".legend li")
    legend = page.inner_text(".legend")
    assert f"Ann: +{grouped(NETS[0])} now" in legend
    assert f"Bob: −{grouped(NETS[1])} now" in legend
    page.close()
