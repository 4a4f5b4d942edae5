#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests (issue 37), with Debian's postgresql-common:
#   scripts/pg_cluster.sh start DIR PORT   # prints the BOARDROOM_TEST_DB URL; exit 3: no PostgreSQL here
#   scripts/pg_cluster.sh stop DIR PORT    # stops it and removes DIR
#   scripts/pg_cluster.sh down DIR PORT [fast|immediate]  # stops the server, keeps DIR (a
#   scripts/pg_cluster.sh up DIR PORT      #   restart or a crash mid-game: tests/test_pg_faults.py)
#   scripts/pg_cluster.sh standby DIR PORT PRIMARY_PORT  # a hot standby of the cluster on
#   scripts/pg_cluster.sh promote DIR PORT  #   PRIMARY_PORT (pg_basebackup), then promoted: a failover
# PostgreSQL refuses to run as root: the cluster belongs to the postgres user (or, not
# root, to whoever runs this). It listens on 127.0.0.1:PORT only; its data is in DIR.
set -euo pipefail
cmd=${1:?start|stop}; dir=${2:?DIR}; port=${3:?PORT}
version=$(ls /usr/lib/postgresql 2>/dev/null | sort -n | tail -1 || true)
if [ -z "$version" ] || ! command -v pg_createcluster >/dev/null 2>&1; then
    echo "no PostgreSQL server here (Debian: apt-get install postgresql)" >&2
    exit 3
fi
name="boardroom_test_$port"
bin="/usr/lib/postgresql/$version/bin"
if [ "$(id -u)" = 0 ]; then as=(runuser -u postgres --); owner=postgres; else as=(); owner=$(id -un); fi
case "$cmd" in
start)
    mkdir -p "$dir"
    chown "$owner" "$dir" 2>/dev/null || true
    chmod 700 "$dir"
    "${as[@]}" pg_createcluster -q "$version" "$name" -d "$dir/data" -p "$port" \
        -s "$dir" -l "$dir/log" -- --auth=trust --no-sync >/dev/null
    # a test cluster: loopback only, no durability (a crash loses the throwaway data; initdb
    # does not sync its files either: 5.4 -> 3.6 s for a start)
    printf '%s\n' "listen_addresses = '127.0.0.1'" "unix_socket_directories = '$dir'" \
        "fsync = off" "synchronous_commit = off" "full_page_writes = off" \
        "max_connections = 200" "shared_buffers = 64MB" \
        | "${as[@]}" tee "/etc/postgresql/$version/$name/conf.d/boardroom_test.conf" >/dev/null
    "${as[@]}" pg_ctlcluster "$version" "$name" start
    "${as[@]}" psql -q -h 127.0.0.1 -p "$port" -U "$owner" -d postgres \
        -c "CREATE DATABASE boardroom_test" >/dev/null
    echo "postgresql://$owner@127.0.0.1:$port/boardroom_test"
    ;;
stop)
    if [ -f "$dir/standby" ]; then "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true; fi
    "${as[@]}" pg_dropcluster --stop "$version" "$name" 2>/dev/null || true
    rm -rf "$dir"
    if [ -d "/etc/postgresql/$version/$name" ]; then rm -rf "/etc/postgresql/$version/$name" || true; fi
    ;;
down)
    "${as[@]}" pg_ctlcluster "$version" "$name" stop -m "${4:-fast}"
    ;;
up)
    "${as[@]}" pg_ctlcluster "$version" "$name" start
    ;;
standby)
    # not a cluster of postgresql-common's: its own configuration in DIR, run by pg_ctl
    primary=${4:?PRIMARY_PORT}
    mkdir -p "$dir"
    chown "$owner" "$dir" 2>/dev/null || true
    chmod 700 "$dir"
    touch "$dir/standby"
    "${as[@]}" pg_basebackup -h 127.0.0.1 -p "$primary" -U "$owner" -D "$dir/data" -R -X stream -c fast --no-sync
    printf '%s\n' "port = $port" "listen_addresses = '127.0.0.1'" "unix_socket_directories = '$dir'" \
        "hba_file = '$dir/pg_hba.conf'" "hot_standby = on" "fsync = off" "full_page_writes = off" \
        "max_connections = 200" "shared_buffers = 64MB" | "${as[@]}" tee "$dir/data/postgresql.conf" >/dev/null
    printf '%s\n' "local all all trust" "host all all 127.0.0.1/32 trust" \
        | "${as[@]}" tee "$dir/pg_hba.conf" >/dev/null
    "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w start >/dev/null
    echo "postgresql://$owner@127.0.0.1:$port/boardroom_test"
    ;;
promote)
    "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -w promote >/dev/null
    ;;
*) echo "start|stop|down|up|standby|promote" >&2; exit 2 ;;
esac
