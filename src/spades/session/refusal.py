"""A person's intent refused, with the protocol's code and a sentence for a person."""

from __future__ import annotations


class Refusal(Exception):
    """An intent refused; ``code`` is the protocol's error code (``illegal``, ``stale``,
    ``not-your-turn``, ``bad-message``, ``server``), ``message`` says why."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message
