"""Provable shuffles: each hand's deck from its own seed, by a portable algorithm.

``spades-shuffle/1`` (docs/shuffle.md, with test vectors): a Fisher-Yates shuffle driven by
SHA-256 of the seed (and any entropy the players added after a commitment) and a counter,
with rejection sampling so that every order is equally likely. Anyone can re-derive a deck
from a revealed hand seed in any language; a revealed hand seed tells nothing of the others
(each is SHA-256 of the game's secret seed and the hand number).

Games made before this module dealt every hand with Python's ``random.Random`` from one
game seed; they keep that shuffle (``LEGACY``) so that they deal the same.
"""

from __future__ import annotations

import hashlib
import random
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .cards import NAME_OF, Card

ALGORITHM = "spades-shuffle/1"
#: The shuffle of games made before ``spades-shuffle/1``: Python's Mersenne Twister.
LEGACY = 1
#: ``spades-shuffle/1``.
CURRENT = 2


@dataclass(frozen=True, slots=True)
class Shuffle:
    """How a game deals the hands its record does not fix: the shuffle ``version`` and the
    extra entropy given for some hands (``entropy[i]`` is ``(hand number, contributions)``,
    the players' contributions, given after the hand seed's commitment was shown)."""

    version: int = CURRENT
    entropy: tuple[tuple[int, tuple[str, ...]], ...] = ()

    def __post_init__(self) -> None:
        if self.version not in (LEGACY, CURRENT):
            raise ValueError(f"unknown shuffle version {self.version!r}")

    def entropy_of(self, number: int) -> tuple[str, ...]:
        for hand, contributions in self.entropy:
            if hand == number:
                return contributions
        return ()


def _framed(parts: Sequence[str]) -> bytes:
    """Each part as UTF-8 after its length (4 bytes, big-endian): unambiguous."""
    out = bytearray()
    for part in parts:
        data = part.encode("utf-8")
        out += len(data).to_bytes(4, "big") + data
    return bytes(out)


def hand_seed(seed: int | str, number: int) -> str:
    """The seed of hand ``number`` (from 0) of a game with the secret ``seed``: 64 hex
    digits, SHA-256 of ``"spades-hand"``, the seed and the number, framed."""
    return hashlib.sha256(_framed(["spades-hand", str(seed), str(number)])).hexdigest()


#: The commitment scheme written today: SHA-256 of the framed label, seed and salt.
COMMIT = "spades-commit/1"
#: The first, unsalted scheme (SHA-256 of the seed alone), read in hands that name no scheme.
COMMIT_PLAIN = "sha256"
COMMIT_SCHEMES = (COMMIT_PLAIN, COMMIT)


def commitment(seed: str, salt: str | None = None) -> str:
    """What is shown before a hand so that its seed, revealed later, can be checked, in hex:
    with a ``salt``, ``spades-commit/1``: SHA-256 of ``"spades-commit/1"``, the seed and the
    salt, framed; without, the first scheme: SHA-256 of the seed's UTF-8 bytes."""
    if salt is None:
        return hashlib.sha256(seed.encode("utf-8")).hexdigest()
    return hashlib.sha256(_framed([COMMIT, seed, salt])).hexdigest()


def hand_salt(seed: int | str, number: int) -> str:
    """The salt of hand ``number``'s commitment: 32 hex digits (128 bits) derived from the
    game's secret ``seed`` under their own label, so as secret as the hand seed until both
    are revealed, and kept with no new field in a saved game."""
    return hashlib.sha256(_framed(["spades-salt", str(seed), str(number)])).hexdigest()[:32]


def new_salt(randbits: Callable[[int], int]) -> str:
    """A fresh 128-bit salt (32 hex digits) from the caller's random source, e.g.
    ``secrets.randbits`` (the engine draws no randomness itself)."""
    return f"{randbits(128):032x}"


def hand_commitment(seed: int | str, number: int) -> str:
    """The ``spades-commit/1`` commitment shown before hand ``number`` of a game with the
    secret ``seed``: to its hand seed and salt."""
    return commitment(hand_seed(seed, number), hand_salt(seed, number))


class _Stream:
    """32-bit unsigned integers: SHA-256(key || counter as 8 bytes big-endian) for counter
    0, 1, 2, ..., each digest read as eight big-endian words in order."""

    def __init__(self, key: bytes):
        self.key = key
        self.counter = 0
        self.words: tuple[int, ...] = ()
        self.index = 8

    def word(self) -> int:
        if self.index == 8:
            block = hashlib.sha256(self.key + self.counter.to_bytes(8, "big")).digest()
            self.words = _WORDS.unpack(block)
            self.counter += 1
            self.index = 0
        value = self.words[self.index]
        self.index += 1
        return value

    def below(self, bound: int) -> int:
        """Uniform in ``0 .. bound-1``: reject words at or above the largest multiple of
        ``bound`` that fits in 32 bits, then take the remainder."""
        limit = _SPAN - _SPAN % bound
        while True:
            value = self.word()
            if value < limit:
                return value % bound


_WORDS = struct.Struct(">8I")
_SPAN = 1 << 32


def shuffle_key(seed: str, entropy: Sequence[str] = ()) -> bytes:
    """SHA-256 of ``"spades-shuffle/1"``, the seed and each contribution, framed."""
    return hashlib.sha256(_framed([ALGORITHM, seed, *entropy])).digest()


def shuffled(cards: Sequence[Card], seed: str, entropy: Sequence[str] = ()) -> tuple[Card, ...]:
    """``cards`` in the order ``spades-shuffle/1`` gives them from ``seed`` and ``entropy``
    (top card first): for i from the last index down to 1, swap card i with card j, j
    uniform in 0..i (``_Stream.below``, inlined here: it runs for every deal)."""
    out = list(cards)
    key = shuffle_key(seed, entropy)
    sha256 = hashlib.sha256
    words: tuple[int, ...] = ()
    index = 8
    counter = 0
    for i in range(len(out) - 1, 0, -1):
        bound = i + 1
        limit = _SPAN - _SPAN % bound
        while True:
            if index == 8:
                words = _WORDS.unpack(sha256(key + counter.to_bytes(8, "big")).digest())
                counter += 1
                index = 0
            value = words[index]
            index += 1
            if value < limit:
                break
        j = value % bound
        out[i], out[j] = out[j], out[i]
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Revealed:
    """What is told of a hand's shuffle: the ``commitment`` shown before the deal (and its
    ``scheme``), the players' ``entropy``, and, once the hand is over, its ``seed`` and
    ``salt`` (None until revealed)."""

    commitment: str | None = None
    seed: str | None = None
    salt: str | None = None
    entropy: tuple[str, ...] = ()
    scheme: str = COMMIT


@dataclass(frozen=True, slots=True)
class ShuffleProblem:
    """One thing that did not match: ``check`` is ``"commitment"``, ``"deck"`` or
    ``"cards"`` (the deck against the cards dealt and played); ``message`` is for a player."""

    check: str
    message: str


def _the(card: Card) -> str:
    name = NAME_OF[card]
    return name if name[0].isupper() else f"the {name}"


def check_shuffle(cards: Sequence[Card], deck: Sequence[Card] | None,
                  revealed: Revealed) -> list[ShuffleProblem]:
    """What does not match in a revealed hand (empty when it all does, and when the seed is
    not revealed): the commitment against the seed and salt, and ``deck`` (top card first;
    None when only the seed is known) against the one ``spades-shuffle/1`` gives from the
    seed and entropy of the variant's ``cards`` (in card order)."""
    seed = revealed.seed
    if seed is None:
        return []
    problems = []
    if revealed.commitment is not None:
        if revealed.scheme not in COMMIT_SCHEMES:
            problems.append(ShuffleProblem(
                "commitment", f"the commitment scheme {revealed.scheme!r} is unknown "
                f"(known: {', '.join(COMMIT_SCHEMES)})"))
        elif revealed.scheme == COMMIT and revealed.salt is None:
            problems.append(ShuffleProblem("commitment", "the salt of the commitment is missing"))
        else:
            salt = revealed.salt if revealed.scheme == COMMIT else None
            if commitment(seed, salt) != revealed.commitment.lower():
                what = "seed does" if salt is None else "seed and salt do"
                problems.append(ShuffleProblem("commitment", f"the revealed {what} not match the "
                                        "commitment shown before the deal"))
    if deck is not None:
        expected = shuffled(cards, seed, revealed.entropy)
        if len(deck) != len(expected):
            problems.append(ShuffleProblem("deck", f"the deck has {len(deck)} cards, the revealed "
                                    f"seed gives {len(expected)}"))
        else:
            for position, (want, got) in enumerate(zip(expected, deck, strict=True), start=1):
                if want != got:
                    problems.append(ShuffleProblem("deck", f"the deck does not match the revealed "
                                            f"seed: card {position} should be {_the(want)}, "
                                            f"the record says {_the(got)}"))
                    break
    return problems


def deck_of_hand(deck: Sequence[Card], seed: int | str, number: int,
                 shuffle: Shuffle = Shuffle()) -> tuple[Card, ...]:
    """The deck of hand ``number``: the variant's ``deck`` (in card order) shuffled from
    the hand's own seed and its entropy, or, for games made before, as they dealt it."""
    if shuffle.version == LEGACY:
        cards = list(deck)
        random.Random(f"{seed}/{number}").shuffle(cards)
        return tuple(cards)
    return shuffled(deck, hand_seed(seed, number), shuffle.entropy_of(number))


__all__ = [
    "ALGORITHM",
    "COMMIT",
    "COMMIT_PLAIN",
    "COMMIT_SCHEMES",
    "CURRENT",
    "LEGACY",
    "Revealed",
    "Shuffle",
    "ShuffleProblem",
    "check_shuffle",
    "commitment",
    "deck_of_hand",
    "hand_commitment",
    "hand_salt",
    "hand_seed",
    "new_salt",
    "shuffle_key",
    "shuffled",
]
