"""Errors the engines raise."""


class IllegalAction(ValueError):
    """An action that the rules do not allow; the message is meant for the player."""


class StateTooNew(ValueError):
    """A saved state (or a rules version) newer than this code: a newer boardroom wrote
    it. The message says so; never guess at it, upgrade the code instead."""
