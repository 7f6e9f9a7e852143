#!/bin/sh
# Run once by the postgres image when the primary's data folder is made (deploy/compose.yaml): the
# role the streaming replica connects as, and the pg_hba line that lets it in for replication.
set -e
psql -v ON_ERROR_STOP=1 -U "$POSTGRES_USER" -d "$POSTGRES_DB" -c "create role repl with replication login password 'repl'"
echo "host replication repl all scram-sha-256" >> "$PGDATA/pg_hba.conf"
