"""Real `dragonhall` processes for integration tests: serve, worker, projections."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

BIN = Path(sys.executable).parent / "dragonhall"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Proc:
    """One background process whose output goes to a log file."""

    def __init__(self, args: list[str], env: dict[str, str], log: Path, cwd: Path) -> None:
        self.log = log
        self._out = open(log, "w")  # noqa: SIM115 - closed in stop()
        self.popen = subprocess.Popen(
            [str(BIN), *args],
            env={**os.environ, **env},
            cwd=cwd,
            stdout=self._out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def alive(self) -> bool:
        return self.popen.poll() is None

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.alive():
            os.killpg(self.popen.pid, sig)
            self.popen.wait(15)

    def stop(self) -> None:
        if self.alive():
            os.killpg(self.popen.pid, signal.SIGTERM)
            try:
                self.popen.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()
        self._out.close()

    def tail(self, n: int = 3000) -> str:
        return self.log.read_text(errors="replace")[-n:]


class Server(Proc):
    def __init__(self, env: dict[str, str], workdir: Path, args: tuple[str, ...] = ()) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        super().__init__(["serve", "--port", str(self.port), *args], env, workdir / f"serve-{self.port}.log", workdir)
        deadline = time.time() + 40
        while time.time() < deadline:
            if not self.alive():
                raise RuntimeError("server exited:\n" + self.tail())
            try:
                if self.call("GET", "/healthz")[0] == 200:
                    return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("server did not answer /healthz:\n" + self.tail())

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        req = urllib.request.Request(
            self.base + path, method=method, data=None if body is None else json.dumps(body).encode()
        )
        req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"null")

    def bot_game(self, game: str, players: int, bot: str = "random", **extra: Any) -> tuple[str, str]:
        st, owner = self.call("POST", "/api/v1/players", {"name": f"owner-{uuid.uuid4().hex[:8]}"})  # unique
        assert st == 201, owner
        st, g = self.call("POST", "/api/v1/games", {"game": game, "players": players, **extra}, owner["token"])
        assert st == 201, g
        for _ in range(players):
            st, body = self.call("POST", f"/api/v1/games/{g['id']}/seats", {"bot": bot}, owner["token"])
            assert st == 201, body
        return g["id"], owner["token"]

    def wait_status(self, gid: str, status: str = "finished", timeout: float = 120) -> dict[str, Any]:
        deadline = time.time() + timeout
        doc: Any = None
        while time.time() < deadline:
            st, doc = self.call("GET", f"/api/v1/games/{gid}")
            if st == 200 and doc["status"] == status:
                return doc
            time.sleep(0.2)
        raise AssertionError(f"game {gid} not {status} after {timeout} s: {doc and doc.get('status')}\n" + self.tail())
