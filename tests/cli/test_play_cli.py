"""`spades play`: a whole game through the terminal table, every kind of decision typed in."""

from __future__ import annotations

import contextlib
import json
import random
import subprocess
import sys

import pytest

from spades.ai.simple import RandomPlayer
from spades.cli.play import TerminalTable, card_text
from spades.engine import (
    BLIND_NIL,
    Bid,
    Draw,
    Exchange,
    PassCards,
    Play,
    find_preset,
    load_record,
    player_view,
)


def typed(action: object) -> str:
    """What a person types for an action."""
    if isinstance(action, Play):
        return str(action.card).lower()
    if isinstance(action, Bid):
        return "nil" if action.nil else str(action.tricks)
    if isinstance(action, Draw):
        return "k" if action.keep else "d"
    if isinstance(action, PassCards):
        return " ".join(str(c) for c in action.cards)
    assert isinstance(action, Exchange)
    return "y" if action.take else "n"


@pytest.mark.parametrize("preset,options", [
    ("short", {}),
    ("two-player", {"target_score": 150, "losing_score": -150}),
    ("three-player-kitty", {"target_score": 150}),
    ("house", {"blind_nil": True, "blind_nil_deficit": None, "target_score": 150,
               "losing_score": -150}),
])
def test_whole_game_typed_in(preset: str, options: dict[str, object], tmp_path) -> None:
    rules = find_preset(preset).with_options(**options)
    rng = random.Random(7)
    lines: list[str] = []
    prompts: list[str] = []
    mistakes = 0
    table: TerminalTable

    def ask(prompt: str) -> str:
        nonlocal mistakes
        prompts.append(prompt)
        view = player_view(table.state, 0)
        if "blind nil before you look" in prompt and "Bid blind nil" in prompt:
            return "n"
        if mistakes < 3:  # a typo and an illegal card first: a message, then a new prompt
            mistakes += 1
            return ["zz", "help", "s"][mistakes - 1]
        return typed(rng.choice(view.legal))

    save = tmp_path / "game.json"
    table = TerminalTable(rules, seed=3, ask=ask, say=lines.append, save=str(save),
                  players={s: RandomPlayer() for s in range(1, rules.players)})
    state = table.play()
    assert state.over
    assert any("Game over." in line for line in lines)
    assert any("Hand over." in line for line in lines)
    assert any("take" in line and "trick" in line for line in lines)
    assert any("Type a card" in line for line in lines)  # help was shown
    # the saved record replays to the same game
    assert load_record(__import__("json").loads(save.read_text())).scores == state.scores


def test_illegal_card_gets_a_message_not_a_crash() -> None:
    rules = find_preset("partnership")
    lines: list[str] = []
    asked = 0
    table: TerminalTable

    def ask(prompt: str) -> str:
        nonlocal asked
        asked += 1
        view = player_view(table.state, 0)
        if view.phase.value == "bid":
            return "3"
        plays = {a.card for a in view.legal}
        if view.trick and asked < 200:
            wrong = [c for c in view.hand if c not in plays]
            if wrong and not any("must follow" in line for line in lines):
                return str(wrong[0])
        if asked > 400:
            raise EOFError
        return str(sorted(plays)[0])

    table = TerminalTable(rules, seed=11, ask=ask, say=lines.append,
                  players={s: RandomPlayer() for s in range(1, 4)})
    with pytest.raises(EOFError):
        table.play()
    assert any("you must follow" in line for line in lines)


def test_command_line_quits_cleanly_and_refuses_bad_options() -> None:
    quit_ = subprocess.run([sys.executable, "-m", "spades.cli.main", "play", "--seed", "1",
                            "--level", "random"], input="q\n", capture_output=True, text=True,
                           timeout=60)
    assert quit_.returncode == 0 and "Spades: partnership" in quit_.stdout
    bad = subprocess.run([sys.executable, "-m", "spades.cli.main", "play", "--set",
                          "players=7"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "players must be 2 to 5" in bad.stderr


def test_a_level_that_fails_to_import_is_an_error_not_random_play(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A broken level must not turn quietly into random play at the table."""
    monkeypatch.setitem(sys.modules, "spades.ai.normal", None)  # its import fails
    with pytest.raises(ImportError):
        TerminalTable(find_preset("short"), seed=1, level="normal", ask=lambda _: "q",
              say=lambda _: None)


def test_a_broken_suggestion_module_stops_the_game_loading() -> None:
    """No quiet "no suggestion" either: the command cannot start without it."""
    probe = ("import sys; sys.modules['spades.ai.suggest'] = None; "
             "import spades.cli.play")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode != 0, "loaded without its suggestion module"
    assert "Error: import of spades.ai.suggest halted" in result.stderr, result.stderr


@pytest.mark.parametrize("answer", ["y", "n"])
def test_two_player_shows_nothing_before_the_blind_nil_choice(answer: str) -> None:
    """Blind nil is bid before drawing: the first prompt shows no card at all (not the card
    the player would draw); "y" bids blind nil, "n" looks and only then shows the card."""
    rules = find_preset("two-player")
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        if len(prompts) == 1:
            return answer
        raise EOFError

    table = TerminalTable(rules, seed=0, ask=ask, say=lambda _line: None,
                  players={1: RandomPlayer()})
    top = table.state.hand.deck[0]
    with pytest.raises(EOFError):
        table.play()
    first = prompts[0]
    assert "blind nil" in first and "(no cards)" not in first
    assert card_text(top) not in first and "draw" not in first.lower()
    hand = table.state.hand
    if answer == "y":
        assert hand.bids[0] == BLIND_NIL
    else:
        assert hand.bids[0] is None and player_view(table.state, 0).drawn == top
        assert card_text(top) in prompts[1]


def _random_game(preset: str, seed: int, hands: int,
                 **options: object) -> tuple[TerminalTable, list[str]]:
    """Random play by every seat until ``hands`` hands were dealt (or the game ends)."""
    rules = find_preset(preset).with_options(**options)
    rng = random.Random(seed)
    lines: list[str] = []
    table: TerminalTable

    def ask(prompt: str) -> str:
        if sum("=== Hand" in line for line in lines) > hands:
            raise EOFError
        view = player_view(table.state, 0)
        if "blind nil before you look" in prompt:
            return "n"
        return typed(rng.choice(view.legal))

    table = TerminalTable(rules, seed=seed, ask=ask, say=lines.append,
                  players={s: RandomPlayer() for s in range(1, rules.players)})
    with contextlib.suppress(EOFError):
        table.play()
    return table, lines


def test_the_person_deals_in_the_second_person() -> None:
    table, lines = _random_game("partnership", 5, 4, target_score=2000, losing_score=-2000)
    heads = [line for line in lines if line.lstrip().startswith("=== Hand")]
    assert len(heads) >= 4  # every seat deals once in four hands
    assert not any("You deals" in line for line in heads)
    assert any(line.endswith(": You deal ===") for line in heads)
    assert any(line.endswith(f": {table.names[1]} deals ===") for line in heads)


@pytest.mark.parametrize("reason,words", [
    ("mercy", "the mercy rule ends it"), ("target", "The target of"),
    ("boston", "A Boston"), ("moon", "The moon was shot"),
])
def test_game_over_says_why_the_game_ended(reason: str, words: str) -> None:
    from spades.session import GameEnded

    rules = find_preset("partnership")
    lines: list[str] = []
    table = TerminalTable(rules, seed=1, ask=lambda _: "", say=lines.append)
    table._game_over(GameEnded(1, (-47, -330), reason))
    (text,) = [line for line in lines if "Game over" in line]
    assert words in text
    assert f"{table.names[1]} & {table.names[3]} win." in text


def test_one_winner_wins_in_the_singular() -> None:
    from spades.session import GameEnded

    rules = find_preset("two-player")
    lines: list[str] = []
    table = TerminalTable(rules, seed=1, ask=lambda _: "", say=lines.append)
    table._game_over(GameEnded(1, (120, 250), "target"))
    (text,) = [line for line in lines if "Game over" in line]
    assert f"{table.names[1]} wins." in text


def test_the_terminal_nil_suggestion_gives_one_figure() -> None:
    from spades.cli.play import _suggestion
    from spades.engine import GameState, new_game, parse_card

    rules = find_preset("partnership")
    hand = "2S 3S 4S 5S 2C 3C 4C 2D 3D 4D 2H 3H 4H"
    mine = [parse_card(c) for c in hand.split(" ")]
    rest = [c for c in rules.deck if c not in set(mine)]
    deck = [mine[i // 4] if i % 4 == 0 else rest.pop() for i in range(52)]
    state: GameState = new_game(rules, seed=0, decks=[deck])
    assert state.hand.turn == 0
    text = _suggestion(player_view(state, 0))
    assert text.startswith("nil"), text
    assert text.count("%") == 1, text
    assert "extra trick" not in text, text


def test_a_saved_game_verifies(tmp_path) -> None:
    """`spades play --save` writes each finished hand with its revealed seed and salt, so
    `spades verify` checks every hand of the file (and passes)."""
    rules = find_preset("short")
    rng = random.Random(3)
    table: TerminalTable

    def ask(prompt: str) -> str:
        if "blind nil before you look" in prompt:
            return "n"
        return typed(rng.choice(player_view(table.state, 0).legal))

    save = tmp_path / "game.json"
    table = TerminalTable(rules, seed=11, ask=ask, say=lambda line: None, save=str(save),
                  players={s: RandomPlayer() for s in range(1, rules.players)})
    state = table.play()
    record = json.loads(save.read_text())
    assert all("seed" in hand and "salt" in hand for hand in record["hands"])
    done = subprocess.run([sys.executable, "-m", "spades.cli.main", "verify", str(save),
                           "--json"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    hands = json.loads(done.stdout)["hands"]
    assert len(hands) == len(state.results) >= 2
    assert {hand["status"] for hand in hands} == {"verified"}
