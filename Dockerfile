# boardroom: the Discord bot as a container.
#
#   docker build -t boardroom .
#   docker run -d --name boardroom --restart unless-stopped \
#       -e DISCORD_TOKEN=... -v boardroom-data:/data boardroom
#
# The SQLite database lives on the /data volume (BOARDROOM_DB); the bot applies
# missing migrations itself at start. Configuration: environment variables only
# (see .env.example; `docker run --env-file .env` reads that file).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# The runtime dependencies, exactly the lock's versions with their hashes (no dev
# tools); a layer of its own, rebuilt only when the lock changes (`make lock`).
COPY requirements/runtime.txt ./requirements/runtime.txt
RUN pip install --require-hashes -r requirements/runtime.txt

# Only what the package needs: no tests, no virtualenv, no databases, no .env.
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY engine ./engine
COPY render ./render
COPY migrations ./migrations

# boardroom itself, nothing more: every dependency (and the build backend) came from
# the lock above. A system user owns /data.
RUN pip install --no-deps --no-build-isolation . \
    && rm -rf build *.egg-info \
    && useradd --system --uid 10001 --user-group --home-dir /data --no-create-home \
       --shell /usr/sbin/nologin boardroom \
    && mkdir -p /data \
    && chown boardroom:boardroom /data

# The migrations are not part of the installed package: point the bot at them.
ENV BOARDROOM_DB=/data/boardroom.db \
    BOARDROOM_MIGRATIONS=/app/migrations \
    BOARDROOM_LOG_LEVEL=INFO \
    BOARDROOM_TABLE_HOST=0.0.0.0

# The live table (Discord Activity), served when BOARDROOM_TABLE_PORT is set (with
# DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET); its page, script and the bundled Embedded
# App SDK are package data of bot/table (built from the npm lock, committed).
EXPOSE 8765

USER boardroom
WORKDIR /data

# Fail the build, not the first start, if the installed bot cannot open a database.
RUN boardroom migrate --db /tmp/build-check.db && rm -f /tmp/build-check.db*

VOLUME ["/data"]

# `docker stop` sends SIGINT: the bot (PID 1) then closes the gateway and the database
# cleanly, as on Ctrl-C (discord.py installs no SIGTERM handler, and PID 1 ignores it).
STOPSIGNAL SIGINT

CMD ["boardroom", "run"]
