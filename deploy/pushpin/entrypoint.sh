#!/bin/sh
# Starts Pushpin in its container: the key from compose's secret (/run/secrets/grip-key, the same file the
# Dragonhall processes read as DRAGONHALL_GRIP_KEY_FILE), the publish endpoint open to compose's network.
set -eu
mkdir -p /run/dragonhall-pushpin /var/log/dragonhall-pushpin
sed -e "s/^sig_key=.*/sig_key=$(cat /run/secrets/grip-key)/" \
    -e "s/^push_in_http_addr=.*/push_in_http_addr=0.0.0.0/" \
    /etc/dragonhall/pushpin.conf > /run/dragonhall-pushpin/pushpin.conf
exec pushpin --config /run/dragonhall-pushpin/pushpin.conf "$@"
