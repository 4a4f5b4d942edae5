"""What an applied Outcome tells Discord, as outbox rows (issue 8 §1, issue 7 "The channel").

Pure functions, no ``discord`` import, no database, no clock: the application layer
(:meth:`bot.app.core.Core._write_rows`) reads what they need (the game, its presenter,
the finished Outcome, whether the status message exists, the deadlines, the players'
DM preferences) inside the action's own transaction and writes the rows they return in
that same transaction. The deliverer (:mod:`bot.delivery`, :mod:`bot.posting`) sends
them and draws the pictures; nothing here renders.

A row is ``(kind, target, payload, ordered)`` (see :mod:`bot.posting` for the payloads):

* one post per phase (and at the end): its pictures, the log lines of the phase that
  ended (a turn inside a phase posts nothing: its lines are held for this post, rows of
  kind ``hold``), one mention of each player who must act now, with their deadline;
* when a round ends, one "Round N results" post: each company's VP change by source;
* the game's one status message (posted once, then edited in place; an edit after a
  turn inside a phase waits a little for a newer one, :func:`status_edit`): phase, who must
  act, the deadlines (the AI takeover's time, which does not move, and the reminders'
  rhythm, never the next reminder's moving time), plans sealed n/N and who changed
  nothing yet;
* DMs: the private decision of each secret seat; a player whose turn comes inside a
  phase (or, if they asked for it, every turn of theirs) is told by DM with a link to the
  game's place (a mention in the channel if their DMs are closed); the last player of a
  simultaneous decision is told so, once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot import text

if TYPE_CHECKING:
    from bot.games import Presenter
    from bot.records import GameInfo, Outcome

Row = tuple[str, str, dict[str, Any], bool]

CLOSED_NOTE_SHORT = ": I cannot send you direct messages. Use `/plan` in this channel."


def post_row(content: str, *, ordered: bool = True, **extra: Any) -> Row:
    """An outbox row posting ``content`` in the game's place."""
    return ("post", "place", {"content": content, **extra}, ordered)


def status_edit(content: str) -> Row:
    """An edit of the status message that nothing is posted with: it waits a little
    (``settle``) for a newer one to replace it, and holds up nothing (:mod:`bot.delivery`)."""
    return ("edit", "status", {"content": content, "settle": True}, False)


def decision_key(view: Mapping[str, Any]) -> str:
    """Which secret decision a draft belongs to (a new round's starts afresh)."""
    return f"round {view.get('round')}"


def user_of(info: GameInfo, seat: str) -> int | None:
    s = info.seat_named(seat)
    return s.user_id if s is not None else None


def names(info: GameInfo, seats: Sequence[str]) -> list[str]:
    out = []
    for s in seats:
        si = info.seat_named(s)
        out.append(si.display_name if si else s)
    return out


@dataclass
class Context:
    """What composing needs beyond the Outcome, read by the app in the action's own
    transaction.

    - ``has_status``: the game's status message exists, or its post waits in the outbox
      (else it is posted): an edit of it waits in the game's lane behind that post;
    - ``untouched``: seats still deciding in secret whose planner shows a fresh draft;
    - ``deadlines``: seat -> {"nudge": due_at, "takeover": due_at} (epoch seconds);
    - ``every_turn``: user ids who asked for a DM at every turn of theirs;
    - ``last_one``: seats to tell (once) that they are the last one to decide;
    - ``no_dm``/``no_mention``: players who want no DM for a turn (a mention only, or the
      daily digest) or no mention in the channel (DMs only, or the digest): issue 36.
    """

    has_status: bool = True
    untouched: list[str] = field(default_factory=list)
    deadlines: dict[str, dict[str, float]] = field(default_factory=dict)
    every_turn: set[int] = field(default_factory=set)
    last_one: list[str] = field(default_factory=list)
    no_dm: set[int] = field(default_factory=set)
    no_mention: set[int] = field(default_factory=set)


def when(due: float | None) -> str:
    """A Discord timestamp, shown in each reader's own time ("in 4 hours")."""
    return f"<t:{int(due)}:R>" if due else ""


def deadline_words(ctx: Context, seat: str | None) -> str:
    """"AI takes over <t:…:R>" for a seat the game waits for, or "".

    Only the takeover time is shown: it is fixed when the seat's turn begins, so a
    message that stays on screen (the status message, the phase's post, a planner DM)
    stays true. The next reminder's time is not: the scheduler moves it each time it
    sends one, without editing those messages, and "reminder 5 minutes ago" would be
    shown as the next deadline. The reminders' rhythm is told as a policy instead
    (:func:`reminder_words`); ``/game status`` shows the next reminder's time, fresh."""
    if seat is None:
        return ""
    due = (ctx.deadlines.get(seat) or {}).get("takeover")
    return f"AI takes over {when(due)}" if due else ""


def reminder_words(info: GameInfo, ctx: Context, seats: Sequence[str]) -> str:
    """The status message's line on reminders, true whenever it is read (the rule, not
    the next reminder's time): "🔔 A reminder after 4 h of waiting, then every 12 h."
    (and "no deadline" when AI takeover is off), or "" when none of ``seats`` is reminded."""
    reminded = [s for s in seats if (ctx.deadlines.get(s) or {}).get("nudge")]
    if not reminded:
        return ""
    st = info.settings
    rule = f"a reminder after {text.hours(st.remind_after_hours)} of waiting, then every {text.hours(st.repeat_hours)}"
    if any((ctx.deadlines.get(s) or {}).get("takeover") for s in seats):
        return f"🔔 {rule[0].upper()}{rule[1:]}."
    return f"⏳ No deadline (AI takeover is off); {rule}."


def compose(info: GameInfo, game: Presenter, out: Outcome, view: Mapping[str, Any], ctx: Context) -> list[Row]:
    """The outbox rows of a finished, applied Outcome, in the order they are sent."""
    rows: list[Row] = []
    planned = any(game.is_secret_action(a.action or {}) for a in out.applied)
    revealed = planned and out.phase_changed
    new_post = out.phase_changed or out.over
    keyboard = at_keyboard(out)
    for seat in out.secret_seats:
        if seat == keyboard:
            continue  # the message they clicked shows their next decision: no second copy
        uid = user_of(info, seat)
        if uid is not None and uid not in ctx.no_dm:  # closed DMs: a note in the phase post, or a mention of its own
            note = {} if new_post else {"fallback": f"<@{uid}>{CLOSED_NOTE_SHORT}"}
            due = deadline_words(ctx, seat)
            if due:
                note["note"] = f"⏳ {due[0].upper()}{due[1:]}."
            # open_at: the version it is written at (a planner DM for a decision the seat took
            # meanwhile, by another prompt, is dropped: bot.posting.DiscordSender.taken)
            rows.append(("dm", str(uid), {"planner": seat, "open_at": out.version, **note}, True))
    if new_post:
        round_pictures = [  # e.g. the round's sales, with the VP they scored
            {"file": filename, "fn": "draw", "args": [info.game, info.drawn(extra)]}
            for filename, extra in game.round_pictures(out.phase_views)
        ]
        for i, results in enumerate(out.results):  # before the phase's post: the round that just ended
            last = i == len(out.results) - 1
            rows.append(post_row(text.clip(results, 1900), alone=True, pictures=round_pictures if last else []))
        pictures: list[dict[str, Any]] = [] if out.results else round_pictures
        if revealed:
            pictures.append({"file": "reveal.png", "fn": "draw_reveal", "args": [info.game, info.drawn(view)]})
        else:
            pictures.append({"file": "board.png", "fn": "draw", "args": [info.game, info.drawn(view)]})
        embeds = [result_embed(info, game, out.result)] if out.over and out.result else []
        payload: dict[str, Any] = {
            "content": post_text(info, game, out, view, ctx),
            "pictures": pictures,
            "embeds": embeds,
            "buttons": "open" if out.pending and not out.over else None,
            "open_at": out.version,
            "dm_note": bool(out.secret_seats),
            "held": True,
        }
        rows.append(("post", "place", payload, True))
    else:
        events = text.with_player_names([e for e in out.events if e], info)
        if events:  # a turn inside the phase: its lines wait for the phase's post
            rows.append(("hold", "log", {"lines": events}, True))
    rows.extend(turn_dms(info, game, out, view, ctx, new_post=new_post))
    for seat in ctx.last_one:
        uid = user_of(info, seat)
        if uid is None or uid in ctx.no_dm:
            continue
        due = deadline_words(ctx, seat)
        rows.append((
            "dm",
            str(uid),
            {
                "content": f"⏳ You are the last one: game #{info.id} in <#{info.place_id}> waits only for your decision"
                + (f" ({due})." if due else "."),
                "buttons": "open",
                "open_at": out.version,
                "seat": seat,
                "notice": "last",  # on the seat's open planner DM if it has one (one DM per turn)
                # closed DMs: the channel mention closed DMs get elsewhere
                "fallback": f"<@{uid}> ⏳ You are the last one: the game waits only for your decision."
                + (f" {due[0].upper()}{due[1:]}." if due else "")
                + " Use `/plan` here.",
            },
            False,
        ))
    status = status_text(info, game, out, view, ctx, revealed=revealed)
    if ctx.has_status and new_post:
        rows.append(("edit", "status", {"content": status, **lingering(game, view, status, revealed)}, True))
    elif ctx.has_status:  # a turn inside the phase: a newer status may follow soon (issue 9)
        rows.append(status_edit(status))
    else:
        rows.append(("post", "place", {"content": status, "remember": "status"}, True))
    return rows


def at_keyboard(out: Outcome) -> str | None:
    """The seat that just acted and goes on in the same phase: the message they clicked
    shows them their next decision (so no DM, no ping, for it)."""
    last = out.applied[-1] if out.applied else None
    return last.seat if last and last.actor == "player" and not out.phase_changed else None


def turn_dms(
    info: GameInfo, game: Presenter, out: Outcome, view: Mapping[str, Any], ctx: Context, *, new_post: bool
) -> list[Row]:
    """The DM of each player whose (non-secret) turn is new: always for a turn inside a
    phase (the channel posts nothing then), and at a new phase for the players who asked
    for a DM at every turn of theirs."""
    if game.secret_phase(view) or out.over:
        return []  # planners go by DM with the secret seats
    rows: list[Row] = []
    pending = {uid: s for s, uid in out.pending.items()}
    for uid in out.mentions:
        if (new_post and uid not in ctx.every_turn) or uid in ctx.no_dm:
            continue  # the phase's post mentions them, or they want no DM
        seat = pending.get(uid)
        what = game.describe_prompt(out.new_prompts.get(seat) if seat else None)
        due = deadline_words(ctx, seat)
        payload: dict[str, Any] = {
            "content": text.sentence(f"🎲 Your move in game #{info.id} (<#{info.place_id}>): {what}")
            + (f"\n⏳ {due[0].upper()}{due[1:]}." if due else ""),
            "buttons": "open",
            "open_at": out.version,
            "seat": seat,
        }
        if not new_post:  # nothing in the channel mentions them: a mention there if DMs are closed
            payload["fallback"] = text.sentence(f"<@{uid}> 🎲 Your move: {what}")
        rows.append(("dm", str(uid), payload, True))
    return rows


def lingering(game: Presenter, view: Mapping[str, Any], status: str, revealed: bool) -> dict[str, Any]:
    """The status message's lines that stay true until the phase's end (``linger``: an edit
    that only drops them is not sent, :class:`bot.delivery.Shown`): "All plans sealed —
    revealed below" after a reveal."""
    if not revealed or game.secret_phase(view):
        return {}
    done = game.sealed_done(view, game.sealed_counts(view)[1])
    return {"linger": [done]} if done in status.split("\n") else {}


def status_text(
    info: GameInfo, game: Presenter, out: Outcome, view: Mapping[str, Any], ctx: Context, *, revealed: bool = False
) -> str:
    """The game's status message: phase, who must act and their deadlines, plans sealed."""
    if out.over:
        return f"🏁 Game #{info.id} is over — final scores below."
    lines: list[str] = []
    if game.secret_phase(view):
        sealed, total, waiting = game.sealed_counts(view)
        lines.append(
            text.sealed_text(sealed, total, names(info, waiting), names(info, ctx.untouched), game.sealed_words(view))
        )
    else:
        if revealed:
            _sealed, total, _waiting = game.sealed_counts(view)
            lines.append(game.sealed_done(view, total))
        phase = view.get("phase_title") or game.phase_title(view.get("phase"))
        movers = names(info, list(out.pending))
        who = f"{', '.join(movers)} to move" if movers else "the AI players move"
        lines.append(f"▶️ Round {view.get('round')} · {phase} — {who}.")
    for seat in out.pending:
        due = deadline_words(ctx, seat)
        if due:
            lines.append(f"⏳ {names(info, [seat])[0]}: {due}.")
    reminders = reminder_words(info, ctx, list(out.pending))
    if reminders:
        lines.append(reminders)
    return "\n".join(lines)


def ping(info: GameInfo, ctx: Context, uid: int) -> str:
    """A mention, or the player's name for one who wants no mention (issue 36)."""
    if uid not in ctx.no_mention:
        return f"<@{uid}>"
    return next((f"**{s.display_name}**" for s in info.seats if s.user_id == uid), "a player")


def post_text(info: GameInfo, game: Presenter, out: Outcome, view: Mapping[str, Any], ctx: Context) -> str:
    """The phase post's text: heading, log lines, who must act (one mention each)."""
    head = f"**Round {view.get('round')} · {view.get('phase_title') or game.phase_title(view.get('phase'))}**"
    if out.over:
        head = "**Game over**"
    parts = [head]
    events = text.with_player_names([e for e in out.events if e], info)
    if events:
        parts.append(text.log_block(events, limit=1200))
    if out.mentions and not out.over:
        pings = " ".join(ping(info, ctx, u) for u in out.mentions)
        seats = {uid: s for s, uid in out.pending.items()}
        if game.secret_phase(view):
            due = deadline_words(ctx, seats.get(out.mentions[0]))
            parts.append(
                f"{pings}: plan your decision in secret — check your DMs, or use `/plan` here."
                + (f" ⏳ {due[0].upper()}{due[1:]}." if due else "")
            )
        else:
            what = []
            for uid in out.mentions:
                seat = seats.get(uid)
                prompt = out.new_prompts.get(seat) if seat else None
                due = deadline_words(ctx, seat)
                what.append(f"{ping(info, ctx, uid)}: {game.describe_prompt(prompt)}" + (f" ({due})" if due else ""))
            parts.append("Your move — " + "; ".join(what) + ".")
    elif out.pending and not out.over:
        parts.append("Waiting for " + ", ".join(names(info, list(out.pending))) + ".")
    return "\n".join(parts)


def result_embed(info: GameInfo, game: Presenter, result: Mapping[str, Any]) -> dict[str, Any]:
    """The final scores as an embed (Discord's embed JSON; :mod:`bot.posting` builds it)."""
    lines = game.result_lines(result, lambda seat: names(info, [seat])[0])
    embed: dict[str, Any] = {
        "type": "rich",
        "title": f"Final scores — game #{info.id}",
        "description": text.clip("\n".join(lines), 4000) or "The game is over.",
    }
    winners = result.get("winners") or []
    if winners:
        embed["footer"] = {"text": "Winner: " + ", ".join(names(info, list(winners)))}
    return embed
