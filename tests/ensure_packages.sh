#!/bin/sh
# Installs the Debian packages some tests drive, each only when its program is missing:
#   chromium  /usr/bin/chromium      tests/browser/ (Playwright drives it; it never downloads a browser)
#   pgbouncer /usr/sbin/pgbouncer    tests/integration/test_pgbouncer.py
#   pushpin   /usr/bin/pushpin       tests/integration/test_pushpin_streams.py (the tests start it)
# Called by `make test` and `.ci/run`. It never fails the run: without apt, or without root, it says so
# and those tests skip, naming the missing program (in CI, where .ci/run installs them, they fail instead).
# Nothing is started here.
set -u
missing=""
for pair in chromium:/usr/bin/chromium pgbouncer:/usr/sbin/pgbouncer pushpin:/usr/bin/pushpin; do
  [ -x "${pair#*:}" ] || missing="$missing ${pair%%:*}"
done
[ -z "$missing" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure_packages: missing$missing and no apt-get here; their tests will skip"
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO="sudo -n"
else
  echo "ensure_packages: missing$missing; install as root (apt-get install$missing), else their tests skip"
  exit 0
fi

echo "ensure_packages: installing Debian's$missing"
export DEBIAN_FRONTEND=noninteractive
# A fresh machine may have no package lists yet: update once when the first try finds nothing.
# shellcheck disable=SC2086 # one word per package
$SUDO apt-get install -y -q $missing >/dev/null 2>&1 ||
  { $SUDO apt-get update -q >/dev/null 2>&1 && $SUDO apt-get install -y -q $missing >/dev/null 2>&1; } ||
  echo "ensure_packages: apt-get could not install$missing; their tests will skip"
exit 0
