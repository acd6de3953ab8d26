#!/bin/sh
# Installs Debian's Chromium for the browser tests (tests/browser/) when /usr/bin/chromium is missing.
# Called by `make test` and `.ci/run`. It never fails the run: without apt, or without root, it says so
# and the browser tests skip, naming the missing browser. Playwright drives this Chromium; it never
# downloads a browser of its own (no `playwright install`).
CHROMIUM=/usr/bin/chromium  # tests/browser/conftest.py launches this one

if [ -x "$CHROMIUM" ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure_chromium: no $CHROMIUM and no apt-get here; the browser tests will skip"
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO="sudo -n"
else
  echo "ensure_chromium: no $CHROMIUM; install it as root (apt-get install chromium), else the browser tests skip"
  exit 0
fi

echo "ensure_chromium: installing Debian's chromium (apt-get install chromium)"
export DEBIAN_FRONTEND=noninteractive
# A fresh machine may have no package lists yet: update once when the first try finds nothing.
$SUDO apt-get install -y -q chromium >/dev/null 2>&1 ||
  { $SUDO apt-get update -q >/dev/null 2>&1 && $SUDO apt-get install -y -q chromium >/dev/null 2>&1; } ||
  echo "ensure_chromium: apt-get could not install chromium; the browser tests will skip"
[ -x "$CHROMIUM" ] && echo "ensure_chromium: $("$CHROMIUM" --version 2>/dev/null)"
exit 0
