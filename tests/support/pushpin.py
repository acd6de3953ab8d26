"""Debian's Pushpin, started for a test in a directory of its own, on free ports.

The runner starts its own zurl (Debian's ``internal.conf`` expects a zurl daemon at
``/var/run/zurl``: a copy of it points at the run directory instead), and every socket but the
client's port and the publish endpoint is a Unix socket in that directory, so two tests, or a
test and a Pushpin of the machine, never meet. ``tests/ensure_packages.sh`` installs
it (``.ci/run`` and ``make test`` call it); without it the tests skip, naming it, and fail in CI.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.processes import free_port

PUSHPIN = "/usr/bin/pushpin"
INTERNAL = Path("/usr/lib/pushpin/internal.conf")
SIG_KEY = "pushpin-test-sig-key-of-32-bytes-or-more"
"""Pushpin's ``sig_key``: the server is given it as ``DRAGONHALL_GRIP_KEY``."""

CONFIG = """[global]
include={dir}/internal.conf
rundir={dir}/run
ipc_prefix=pp-
port_offset=0
stats_connection_ttl=120
[runner]
services=condure,zurl,pushpin-proxy,pushpin-handler
http_port={http_port}
logdir={dir}/log
log_level=2
client_buffer_size=8192
client_maxconn=50000
condure_bin=condure
zurl_bin=zurl
[proxy]
routesfile={dir}/routes
debug=false
auto_cross_origin=false
accept_x_forwarded_protocol=false
set_x_forwarded_protocol=proto-only
x_forwarded_for=
x_forwarded_for_trusted=
orig_headers_need_mark=
accept_pushpin_route=false
log_from=false
log_user_agent=false
sig_iss=pushpin
sig_key={sig_key}
upstream_key=
sockjs_url=
updates_check=off
organization_name=
[handler]
push_in_spec=ipc://{{rundir}}/{{ipc_prefix}}push-in
push_in_sub_specs=ipc://{{rundir}}/{{ipc_prefix}}push-in-sub
push_in_sub_connect=false
push_in_http_addr=127.0.0.1
push_in_http_port={publish_port}
push_in_http_max_headers_size=10000
push_in_http_max_body_size=1000000
stats_spec=ipc://{{rundir}}/{{ipc_prefix}}stats
command_spec=ipc://{{rundir}}/{{ipc_prefix}}command
message_rate=100000
message_hwm=100000
message_wait=5000
id_cache_ttl=60
connection_subscription_max=20
subscription_linger=60
stats_subscription_ttl=60
stats_report_interval=10
stats_format=tnetstring
"""


@dataclass
class Pushpin:
    """A running Pushpin: clients connect to ``url``, the server publishes to ``publish_url``."""

    url: str
    publish_url: str
    dir: Path
    popen: subprocess.Popen[bytes]

    def log(self) -> str:
        logs = [*sorted((self.dir / "log").glob("*.log")), self.dir / "pushpin.out"]
        return "\n".join(p.read_text(errors="replace")[-2000:] for p in logs if p.exists())


def need_pushpin() -> None:
    if os.path.exists(PUSHPIN) and INTERNAL.exists():
        return
    message = f"Pushpin is not installed ({PUSHPIN})"
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"{message} (CI needs it: .ci/run installs it)")
    pytest.skip(f"{message}; tests/ensure_packages.sh installs Debian's")


@contextmanager
def running_pushpin(backend_port: int, publish_port: int | None = None, keep: bool = False) -> Iterator[Pushpin]:
    """Pushpin in front of ``127.0.0.1:backend_port`` (publishing on ``publish_port``, else a free
    port), stopped (with its zurl) on leaving."""
    need_pushpin()
    root = Path(tempfile.mkdtemp(prefix="pp"))  # short: a Unix socket's path holds 107 bytes at most
    (root / "run").mkdir()
    (root / "log").mkdir()
    internal = INTERNAL.read_text().replace("ipc:///var/run/zurl/zurl-", "ipc://{rundir}/{ipc_prefix}zurl-")
    (root / "internal.conf").write_text(internal)
    (root / "routes").write_text(f"* 127.0.0.1:{backend_port}\n")
    http_port, publish_port = free_port(), publish_port or free_port()
    config = CONFIG.format(dir=root, http_port=http_port, publish_port=publish_port, sig_key=SIG_KEY)
    (root / "pushpin.conf").write_text(config)
    out = open(root / "pushpin.out", "wb")  # noqa: SIM115 - closed below
    popen = subprocess.Popen(
        [PUSHPIN, "--config", str(root / "pushpin.conf")], stdout=out, stderr=subprocess.STDOUT, start_new_session=True
    )
    pushpin = Pushpin(f"http://127.0.0.1:{http_port}", f"http://127.0.0.1:{publish_port}", root, popen)
    try:
        _wait_listening(pushpin, http_port, publish_port)
        yield pushpin
    finally:
        if popen.poll() is None:
            os.killpg(popen.pid, signal.SIGTERM)
            try:
                popen.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(popen.pid, signal.SIGKILL)
                popen.wait(15)
        out.close()
        if not keep:  # ``keep``: its logs stay for a look (the bench's)
            shutil.rmtree(root, ignore_errors=True)


def _wait_listening(pushpin: Pushpin, *ports: int) -> None:
    deadline = time.monotonic() + 30
    waiting = list(ports)
    while waiting:
        if pushpin.popen.poll() is not None:
            raise RuntimeError("pushpin exited:\n" + pushpin.log())
        if time.monotonic() > deadline:
            raise RuntimeError("pushpin did not listen:\n" + pushpin.log())
        try:
            with socket.create_connection(("127.0.0.1", waiting[0]), timeout=1):
                waiting.pop(0)
        except OSError:
            time.sleep(0.1)


def wait_passing(pushpin: Pushpin, path: str = "/healthz", timeout: float = 30.0) -> None:
    """Waits until a request through ``pushpin`` reaches its origin and comes back answered (200).

    Listening ports say only that Pushpin's front and publish sockets are up, not that its proxy
    passes requests on yet: a CI run saw one opening of a burst sent to a Pushpin just started go
    unanswered (cause unknown), so the tests first see one request go all the way through."""
    deadline = time.monotonic() + timeout
    last = "no answer"
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(pushpin.url + path, timeout=5) as answer:
                if answer.status == 200:
                    return
                last = f"status {answer.status}"
        except (OSError, urllib.error.URLError) as e:
            last = repr(e)
        time.sleep(0.1)
    raise RuntimeError(f"no request went through pushpin to {path} in {timeout:.0f} s ({last}):\n" + pushpin.log())
