"""Shared pieces of the playtests (tests/test_playtest_*.py): a player who answers every
turn the way a newcomer on a phone does (the "Open my turn" button of the phase's post or
of the "your move" DM, then the select and Confirm), counting the clicks of each turn,
and a transcript of everything the bot sent, in order, for reading and for checks."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from tests.fake_discord import FakeDiscord, iter_components, message_text

HEADER = re.compile(r"\*\*Round (\d+) · ([^*]+)\*\*|\*\*Game over\*\*|\*\*Round (\d+) results\*\*")
TROUBLE = ("Sorry", "went wrong", "Traceback", "Exception", "Error:")


@dataclass
class Clicks:
    """Clicks (a slash command, a button, a choice in a select) per kind of turn."""

    turns: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))

    def add(self, kind: str, n: int) -> None:
        self.turns[kind].append(n)

    def summary(self) -> dict[str, dict[str, float]]:
        return {
            k: {"turns": len(v), "min": min(v), "max": max(v), "mean": round(sum(v) / len(v), 1)}
            for k, v in sorted(self.turns.items())
        }


def where(fake: FakeDiscord, path: str) -> str:
    """Which place a request wrote to: the channel, a DM, or an interaction's reply."""
    m = re.match(r"/channels/(\d+)/", path)
    if m:
        ch = fake.channels.get(m.group(1)) or {}
        if ch.get("type") == 1:
            uid = ch.get("_user_id")
            name = next((u["username"] for u in fake.users.values() if u["id"] == uid), uid) if hasattr(fake, "users") else uid
            return f"DM {name}"
        return "channel"
    if "/callback" in path:
        return "reply"
    if path.startswith("/webhooks/"):
        return "reply-edit" if "/messages/" in path else "followup"
    return path


def transcript(fake: FakeDiscord) -> list[dict[str, Any]]:
    """Every message the bot wrote (posts, edits, DMs, interaction answers), in order:
    where, the texts a player reads, the labels, and the names of the files."""
    out = []
    for rec in fake.requests:
        body = rec.json
        if not isinstance(body, dict) or "/commands" in rec.path or rec.method not in ("POST", "PATCH"):
            continue
        data = body.get("data") if "/callback" in rec.path else body
        if not isinstance(data, dict):
            continue
        texts = [data.get("content") or ""]
        for e in data.get("embeds") or []:
            texts += [e.get("title") or "", e.get("description") or ""]
            texts += [f"{f.get('name')}: {f.get('value')}" for f in e.get("fields") or []]
            texts.append((e.get("footer") or {}).get("text") or "")
        labels = []
        for c in iter_components(data):
            if c.get("placeholder"):
                labels.append(f"[{c['placeholder']}]")
            if c.get("label"):
                labels.append(f"<{c['label']}>")
            for o in c.get("options") or []:
                labels.append(f"  - {o.get('label')} | {o.get('description') or ''}")
        entry = {
            "where": where(fake, rec.path),
            "method": rec.method,
            "text": "\n".join(t for t in texts if t),
            "labels": labels,
            "files": [n for n, _ in rec.files],
        }
        if entry["text"] or entry["labels"] or entry["files"]:
            out.append(entry)
    return out


def dump(fake: FakeDiscord, path: str) -> None:
    with open(path, "w") as f:
        for e in transcript(fake):
            f.write(f"=== {e['where']} {e['method']} files={e['files']}\n{e['text']}\n")
            for lab in e["labels"]:
                f.write(f"    {lab}\n")


def posts_per_phase(fake: FakeDiscord) -> dict[str, dict[str, Any]]:
    """Per phase (the header of the post that opened it): the channel posts, the mentions
    per user in them, and the files posted."""
    out: dict[str, dict[str, Any]] = {}
    phase = "lobby"
    for r in fake.requests:
        if not fake.posted_in(r):  # (a public follow-up of a click there too)
            continue
        content = (r.json or {}).get("content") or ""
        m = HEADER.search(content)
        if m:
            phase = m.group(0).strip("*")
        t = out.setdefault(phase, {"posts": 0, "mentions": defaultdict(int), "files": []})
        t["posts"] += 1
        t["files"] += [n for n, _ in r.files]
        for uid in re.findall(r"<@(\d+)>", content):
            t["mentions"][uid] += 1
    return out


def select(msg: dict[str, Any]) -> dict[str, Any] | None:
    return next((c for c in iter_components(msg) if c["type"] == 3 and not c.get("disabled")), None)


def options(msg: dict[str, Any]) -> list[dict[str, Any]]:
    sel = select(msg)
    return [o for o in (sel or {}).get("options", []) if not o["value"].startswith("@")]


def can(msg: dict[str, Any], label: str) -> bool:
    return any((c.get("label") or "").startswith(label) and not c.get("disabled") for c in iter_components(msg))


def turn_prompt(fake: FakeDiscord, users: list[dict], used: set[str], since: int, dm_floor: int) -> tuple[dict, dict] | None:
    """The oldest unanswered "Open my turn" message (a phase's post naming the player, or
    a "your move" DM): (the message, its player)."""
    found = []
    for m in fake.public_messages()[since:]:
        if m["id"] in used or "· Planning**" in m.get("content", ""):
            continue
        if any(c.get("label") == "Open my turn" for c in iter_components(m)):
            for u in users:
                if f"<@{u['id']}>" in m["content"]:
                    found.append((int(m["id"]), m, u))
                    break
    for u in users:
        for m in fake.dm_messages(u):
            if int(m["id"]) > dm_floor and m["id"] not in used and any(c.get("label") == "Open my turn" for c in iter_components(m)):
                found.append((int(m["id"]), m, u))
    if not found:
        return None
    _, m, u = min(found, key=lambda f: f[0])
    return m, u


def text_of_all(fake: FakeDiscord) -> str:
    return "\n".join(e["text"] + "\n" + "\n".join(e["labels"]) for e in transcript(fake))


def trouble(fake: FakeDiscord) -> list[str]:
    return [e["text"][:200] for e in transcript(fake) if any(w in e["text"] for w in TROUBLE)]


def last_text(msg: dict[str, Any]) -> str:
    return message_text(msg)
