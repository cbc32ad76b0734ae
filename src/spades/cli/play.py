"""``spades play``: a whole game in the terminal against computer players."""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import random
import secrets
import sys
from collections.abc import Callable, Coroutine
from typing import Any

from spades.ai.advice import advise_bid, hint_card, view_seed
from spades.ai.base import Player
from spades.ai.hard import HardPlayer
from spades.ai.levels import make_player
from spades.engine import (
    BLIND_NIL,
    NIL,
    SUIT_OF,
    Action,
    Bid,
    BidMade,
    Card,
    CardError,
    CardPlayed,
    CardsPassed,
    Draw,
    Exchange,
    GameState,
    HandDealt,
    HandScored,
    IllegalActionError,
    KittyExchanged,
    Look,
    Looked,
    PassCards,
    Phase,
    Play,
    PlayerView,
    RecordError,
    Rules,
    RulesError,
    SheetLine,
    Suit,
    TakenBack,
    TrickWon,
    apply,
    deal_again,
    load_record,
    new_game,
    parse_card,
    player_view,
)
from spades.session import (
    Change,
    GameEnded,
    InlineThinker,
    Narrated,
    RecordFile,
    Refusal,
    Session,
    Snapshot,
    Unsaved,
    one_person,
    seat_rows,
)
from spades.session.thinking import HARD_TIME_LIMIT

from .options import add_rules_arguments, overrides_from_args, rules_from_args
from .replay import Unreadable, open_record

#: The player id of the person at the terminal (seat 0).
TERMINAL = "terminal"
#: How the game ended, in words (``spades.session.GameEnded.reason``).
REASONS = {"boston": " A Boston: every trick of a hand.", "moon": " The moon was shot.",
           "target": " The target of {target} was reached.",
           "mercy": " A side fell to {losing} or lower: the mercy rule ends it."}

Ask = Callable[[str], str]
Say = Callable[[str], None]

HELP = """Type a card to play it (QH, 10s, as), a bid (3, nil), k/d to keep or discard a draw,
y/n to answer a question, two cards to pass (2c 3d).
  s  score sheet     l  last trick     h  this help     q  quit (the game is saved with --save)
  hint  your turn to play: the card the Hard player would play in your seat, and why
  u  undo: take back your last card or bid (the house rule undo: --set undo=true)"""


def register(sub: Any) -> None:
    parser = sub.add_parser("play", help="play a game in the terminal",
                            description="Play a whole game in the terminal: you are seat 0.")
    add_rules_arguments(parser)
    parser.add_argument("--level", default="normal",
                        help="computer players' level: easy, normal or hard (your partner "
                             "plays at the same level); default normal")
    parser.add_argument("--seed", type=int, default=None, help="deal the same game again")
    parser.add_argument("--save", metavar="FILE", help="write the game record here as you go")
    parser.add_argument("--ascii", action="store_true", help="suit letters instead of symbols")
    parser.add_argument("--deal", metavar="RECORD",
                        help="play a deal again: a game record (e.g. from --save) whose hand "
                             "--hand N is dealt again, the same cards at the same seats")
    parser.add_argument("--hand", type=int, default=None, metavar="N",
                        help="with --deal: the finished hand to play again, from 1")
    parser.add_argument("--from-scores", action="store_true",
                        help="with --deal: start from the scores before that hand, not 0-0")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        rules = rules_from_args(args)
    except RulesError as error:
        print(f"spades play: {error}", file=sys.stderr)
        return 2
    try:
        make_player(args.level)
    except ValueError as error:
        print(f"spades play: {error}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    try:
        start = dealt_again(args, seed)
    except ValueError as error:
        print(f"spades play: {error}", file=sys.stderr)
        return 2
    if start is not None:
        rules = start.rules
    table = TerminalTable(rules, seed=seed, level=args.level, ascii=args.ascii, save=args.save,
                          start=start)
    try:
        table.play()
    except EOFError:
        print("\nGoodbye.")
    return 0


def dealt_again(args: argparse.Namespace, seed: int) -> GameState | None:
    """The game ``--deal RECORD --hand N`` asks for (None without ``--deal``): that finished
    hand's deal again, from 0-0 or ``--from-scores``; ``ValueError`` says why not."""
    if args.deal is None:
        if args.hand is not None or args.from_scores:
            raise ValueError("--hand and --from-scores go with --deal RECORD")
        return None
    if args.hand is None:
        raise ValueError("--deal needs --hand N, the finished hand to play again (from 1)")
    try:
        state = load_record(open_record(args.deal))
        # the record's rules, with what --set changes (such as --set undo=true)
        state = state._replace(rules=state.rules.with_options(**overrides_from_args(args)))
    except (Unreadable, RecordError, RulesError) as error:
        raise ValueError(f"{args.deal}: {error}") from None
    return deal_again(state, args.hand - 1, seed, from_scores=args.from_scores)


def run_through(game: Coroutine[Any, Any, GameState]) -> GameState:
    """Run the session to its end; in a thread of its own when this thread already runs an
    event loop (the terminal's loop is the session's alone)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(game)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, game).result()


def card_text(card: Card, ascii: bool = False) -> str:
    code = str(card)
    if card.is_joker:
        return "Big Joker" if code == "BJ" else "Little Joker"
    rank = "10" if code[0] == "T" else code[0]
    return rank + (card.suit.letter if ascii else card.suit.symbol)


class TerminalTable:
    """One game in the terminal, a transport over the session (``spades.session``): the
    session runs the turn loop and saves; this asks seat 0 and tells what it learns.
    ``ask`` and ``say`` can be replaced (tests)."""

    def __init__(self, rules: Rules, *, seed: int, level: str = "normal", ascii: bool = False,
                 save: str | None = None, ask: Ask = input, say: Say = print,
                 players: dict[int, Player] | None = None,
                 start: GameState | None = None) -> None:
        self.rules = rules
        self.ascii = ascii
        self.ask = ask
        self.say = say
        self.tricks = 0
        seats = seat_rows(one_person(TERMINAL, rules.players, level))
        self.names = tuple(s.name for s in seats)
        computers: dict[int, Player] = players if players is not None else {
            seat: make_player(level) for seat in range(1, rules.players)}
        levels = tuple(s.computer_level for s in seats)
        saver = RecordFile(save, self.names, levels) if save else Unsaved(self.names)
        first = new_game(rules, seed=seed) if start is None else start
        self.hinted = False  # a hint was given since the last action
        self.session = Session("terminal", seats, first, saver=saver,
                               thinker=InlineThinker(computers, random.Random(seed)))
        self.session.listen(self)

    @property
    def state(self) -> GameState:
        return self.session.state

    # ------------------------------------------------------------ the session's loop
    def play(self) -> GameState:
        self.say(f"Spades: {self.rules.name}, to {self.rules.target_score}. "
                 + self._sides_text() + "  (h for help)")
        self._announce_hand()
        return run_through(self.session.run({0: self._decide}))

    async def _decide(self, view: PlayerView) -> Action:
        while True:
            action = self._human(view)
            if self.hinted:  # a game played with hints is practice (its statistics apart)
                await self.session.mark_practice("hint", 0)
                self.hinted = False
            if action is not None:
                return action
            try:  # take back my last card or bid, and the computer players' after it
                await self.session.undo(0)
            except Refusal as refusal:
                self.say(f"  {refusal.message}")
            view = player_view(self.state, 0)

    # ------------------------------------------------------------ narration
    def changed(self, change: Change) -> None:
        """Tell what seat 0 learns: the session's events for it, in words."""
        for event in change.events(0):
            self._tell(event)

    def thinking(self, seat: int, snapshot: Snapshot) -> None:
        """A computer player thinks: nothing to say in the terminal."""

    def _sides_text(self) -> str:
        return "  vs  ".join(" & ".join(self.names[s] for s in side)
                             for side in self.rules.sides)

    def _announce_hand(self, number: int | None = None, dealer: int | None = None) -> None:
        hand = self.state.hand
        number = hand.number if number is None else number
        dealer = hand.dealer if dealer is None else dealer
        self.tricks = 0
        deals = "You deal" if dealer == 0 else f"{self.names[dealer]} deals"
        self.say(f"\n=== Hand {number + 1}: {deals} ===")

    def _tell(self, event: Narrated) -> None:
        def who(seat: int, verb: str, ending: str = "s") -> str:
            return f"{self.names[seat]} {verb}{ending if seat else ''}"

        if isinstance(event, Looked) and event.seat == 0:
            self.say("You look at your cards.")
        elif isinstance(event, BidMade):
            self.say(f"{who(event.seat, 'bid')} {event.bid.label}.")
        elif isinstance(event, CardPlayed):
            self.say(f"{who(event.seat, 'play')} {card_text(event.card, self.ascii)}.")
        elif isinstance(event, KittyExchanged):
            self.say(f"{who(event.seat, 'take') if event.take else who(event.seat, 'keep')} "
                     f"{'the kitty' if event.take else 'the 2 of clubs'}.")
        elif isinstance(event, CardsPassed):
            cards = "card" if event.count == 1 else "cards"
            self.say(f"{who(event.giver, 'pass', 'es')} {event.count} {cards} to "
                     f"{self.names[event.receiver]}.")
        elif isinstance(event, TrickWon):
            self.tricks += 1
            self.say(f"  {who(event.winner, 'take')} trick {self.tricks}.")
        elif isinstance(event, HandScored):
            self._hand_over(event.line)
        elif isinstance(event, HandDealt):
            self._announce_hand(event.number, event.dealer)
        elif isinstance(event, GameEnded):
            self._game_over(event)
        elif isinstance(event, TakenBack):
            self._taken_back(event)

    def _taken_back(self, event: TakenBack) -> None:
        """An undo: what was taken back, the cards and bids in order."""
        words = []
        for seat, action in event.actions:
            whose = "your" if seat == 0 else f"{self.names[seat]}'s"
            if isinstance(action, Play):
                words.append(f"{whose} {card_text(action.card, self.ascii)}")
            elif isinstance(action, Bid):
                words.append(f"{whose} bid {action.label}")
        self.say(f"You take back {', '.join(words) or 'your last action'}.")
        self.tricks = len(self.state.hand.history)

    def _hand_over(self, line: SheetLine) -> None:
        self.say("\nHand over.")
        for i, side in enumerate(self.rules.sides):
            names = " & ".join(self.names[s] for s in side)
            bids = "+".join(line.bids[s].label for s in side)
            took = "+".join(str(line.tricks[s]) for s in side)
            self.say(f"  {names:18} bid {bids:10} took {took:7} points {line.points[i]:5}"
                     f"  bags {line.bags[i]:2}  score {line.scores[i]:5}")

    def _game_over(self, end: GameEnded) -> None:
        side = self.rules.sides[end.winner] if end.winner is not None else ()
        names = " & ".join(self.names[s] for s in side)
        verdict = "You win!" if 0 in side else f"{names} win{'s' if len(side) == 1 else ''}."
        why = REASONS.get(end.reason or "", "").format(target=self.rules.target_score,
                                                       losing=self.rules.losing_score)
        self.say(f"\nGame over. {verdict}{why}  Final: " + ", ".join(
            f"{' & '.join(self.names[s] for s in sd)} {end.scores[i]}"
            for i, sd in enumerate(self.rules.sides)))

    # ------------------------------------------------------------ the human seat
    def _hand_text(self, view: PlayerView) -> str:
        legal = {a.card for a in view.legal if isinstance(a, Play)}
        groups: list[str] = []
        for suit in (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS):
            cards = sorted((c for c in view.hand if SUIT_OF[c] == suit), reverse=True)
            if cards:
                groups.append(" ".join(
                    card_text(c, self.ascii) + ("*" if c in legal else "") for c in cards))
        return "   ".join(groups) or "(no cards)"

    def _status(self, view: PlayerView) -> str:
        parts = []
        for seat in range(self.rules.players):
            bid = view.bids[seat]
            parts.append(f"{self.names[seat]} {bid.label if bid else '-'}/{view.tricks[seat]}")
        broken = "  spades broken" if view.broken else ""
        return "Bids/tricks: " + ", ".join(parts) + broken

    def _human(self, view: PlayerView) -> Action | None:
        """Seat 0's decision, or None when the person asks to take back (``undo``)."""
        while True:
            prompt = self._prompt(view)
            text = self.ask(prompt).strip()
            low = text.lower()
            if low in ("q", "quit", "exit"):
                raise EOFError
            if low in ("h", "help", "?"):
                self.say(HELP)
                continue
            if low == "s":
                self._sheet(view)
                continue
            if low == "l":
                self._last_trick(view)
                continue
            if low == "hint":
                self.say(self._hint(view))
                continue
            if low in ("u", "undo"):
                return None
            try:
                action = self._parse(view, low)
                if action is None:
                    continue
                apply(self.state, action)  # the engine's verdict, before we commit to it
                return action
            except (IllegalActionError, CardError, ValueError) as error:
                self.say(f"  {error}")

    def _hint(self, view: PlayerView) -> str:
        """The card hint (Hard's card from seat 0's view, and why), or why there is none."""
        if view.phase is not Phase.PLAY:
            return "  A hint is for your turn to play a card (the bid has its suggestion)."
        player = HardPlayer(time_limit=HARD_TIME_LIMIT)  # Hard's own time at the table
        hint = hint_card(view, random.Random(secrets.randbits(64)), player)
        self.hinted = True
        return f"  Hint (Hard): {card_text(hint.card, self.ascii)}. {hint.sentence}"

    def _prompt(self, view: PlayerView) -> str:
        phase = view.phase
        if view.face_down and phase in (Phase.DRAW, Phase.BID):
            # nothing of the hand (nor the card to draw) shows before the blind-nil choice
            return (f"{self._status(view)}\nYour cards are face down. "
                    "Bid blind nil before you look at your cards? (y/n) > ")
        if phase is Phase.DRAW:
            lines = [f"Your hand ({len(view.hand)}): {self._hand_text(view)}"]
            if view.drawn is not None:
                lines.append(f"You draw {card_text(view.drawn, self.ascii)}. "
                             "Keep it (k) or discard it and keep the next (d)?")
            return "\n".join(lines) + "\n> "
        if phase is Phase.KITTY:
            return (f"Your hand: {self._hand_text(view)}\nExchange your 2 of clubs for the "
                    "kitty card, unseen? (y/n) > ")
        if phase is Phase.BID:
            bids = [a for a in view.legal if isinstance(a, Bid) and not a.blind]
            choices = _bid_range(bids)
            hint = _suggestion(view)
            return (f"{self._status(view)}\nYour hand: {self._hand_text(view)}\n"
                    + (f"Suggestion: {hint}\n" if hint else "")
                    + f"Your bid ({choices}) > ")
        if phase is Phase.PASS:
            partner = view.partner
            to = self.names[partner] if partner is not None else "your partner"
            return (f"Your hand: {self._hand_text(view)}\nPass {self.rules.blind_nil_pass} "
                    f"cards to {to} (e.g. 2c 3d) > ")
        trick = "  ".join(f"{self.names[s]}: {card_text(c, self.ascii)}" for s, c in view.trick)
        lead = "You lead." if not view.trick else f"Trick: {trick}"
        return (f"{self._status(view)}\n{lead}\nYour hand (* = playable): "
                f"{self._hand_text(view)}\nYour card > ")

    def _parse(self, view: PlayerView, text: str) -> Action | None:
        phase = view.phase
        if view.face_down and phase in (Phase.DRAW, Phase.BID):
            if text in ("y", "yes", "b", "blind", "blind nil"):
                return BLIND_NIL
            if text in ("n", "no"):
                return Look(view.seat)
            raise ValueError("type y to bid blind nil or n to look at your cards")
        if phase is Phase.DRAW:
            if text in ("k", "keep"):
                return Draw(True)
            if text in ("d", "discard"):
                return Draw(False)
            raise ValueError("type k to keep the card or d to discard it")
        if phase is Phase.KITTY:
            if text in ("y", "yes", "n", "no"):
                return Exchange(text.startswith("y"))
            raise ValueError("type y to exchange or n to keep the 2 of clubs")
        if phase is Phase.BID:
            if text in ("nil", "0") and self.rules.nil:
                return NIL
            if text.isdigit():
                return Bid(int(text))
            raise ValueError("type a number of tricks" + (" or nil" if self.rules.nil else ""))
        if phase is Phase.PASS:
            cards = tuple(parse_card(t) for t in text.replace(",", " ").split())
            return PassCards(cards)
        return Play(parse_card(text))

    def _sheet(self, view: PlayerView) -> None:
        if not view.sheet:
            self.say("  No hand finished yet. Score: " + self._scores(view))
        for line in view.sheet:
            self.say(f"  Hand {line.number + 1}: points {list(line.points)}, bags "
                     f"{list(line.bags)}, score {list(line.scores)}")

    def _scores(self, view: PlayerView) -> str:
        return ", ".join(f"{' & '.join(self.names[s] for s in side)} {view.scores[i]}"
                         for i, side in enumerate(self.rules.sides))

    def _last_trick(self, view: PlayerView) -> None:
        trick = view.last_trick
        if trick is None:
            self.say("  No trick played yet this hand.")
            return
        cards = ", ".join(f"{self.names[s]} {card_text(c, self.ascii)}"
                          for s, c in trick.plays(self.rules.players))
        self.say(f"  Last trick: {cards}; {self.names[trick.winner]} took it.")


def _bid_range(bids: list[Bid]) -> str:
    plain = sorted(b.tricks for b in bids if not b.nil)
    text = []
    if any(b.nil for b in bids):
        text.append("nil")
    if plain:
        text.append(f"{plain[0]}-{plain[-1]}" if len(plain) > 1 else str(plain[0]))
    return ", ".join(text)


def _suggestion(view: PlayerView) -> str:
    """The bid suggestion the web table gives: Hard's bid, seeded from the view, explained
    by the hand's count (docs/advice.md)."""
    player = HardPlayer(time_limit=HARD_TIME_LIMIT)
    suggestion = advise_bid(view, random.Random(view_seed(view)), player)
    return f"{suggestion.bid.label} ({'; '.join(suggestion.reasons)})"
