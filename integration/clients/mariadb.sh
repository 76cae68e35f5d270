#!/usr/bin/env bash
# Drives lakesql serve through the mariadb command-line client, the way an
# analyst runs a script: one session, --table output on stdout, errors on
# stderr. integration/clients_test.go compares both.
#
#   mariadb.sh HOST PORT
#
# --no-defaults keeps option files of the machine out, --force goes on
# after the two deliberately bad statements, and --skip-reconnect makes a
# dropped connection fail the rest of the script instead of silently opening
# a new session (the user variable @conn only survives in the same session).
set -euo pipefail
host=$1
port=$2

exec mariadb --no-defaults -h "$host" -P "$port" -u root --table --force --skip-reconnect <<'SQL'
CREATE DATABASE shop;
USE shop;
CREATE TABLE orders (
  region VARCHAR(8) NOT NULL,
  id BIGINT NOT NULL,
  amount DECIMAL(12,2),
  placed DATE,
  updated DATETIME(6),
  note VARCHAR(32),
  PRIMARY KEY (region, id)
) PARTITION BY LIST COLUMNS (region);
INSERT INTO orders (region, id, amount, placed, updated, note) VALUES
  ('eu', 1, 10.50, '2026-04-16', '2026-04-16 10:11:12.345', 'first'),
  ('us', 2, 1234567.89, '2026-04-17', '2026-04-17 00:00:00', NULL),
  ('eu', 3, NULL, NULL, NULL, 'x');
SELECT region, id, amount, placed, updated, note FROM orders ORDER BY id;
INSERT INTO orders (region, id, amount, placed, updated, note) VALUES
  ('eu', 1, 11.00, '2026-04-16', '2026-04-18 08:00:00', 'corrected'),
  ('us', 4, -0.05, '2026-12-31', '2026-12-31 23:59:59.999', 'second');
SELECT region, id, amount, placed, updated, note FROM orders ORDER BY id;
SELECT region, id, amount, placed, updated, note FROM orders FOR VERSION AS OF 1 ORDER BY id;
SET @conn = CONNECTION_ID();
SELEC * FROM orders;
SELECT * FROM no_such_table;
SELECT COUNT(*), SUM(amount) FROM orders;
SELECT CONNECTION_ID() = @conn AS same_connection;
SQL
