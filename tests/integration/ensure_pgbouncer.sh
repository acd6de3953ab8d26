#!/bin/sh
# Installs Debian's PgBouncer for tests/integration/test_pgbouncer.py when /usr/sbin/pgbouncer is missing.
# Called by `make test` and `.ci/run`. It never fails the run: without apt, or without root, it says so
# and the test skips, naming the missing program (in CI, where .ci/run installs it, it fails instead).
PGBOUNCER=/usr/sbin/pgbouncer  # tests/integration/test_pgbouncer.py runs this one

if [ -x "$PGBOUNCER" ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure_pgbouncer: no $PGBOUNCER and no apt-get here; the PgBouncer test will skip"
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO="sudo -n"
else
  echo "ensure_pgbouncer: no $PGBOUNCER; install it as root (apt-get install pgbouncer), else its test skips"
  exit 0
fi

echo "ensure_pgbouncer: installing Debian's pgbouncer (apt-get install pgbouncer)"
export DEBIAN_FRONTEND=noninteractive
# A fresh machine may have no package lists yet: update once when the first try finds nothing.
$SUDO apt-get install -y -q pgbouncer >/dev/null 2>&1 ||
  { $SUDO apt-get update -q >/dev/null 2>&1 && $SUDO apt-get install -y -q pgbouncer >/dev/null 2>&1; } ||
  echo "ensure_pgbouncer: apt-get could not install pgbouncer; its test will skip"
[ -x "$PGBOUNCER" ] && echo "ensure_pgbouncer: $("$PGBOUNCER" --version 2>/dev/null | head -n 1)"
exit 0
