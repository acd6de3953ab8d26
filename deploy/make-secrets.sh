#!/bin/sh
# Makes the secrets deploy/compose.yaml reads, once: deploy/secrets/secret-key (the server key, 64 hex
# characters), deploy/secrets/postgres-password and deploy/secrets/grip-key (Pushpin's sig_key, which
# signs the requests it passes on). A file that exists is kept: run it again, nothing changes (a new server key would break the audit of every running game: docs/operations.md#the-server-key).
# The directory is 0700, so only its owner reads them on this machine; compose mounts each file into the
# containers that use it (/run/secrets/...). Back the directory up with the database (docs/operations.md#backups).
set -eu
dir="$(dirname "$0")/secrets"
umask 077
mkdir -p "$dir"
chmod 700 "$dir"
keep_or_make() {  # keep_or_make NAME BYTES: a file of random hex, unless it exists
  if [ -s "$dir/$1" ]; then
    echo "kept $dir/$1"
  else
    od -An -N"$2" -tx1 /dev/urandom | tr -d ' \n' > "$dir/$1.new"
    chmod 644 "$dir/$1.new"  # read inside the containers by their own users; the 0700 directory guards it here
    mv "$dir/$1.new" "$dir/$1"
    echo "made $dir/$1"
  fi
}
keep_or_make secret-key 32
keep_or_make postgres-password 24
keep_or_make grip-key 32
