"""Errors the engines raise."""


class IllegalAction(ValueError):
    """An action that the rules do not allow; the message is meant for the player."""
