"""The browser's shuffle check (web/js/verify.js, served as /static/js/verify.js): in headless
Chromium on 127.0.0.1 (a secure context, so SubtleCrypto is there) it re-derives the
documented vectors of docs/shuffle.md, verifies an honest hand against the cards a seat saw,
flags a tampered deck, seed, commitment and entropy, and without SubtleCrypto says how to
verify with the command."""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from tablekit import ServerProcess, Table, play_until

from spades.engine import (
    CODE_OF,
    PRESETS,
    PassCards,
    Play,
    add_entropy,
    apply,
    legal_actions,
    new_game,
    record_of,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

DOC = Path(__file__).resolve().parents[2] / "docs" / "shuffle.md"
MODULE = "/static/js/verify.js"


def vectors() -> dict[str, Any]:
    blocks = re.findall(r"```json\n(.*?)```", DOC.read_text(), re.S)
    data: dict[str, Any] = json.loads(blocks[0])
    return data


def _open(page: Any, server: ServerProcess) -> None:
    """A page of the server's origin (the module itself), so that import() is same-origin."""
    page.goto(server.url.rstrip("/") + MODULE)
    assert page.evaluate("() => window.isSecureContext") is True


def test_the_documented_vectors_re_derive(page: Any, server: ServerProcess) -> None:
    _open(page, server)
    data = vectors()
    got = page.evaluate("""async ([module, data]) => {
        const v = await import(module);
        const lists = {cards: data.cards.split(" "), jokers_cards: data.jokers_cards.split(" ")};
        const decks = [];
        for (const c of data.decks) {
          decks.push((await v.shuffled(lists[c.cards], c.seed, c.contributions)).join(" "));
        }
        const seeds = [];
        for (const h of data.hand_seeds) {
          const seed = await v.handSeed(h.game_seed, h.hand);
          seeds.push({seed, commitment: await v.commitment(seed, h.salt),
                      plain: await v.commitment(seed, null, v.COMMIT_PLAIN),
                      deck: (await v.shuffled(lists.cards, seed)).join(" ")});
        }
        const salted = [];
        for (const c of data.commitments) salted.push(await v.commitment(c.seed, c.salt));
        return {decks, seeds, salted};
    }""", [MODULE, data])
    assert got["decks"] == [c["deck"] for c in data["decks"]]
    assert got["seeds"] == [{"seed": h["hand_seed"], "commitment": h["commitment"],
                             "plain": h["plain_commitment"], "deck": h["deck"]}
                            for h in data["hand_seeds"]]
    assert got["salted"] == [c["commitment"] for c in data["commitments"]]


def _hand() -> tuple[dict[str, Any], dict[str, Any]]:
    """A finished, revealed hand (with the players' entropy) and what seat 0 saw of it."""
    state = new_game(PRESETS["partnership"], seed="browser-verify")
    state = add_entropy(state, 1, ["alice", "bob"])
    rng = random.Random(4)
    while len(state.results) < 2:
        state = apply(state, rng.choice(legal_actions(state)))
    hand = record_of(state, reveal=True)["hands"][1]
    result = state.results[1]
    players = state.rules.players
    held = [card for i, card in enumerate(hand["deck"])
            if (result.dealer + 1 + i) % players == 0]
    seen = {"players": players, "dealer": result.dealer, "seat": 0, "held": held,
            "played": [[seat, CODE_OF[a.card]] for seat, a in result.actions
                       if isinstance(a, Play)],
            "passed": any(isinstance(a, PassCards) for _, a in result.actions)}
    assert hand["entropy"] == ["alice", "bob"] and len(seen["played"]) == 52
    return hand, seen


VERIFY = """async ([module, hand, seen]) => {
    const { verifyHand } = await import(module);
    return await verifyHand(hand, seen);
}"""


def test_an_honest_hand_is_verified_and_each_tampering_flagged(
        page: Any, server: ServerProcess) -> None:
    _open(page, server)
    hand, seen = _hand()
    honest = page.evaluate(VERIFY, [MODULE, hand, seen])
    assert honest["ok"] is True, honest
    assert honest["message"] == "shuffle verified"
    assert honest["deck"] == hand["deck"]

    deck = copy.deepcopy(hand)
    deck["deck"][0], deck["deck"][1] = deck["deck"][1], deck["deck"][0]
    cases: list[tuple[dict[str, Any], dict[str, Any], set[str]]] = [
        ({**hand, "commitment": hand["commitment"][::-1]}, seen, {"commitment"}),
        ({**hand, "salt": "0" * 32}, seen, {"commitment"}),
        ({**hand, "seed": hand["seed"][::-1]}, seen, {"commitment", "deck", "cards"}),
        ({**hand, "entropy": ["alice", "mallory"]}, seen, {"deck", "cards"}),
        (deck, seen, {"deck"}),  # the table dealt another deck than the revealed seed gives
    ]
    for tampered, saw, checks in cases:
        result = page.evaluate(VERIFY, [MODULE, tampered, saw])
        assert result["ok"] is False
        assert {p["check"] for p in result["problems"]} == checks, result["problems"]
        assert result["message"] != "shuffle verified"
    first, second = hand["deck"][0], hand["deck"][1]
    result = page.evaluate(VERIFY, [MODULE, deck, seen])
    names = page.evaluate("""async ([module, cards]) => {
        const v = await import(module); return cards.map(v.cardName); }""",
                          [MODULE, [first, second]])
    assert result["problems"][0]["message"] == (
        f"the deck does not match the revealed seed: card 1 should be {names[0]}, "
        f"the table dealt {names[1]}")

    # the seat saw a card played that the revealed seed dealt to someone else
    wrong = copy.deepcopy(seen)
    seat, card = wrong["played"][0]
    wrong["played"][0] = [(seat + 1) % 4, card]
    result = page.evaluate(VERIFY, [MODULE, hand, wrong])
    assert [p["check"] for p in result["problems"]] == ["cards"]
    assert f"seat {(seat + 1) % 4} played" in result["message"]


def test_without_subtle_crypto_it_says_how_to_verify(page: Any, server: ServerProcess) -> None:
    _open(page, server)
    hand, seen = _hand()
    result = page.evaluate("""async ([module, hand, seen]) => {
        const { verifyHand } = await import(module);
        return await verifyHand(hand, seen, { subtle: null });
    }""", [MODULE, hand, seen])
    assert result["ok"] is False and result["unavailable"] is True
    assert "spades verify RECORD.json" in result["message"]


def test_outside_a_secure_context_it_says_how_to_verify(page: Any) -> None:
    """A plain-http page under another name than localhost has no SubtleCrypto: the module
    says how to verify with the command. Chromium answers the page and the module from
    page.route (nothing leaves the machine)."""
    source = (Path(__file__).resolve().parents[2] / "src" / "spades" / "web" / "js"
              / "verify.js").read_text()

    def answer(route: Any) -> None:
        if route.request.url.endswith("/verify.js"):
            route.fulfill(body=source, content_type="text/javascript")
        else:
            route.fulfill(body="<!doctype html><title>table</title>", content_type="text/html")

    page.route("http://table.invalid/**", answer)
    page.goto("http://table.invalid/")
    assert page.evaluate("() => window.isSecureContext") is False
    hand, seen = _hand()
    result = page.evaluate(VERIFY, ["/verify.js", hand, seen])
    assert result["ok"] is False and result["unavailable"] is True
    assert "spades verify RECORD.json" in result["message"]


# ---------------------------------------------------------------- at the table

def _play_first_hand(table: Table) -> None:
    table.start(level="easy")
    play_until(table, lambda kind: kind == "hand-over")


def test_shuffle_verified(page: Any, server: ServerProcess) -> None:
    """A hand played at the table (Easy, no pace): the page gave entropy to the next hand's
    shuffle after its commitment was shown, and once the hand is over it checks the revealed
    seed against what it saw and says "Shuffle verified", in the live region and in the
    hand's summary."""
    sent: list[dict[str, Any]] = []
    page.on("websocket", lambda ws: ws.on(
        "framesent", lambda payload: sent.append(json.loads(payload))))
    table = Table(page, server.url)
    _play_first_hand(table)
    mark = page.locator("#over-body .shuffle-mark")
    mark.wait_for()
    page.wait_for_function(
        "() => document.querySelector('#over-body .shuffle-mark').dataset.status !== 'pending'")
    assert mark.get_attribute("data-status") == "verified", mark.inner_text()
    assert "Shuffle verified for hand 1" in mark.inner_text()
    assert "Shuffle verified for hand 1." in page.locator("#live").inner_text()
    # the page gave its entropy once a hand, for the next hand: hand 2's while hand 1 was
    # in play, and hand 2 is dealt with it
    given = [m for m in sent if m["type"] == "entropy"]
    assert [m["hand"] for m in given] in ([2], [2, 3]), given
    assert re.fullmatch(r"[0-9a-f]{32}", given[0]["value"])
    state = table.synced()
    assert state["view"]["hand_number"] == 2
    assert state["shuffle"]["revealed"]["hand"] == 1
    in_play = state["shuffle"]["committed"][0]
    assert in_play["hand"] == 2 and in_play["entropy"] == [given[0]["value"]]
    assert not [e for e in table.errors() if e.get("intent") != "entropy"]


def test_a_tampered_reveal_is_reported(page: Any, server: ServerProcess) -> None:
    """The server's reveal is changed on its way to the page (another seed): the page says
    the shuffle did not match, and why."""

    def route(ws: Any) -> None:
        upstream = ws.connect_to_server()

        def from_server(message: Any) -> None:
            data = json.loads(message)
            revealed = (data.get("shuffle") or {}).get("revealed")
            if revealed:
                revealed["seed"] = "0" * 64
            ws.send(json.dumps(data))

        upstream.on_message(from_server)

    page.route_web_socket(re.compile(r".*/ws/games/.*"), route)
    table = Table(page, server.url)
    _play_first_hand(table)
    page.wait_for_function(
        "() => { const m = document.querySelector('#over-body .shuffle-mark');"
        " return m && m.dataset.status !== 'pending'; }")
    mark = page.locator("#over-body .shuffle-mark")
    text = mark.inner_text()
    assert mark.get_attribute("data-status") == "mismatch", text
    assert "did not match" in text and "commitment" in text
    assert "Hand 1: the shuffle did not match" in page.locator("#live").inner_text()
