"""One line that says which boardroom runs, on which libraries: ``boardroom --version``
prints it and the bot logs it at start, so an operator can tell what an image holds."""

from __future__ import annotations

import argparse
import platform
from importlib import metadata
from typing import Any

# The distributions named in the line, as their projects spell them.
LIBRARIES = ("discord.py", "Pillow", "aiosqlite", "APScheduler")


def installed(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "not installed"


def version_line() -> str:
    """``boardroom 0.1.0 (discord.py 2.7.1, Pillow 13.0.0, ..., Python 3.11.7)``."""
    parts = [f"{name} {installed(name)}" for name in LIBRARIES]
    parts.append(f"Python {platform.python_version()}")
    return f"boardroom {installed('boardroom')} ({', '.join(parts)})"


class VersionAction(argparse.Action):
    """``--version``: print :func:`version_line` unwrapped (argparse's own action wraps
    it to the terminal's width) and exit 0."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **_: Any) -> None:
        super().__init__(
            option_strings, dest=dest, default=argparse.SUPPRESS, nargs=0,
            help="print the versions of boardroom, its libraries and Python, then exit",
        )

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        print(version_line())
        parser.exit()
