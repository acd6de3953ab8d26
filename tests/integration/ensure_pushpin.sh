#!/bin/sh
# Installs Debian's Pushpin for tests/integration/test_pushpin_streams.py when /usr/bin/pushpin is missing.
# Called by `make test` and `.ci/run`. It never fails the run: without apt, or without root, it says so
# and the tests skip, naming the missing program (in CI, where .ci/run installs it, they fail instead).
# The tests start their own Pushpin (and its zurl) in a temporary directory: nothing is started here.
PUSHPIN=/usr/bin/pushpin  # tests/support/pushpin.py runs this one

if [ -x "$PUSHPIN" ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure_pushpin: no $PUSHPIN and no apt-get here; the Pushpin tests will skip"
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO="sudo -n"
else
  echo "ensure_pushpin: no $PUSHPIN; install it as root (apt-get install pushpin), else its tests skip"
  exit 0
fi

echo "ensure_pushpin: installing Debian's pushpin (apt-get install pushpin)"
export DEBIAN_FRONTEND=noninteractive
# A fresh machine may have no package lists yet: update once when the first try finds nothing.
$SUDO apt-get install -y -q pushpin >/dev/null 2>&1 ||
  { $SUDO apt-get update -q >/dev/null 2>&1 && $SUDO apt-get install -y -q pushpin >/dev/null 2>&1; } ||
  echo "ensure_pushpin: apt-get could not install pushpin; its tests will skip"
[ -x "$PUSHPIN" ] && echo "ensure_pushpin: $("$PUSHPIN" --version 2>/dev/null | head -n 1)"
exit 0
