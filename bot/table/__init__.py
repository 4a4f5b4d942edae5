"""The live table: boardroom's Discord Activity (issue 24), served by the bot's own process.

A web page that Discord shows in an iframe (launched by a ``LAUNCH_ACTIVITY`` interaction
response or the Entry Point command), or any browser for a local game
(``boardroom table``). It plays the same games through the same :class:`bot.app.App`:
the same engine views per seat, the same ``act`` with expected versions, the same
outbox. Nothing here imports ``discord`` or a game package: a game's table parts come
from its folder (``bot/games/<game>/table.py`` and ``table.js``, found through
:func:`bot.games.table_parts`).

- :mod:`bot.table.config`: the environment (port, OAuth client id and secret);
- :mod:`bot.table.auth`: Discord's OAuth2 code exchange (through the bot's API base) and
  the table's own session tokens;
- :mod:`bot.table.access`: who may see a game (its players, and members who can see its
  channel on Discord, as the bot asks);
- :mod:`bot.table.guard`: the limits (sign-in rate, waiters, connections, timeouts);
- :mod:`bot.table.live`: who waits for which game's next version (long-poll);
- :mod:`bot.table.payload`: what one caller may see of a game (their seat's view only);
- :mod:`bot.table.server`: the aiohttp application (API, static files, headers, limits).
"""
