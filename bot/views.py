"""Persistent buttons and selects (``discord.ui.DynamicItem``).

Every component's ``custom_id`` carries what its callback needs (game id, seat,
state version, and for step-by-step choices the path so far), so a click on a
message sent before a restart still works: discord.py matches the id against
the templates registered with ``bot.add_dynamic_items(*DYNAMIC_ITEMS)``.

The callbacks are thin: they parse the id and call the cog that owns the
feature (``Lobby``, ``Play``, ``Admin``). Every callback runs inside
:func:`bot.errors.handle`, so an error becomes a private reply, never an
"interaction failed".

custom_id layout (all under 100 characters)::

    br:lobby:<gid>:<op>                  lobby buttons (join, leave, ai, start)
    br:ai:<gid>                          the Add-AI kind select
    br:open:<gid>[:<ver>]                "Open my turn" (the caller's decision, privately; ver: the
                                         version it was posted at)
    br:table:<gid>                       "Open the table" (launches the Activity; only with a table)
    br:ps:<gid>:<seat>:<ver>             planner select (the draft is in the database)
    br:pb:<gid>:<seat>:<ver>:<op>        planner buttons (back, reset, seal, sealok, cancel, unseal)
    br:as:<gid>:<seat>:<ver>:<path>      turn-action select, path = picks so far
    br:ab:<gid>:<seat>:<ver>:<path>:<op> turn-action buttons (back, confirm, undo)
    br:abandon:<gid>                     confirm abandoning a game
    br:rp:<gid>:<op>:<n>                 /game replay stepper (op first, prev, next, last, round;
                                         n: the position or round it goes to)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Protocol

import discord

from bot import errors
from bot.choices import Choice

SEAT = r"[A-Za-z0-9_-]{1,32}"

# What the components call. The cogs implement these (``Lobby``, ``Play``, ``Admin``);
# they are found by name at click time, so this module never imports a cog (the cogs
# import this module to build their messages).


class LobbyHandler(Protocol):
    async def on_lobby_button(self, interaction: discord.Interaction[Any], gid: int, op: str) -> None: ...
    async def on_add_ai(self, interaction: discord.Interaction[Any], gid: int, kind: str) -> None: ...


class PlayHandler(Protocol):
    async def open_decision(self, interaction: discord.Interaction[Any], gid: int, ver: int | None = None) -> None: ...
    async def on_planner(
        self, interaction: discord.Interaction[Any], gid: int, seat: str, ver: int, op: str, value: str
    ) -> None: ...
    async def on_action(
        self, interaction: discord.Interaction[Any], gid: int, seat: str, ver: int, code: str, op: str, value: str
    ) -> None: ...


class ReplayHandler(Protocol):
    async def on_replay(self, interaction: discord.Interaction[Any], gid: int, op: str, n: int) -> None: ...


class AdminHandler(Protocol):
    async def on_abandon_confirmed(self, interaction: discord.Interaction[Any], gid: int) -> None: ...


def _lobby(interaction: discord.Interaction[Any]) -> LobbyHandler:
    return interaction.client.get_cog("Lobby")  # type: ignore[attr-defined,no-any-return]


def _play(interaction: discord.Interaction[Any]) -> PlayHandler:
    return interaction.client.get_cog("Play")  # type: ignore[attr-defined,no-any-return]


def _replay(interaction: discord.Interaction[Any]) -> ReplayHandler:
    return interaction.client.get_cog("Play")  # type: ignore[attr-defined,no-any-return]


def _admin(interaction: discord.Interaction[Any]) -> AdminHandler:
    return interaction.client.get_cog("Admin")  # type: ignore[attr-defined,no-any-return]


async def _safely(interaction: discord.Interaction[Any], coro: Any) -> None:
    try:
        await coro
    except Exception as exc:  # noqa: BLE001 - the one error handler decides
        await errors.handle(interaction, exc)
    finally:  # its answer is sent: from now on its token may carry other messages (issue 37)
        client = getattr(interaction, "client", None)
        play = client.get_cog("Play") if client is not None else None
        if play is not None:
            play.answered(interaction)


NUMBERS = ("gid", "ver", "n")  # the groups of the items' templates that are numbers


class FromCustomId:
    """Rebuilds a persistent item (discord.py's ``DynamicItem``) from its custom id: the
    named groups of its template are the constructor's keyword arguments, ``NUMBERS`` as
    numbers (a group the id leaves out: None)."""

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Any:
        args = {k: int(v) if k in NUMBERS and v is not None else v for k, v in match.groupdict().items()}
        return cls(**args)


def _select(custom_id: str, choices: Sequence[Choice], placeholder: str) -> discord.ui.Select[Any]:
    """A select of ``choices`` (the first 25); without any, one "-" option, disabled."""
    return discord.ui.Select(
        custom_id=custom_id,
        placeholder=placeholder[:150] or "Choose",
        options=_options(choices) or [discord.SelectOption(label="-", value="-")],
        disabled=not choices,
    )


def _picked(item: discord.ui.Select[Any], interaction: discord.Interaction[Any]) -> str:
    """The value picked in a select ("" if none came)."""
    values = list(item.values) or list((interaction.data or {}).get("values", []))  # type: ignore[union-attr]
    return values[0] if values else ""


def _options(choices: Sequence[Choice]) -> list[discord.SelectOption]:
    return [
        discord.SelectOption(label=c.label[:100] or "-", value=c.value[:100], description=c.description[:100] or None)
        for c in choices[:25]
    ]


# the buttons' labels and styles, by op (an op not listed: its name, secondary)
LOBBY_BUTTONS = {  # a lobby
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "ai": ("Add AI", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
}
PLANNER_BUTTONS = {  # a secret decision's planner
    "back": ("◀ Back", discord.ButtonStyle.secondary),
    "reset": ("Start over", discord.ButtonStyle.secondary),
    "seal": ("Seal 🔒", discord.ButtonStyle.success),
    "sealok": ("Yes, seal 🔒", discord.ButtonStyle.success),
    "cancel": ("◀ Not yet", discord.ButtonStyle.secondary),
    "unseal": ("Change my plan 🔓", discord.ButtonStyle.secondary),
}
ACTION_BUTTONS = {  # a turn's step-by-step action
    "back": ("◀ Back", discord.ButtonStyle.secondary),
    "confirm": ("Confirm ✅", discord.ButtonStyle.success),
    "undo": ("↩ Undo", discord.ButtonStyle.secondary),
    "finish": ("Confirm and end the turn ⏭", discord.ButtonStyle.primary),
}


# ------------------------------------------------------------------------- lobby


class LobbyButton(FromCustomId, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"br:lobby:(?P<gid>\d+):(?P<op>[a-z]+)"):
    def __init__(self, gid: int, op: str) -> None:
        label, style = LOBBY_BUTTONS.get(op, (op.title(), discord.ButtonStyle.secondary))
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"br:lobby:{gid}:{op}"))
        self.gid, self.op = gid, op

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _safely(interaction, _lobby(interaction).on_lobby_button(interaction, self.gid, self.op))


class AddAiSelect(FromCustomId, discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"br:ai:(?P<gid>\d+)"):
    """The AI players the game offers (its presenter's automata)."""

    def __init__(self, gid: int, choices: Sequence[Choice] = ()) -> None:
        opts = _options(choices) or [discord.SelectOption(label="-", value="-")]
        super().__init__(discord.ui.Select(custom_id=f"br:ai:{gid}", placeholder="Which AI?", options=opts))
        self.gid = gid

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        kind = self.item.values[0] if self.item.values else "bot"
        await _safely(interaction, _lobby(interaction).on_add_ai(interaction, self.gid, kind))


def lobby_view(gid: int, *, open_: bool = True) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if open_:
        for op in LOBBY_BUTTONS:
            view.add_item(LobbyButton(gid, op))
    return view


def add_ai_view(gid: int, choices: Sequence[Choice]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(AddAiSelect(gid, choices))
    return view


# ---------------------------------------------------------------------- open turn


OPEN_LABEL = "Open my turn"  # the one name of the button that opens a player's decision


class OpenButton(FromCustomId, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"br:open:(?P<gid>\d+)(?::(?P<ver>\d+))?"):
    """``ver``: the state version of the decision the button was posted for (a click after
    the caller's own later move is answered in place: that decision is over); a button
    from before versions were carried has none."""

    def __init__(self, gid: int, ver: int | None = None) -> None:
        cid = f"br:open:{gid}" if ver is None else f"br:open:{gid}:{ver}"
        super().__init__(discord.ui.Button(label=OPEN_LABEL, style=discord.ButtonStyle.primary, custom_id=cid))
        self.gid, self.ver = gid, ver

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _safely(interaction, _play(interaction).open_decision(interaction, self.gid, self.ver))


TABLE_LABEL = "Open the table"
TABLE: dict[str, bool] = {"on": False}  # set by the Table cog while the table is served


class TableButton(FromCustomId, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"br:table:(?P<gid>\d+)"):
    """Launches the live table (the Activity) in the channel of the message."""

    def __init__(self, gid: int) -> None:
        super().__init__(
            discord.ui.Button(label=TABLE_LABEL, emoji="🎲", style=discord.ButtonStyle.secondary, custom_id=f"br:table:{gid}")
        )
        self.gid = gid

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = interaction.client.get_cog("Table")  # type: ignore[attr-defined]
        if cog is None:
            await _safely(interaction, _no_table(interaction))
            return
        await _safely(interaction, cog.open_table(interaction, self.gid))


async def _no_table(interaction: discord.Interaction[Any]) -> None:
    raise errors.UserError("The table is not running; play from the prompts here.")


def with_table(view: discord.ui.View, gid: int) -> discord.ui.View:
    """``view`` with "Open the table" added while the table is served (a prompt's last row)."""
    if TABLE["on"]:
        view.add_item(TableButton(gid))
    return view


def open_view(gid: int, ver: int | None = None) -> discord.ui.View:
    """The button that opens a player's decision; it has one name, :data:`OPEN_LABEL`;
    beside it "Open the table" while the table is served."""
    view = discord.ui.View(timeout=None)
    view.add_item(OpenButton(gid, ver))
    return with_table(view, gid)


# ------------------------------------------------------------------------ planner


class PlannerSelect(
    FromCustomId,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=rf"br:ps:(?P<gid>\d+):(?P<seat>{SEAT}):(?P<ver>\d+)",
):
    def __init__(self, gid: int, seat: str, ver: int, choices: Sequence[Choice] = (), placeholder: str = "") -> None:
        super().__init__(_select(f"br:ps:{gid}:{seat}:{ver}", choices, placeholder))
        self.gid, self.seat, self.ver = gid, seat, ver

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        value = _picked(self.item, interaction)
        await _safely(interaction, _play(interaction).on_planner(interaction, self.gid, self.seat, self.ver, "select", value))


class PlannerButton(
    FromCustomId,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"br:pb:(?P<gid>\d+):(?P<seat>{SEAT}):(?P<ver>\d+):(?P<op>[a-z]+)",
):
    def __init__(
        self, gid: int, seat: str, ver: int, op: str, disabled: bool = False, label: str | None = None
    ) -> None:
        default, style = PLANNER_BUTTONS.get(op, (op.title(), discord.ButtonStyle.secondary))
        super().__init__(
            discord.ui.Button(
                label=label or default, style=style, custom_id=f"br:pb:{gid}:{seat}:{ver}:{op}", disabled=disabled
            )
        )
        self.gid, self.seat, self.ver, self.op = gid, seat, ver, op

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _safely(
            interaction, _play(interaction).on_planner(interaction, self.gid, self.seat, self.ver, self.op, "")
        )


def planner_view(
    gid: int,
    seat: str,
    ver: int,
    choices: Sequence[Choice],
    placeholder: str,
    *,
    can_seal: bool,
    can_back: bool,
    extra: Sequence[tuple[str, str]] = (),
    seal_label: str | None = None,
) -> discord.ui.View:
    """A secret-decision builder's controls: its select, back, start over, the builder's
    own buttons (``extra``: op, label) and seal."""
    view = discord.ui.View(timeout=None)
    view.add_item(PlannerSelect(gid, seat, ver, choices, placeholder))
    view.add_item(PlannerButton(gid, seat, ver, "back", disabled=not can_back))
    view.add_item(PlannerButton(gid, seat, ver, "reset"))
    for op, label in extra[:2]:
        view.add_item(PlannerButton(gid, seat, ver, op, label=label))
    view.add_item(PlannerButton(gid, seat, ver, "seal", disabled=not can_seal, label=seal_label))
    return with_table(view, gid)


def seal_confirm_view(gid: int, seat: str, ver: int, seal_label: str = "Yes, seal 🔒") -> discord.ui.View:
    """The one confirmation before a secret decision is sealed."""
    view = discord.ui.View(timeout=None)
    view.add_item(PlannerButton(gid, seat, ver, "sealok", label=seal_label))
    view.add_item(PlannerButton(gid, seat, ver, "cancel"))
    return view


def unseal_view(gid: int, seat: str, ver: int) -> discord.ui.View:
    """On a sealed decision: take it back and change it while the others still decide."""
    view = discord.ui.View(timeout=None)
    view.add_item(PlannerButton(gid, seat, ver, "unseal"))
    return view


# --------------------------------------------------------------- turn actions

PATH = r"[0-9.=-]{1,60}"


class ActionSelect(
    FromCustomId,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=rf"br:as:(?P<gid>\d+):(?P<seat>{SEAT}):(?P<ver>\d+):(?P<path>{PATH})",
):
    def __init__(
        self, gid: int, seat: str, ver: int, path: str, choices: Sequence[Choice] = (), placeholder: str = ""
    ) -> None:
        super().__init__(_select(f"br:as:{gid}:{seat}:{ver}:{path}", choices, placeholder))
        self.gid, self.seat, self.ver, self.path = gid, seat, ver, path

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        value = _picked(self.item, interaction)
        await _safely(
            interaction, _play(interaction).on_action(interaction, self.gid, self.seat, self.ver, self.path, "select", value)
        )


class ActionButton(
    FromCustomId,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"br:ab:(?P<gid>\d+):(?P<seat>{SEAT}):(?P<ver>\d+):(?P<path>{PATH}):(?P<op>[a-z]+)",
):
    def __init__(self, gid: int, seat: str, ver: int, path: str, op: str, disabled: bool = False) -> None:
        label, style = ACTION_BUTTONS.get(op, (op.title(), discord.ButtonStyle.secondary))
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=f"br:ab:{gid}:{seat}:{ver}:{path}:{op}", disabled=disabled
            )
        )
        self.gid, self.seat, self.ver, self.path, self.op = gid, seat, ver, path, op

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if self.op not in ACTION_BUTTONS:  # a crafted id: no such button was ever sent
            await errors.reply_private(interaction, STRAY)
            return
        await _safely(
            interaction,
            _play(interaction).on_action(interaction, self.gid, self.seat, self.ver, self.path, self.op, ""),
        )


def action_view(
    gid: int, seat: str, ver: int, path: str, choices: Sequence[Choice], placeholder: str, *, done: bool,
    undo: bool = False, finish: bool = False,
) -> discord.ui.View:
    """A turn's select (or the chosen action), back, confirm; ``undo``: the "↩ Undo"
    button that takes back the move just made; ``finish``: "Confirm and end the turn"."""
    view = discord.ui.View(timeout=None)
    if undo:
        view.add_item(ActionButton(gid, seat, ver, "-", "undo"))
    if not done:
        view.add_item(ActionSelect(gid, seat, ver, path, choices, placeholder))
    view.add_item(ActionButton(gid, seat, ver, path, "back", disabled=path in ("", "-")))
    if done:
        view.add_item(ActionButton(gid, seat, ver, path, "confirm"))
    if done and finish:
        view.add_item(ActionButton(gid, seat, ver, path, "finish"))
    return with_table(view, gid)


# ------------------------------------------------------------------------ admin


class AbandonButton(FromCustomId, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"br:abandon:(?P<gid>\d+)"):
    def __init__(self, gid: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Yes, abandon the game", style=discord.ButtonStyle.danger, custom_id=f"br:abandon:{gid}"
            )
        )
        self.gid = gid

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _safely(interaction, _admin(interaction).on_abandon_confirmed(interaction, self.gid))


def abandon_view(gid: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(AbandonButton(gid))
    return view


# ------------------------------------------------------------------------ replay

REPLAY_BUTTONS = {"first": "⏮", "prev": "◀", "next": "▶", "last": "⏭"}


class ReplayButton(
    FromCustomId,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"br:rp:(?P<gid>\d+):(?P<op>first|prev|next|last|round):(?P<n>\d{1,7})",
):
    """A button of the ``/game replay`` stepper: it edits its own (private) message to
    show the step it goes to; it works on an old message too (the game's record is
    read again at the click)."""

    def __init__(self, gid: int, op: str, n: int, *, label: str | None = None, disabled: bool = False) -> None:
        style = discord.ButtonStyle.primary if op in ("prev", "next") else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=label or REPLAY_BUTTONS.get(op, op.title()), style=style,
                custom_id=f"br:rp:{gid}:{op}:{n}", disabled=disabled,
            )
        )
        self.gid, self.op, self.n = gid, op, n

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _safely(interaction, _replay(interaction).on_replay(interaction, self.gid, self.op, self.n))


def replay_view(gid: int, pos: int, total: int, rounds: Sequence[tuple[int, int]], now_round: Any) -> discord.ui.View:
    """⏮ ◀ ▶ ⏭ over positions 0..``total`` (0: the opening board), then one "Round N"
    button per (round, its first position) in ``rounds`` (the current one disabled)."""
    view = discord.ui.View(timeout=None)
    view.add_item(ReplayButton(gid, "first", 0, disabled=pos <= 0))
    view.add_item(ReplayButton(gid, "prev", max(0, pos - 1), disabled=pos <= 0))
    view.add_item(ReplayButton(gid, "next", min(total, pos + 1), disabled=pos >= total))
    view.add_item(ReplayButton(gid, "last", total, disabled=pos >= total))
    for i, (r, _first) in enumerate(list(rounds)[:20]):
        button = ReplayButton(gid, "round", r, label=f"Round {r}", disabled=r == now_round)
        button.item.row = 1 + i // 5
        view.add_item(button)
    return view


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton,
    AddAiSelect,
    OpenButton,
    TableButton,
    PlannerSelect,
    PlannerButton,
    ActionSelect,
    ActionButton,
    AbandonButton,
    ReplayButton,
)


def undo_view(gid: int, seat: str, ver: int) -> discord.ui.View:
    """Only the "↩ Undo" button (on the confirmation of a turn that is over)."""
    view = discord.ui.View(timeout=None)
    view.add_item(ActionButton(gid, seat, ver, "-", "undo"))
    return view


# ------------------------------------------------------------------------ strays

STRAY = (
    "That button is not one I know (or it is out of date): "
    "open your turn again with `/plan`, or use the newest message of the game."
)


def _on_message(message: discord.Message | None, custom_id: str) -> bool:
    if message is None:
        return False
    for row in message.components:
        for c in getattr(row, "children", [row]):
            if getattr(c, "custom_id", None) == custom_id:
                return True
    return False


def is_handled(custom_id: str, message: discord.Message | None) -> bool:
    """Whether one of the bot's buttons answers a click on ``custom_id``: its template
    matches and the button is on the message (discord.py drops a dynamic item whose id
    is not on the message clicked, without a word)."""
    return _on_message(message, custom_id) and any(
        item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in DYNAMIC_ITEMS  # type: ignore[attr-defined]
    )


async def answer_stray(interaction: discord.Interaction[Any]) -> None:
    """The bot's ``on_interaction`` listener: a click on a ``br:`` id that none of the
    buttons above answers (crafted, or not on its message) gets a polite private reply
    instead of Discord's "interaction failed"."""
    if interaction.type is not discord.InteractionType.component:
        return
    data: Any = interaction.data or {}
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str) or not custom_id.startswith("br:"):
        return
    if is_handled(custom_id, interaction.message):
        return
    await errors.reply_private(interaction, STRAY)
