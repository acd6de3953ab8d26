"""The embedded store's files are readable by their owner alone (``infra.private_files``)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from infra.private_files import private_dir, private_file
from services.common.config import Settings
from services.common.ports import NullWork
from wiring import bootstrap


@pytest.fixture
def usual_umask() -> Iterator[None]:
    """The umask most systems give a service (022), under which files used to be made 0644."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_every_file_and_directory_the_embedded_store_makes_is_its_owners_alone(
    tmp_path: Path, usual_umask: None
) -> None:
    data = tmp_path / "deploy" / "var"
    # several HTTP processes: the version board and the projections' leader lock are made too
    settings = Settings.from_env(
        {"DRAGONHALL_STORE": "sqlite", "DRAGONHALL_DATA_DIR": str(data), "DRAGONHALL_HTTP_WORKERS": "2"}
    )
    platform = bootstrap(settings, projections=True, work=NullWork())
    try:
        player, _ = platform.accounts.register("ada", "human")
        platform.games.create_game(player.id, "dice-race", None, None, 2)
        platform.wait_for_projections()
        made = {p.name: _mode(p) for p in data.iterdir()}
        assert {
            "events.db",
            "events.db-wal",
            "events.db-shm",
            "views.db",
            "views.db-wal",
            "service.db",
            "service.db-wal",
            "secret.key",
            "versions.board",
            "tables.lock",
            "projections.lock",
            "events.db.writers",
            "views.db.writers",
        } <= set(made), sorted(made)
        assert {name: oct(mode) for name, mode in made.items() if mode != 0o600} == {}
        assert [oct(_mode(d)) for d in (tmp_path / "deploy", data)] == [oct(0o700)] * 2
    finally:
        platform.close()


def test_a_second_process_opens_what_the_first_made(tmp_path: Path, usual_umask: None) -> None:
    """Every process of a deployment runs as one user: 0600 files take nothing from them."""
    import subprocess
    import sys

    env = {**os.environ, "DRAGONHALL_STORE": "sqlite", "DRAGONHALL_DATA_DIR": str(tmp_path)}
    env.pop("DRAGONHALL_SECRET_KEY", None)
    first = bootstrap(Settings.from_env(env), projections=False, work=NullWork())
    player, token = first.accounts.register("ada", "human")
    read = (
        "from wiring import bootstrap; from services.common.ports import NullWork; "
        "p = bootstrap(projections=False, work=NullWork()); "
        "print(p.accounts.authenticate(__import__('sys').argv[1]).id, p.settings.secret_key.hex()); p.close()"
    )
    try:
        out = subprocess.run(
            [sys.executable, "-c", read, token], env=env, capture_output=True, text=True, timeout=120, check=True
        ).stdout.split()
    finally:
        first.close()
    assert out == [player.id, first.settings.secret_key.hex()]


def test_an_existing_file_or_directory_keeps_the_mode_its_operator_gave_it(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o750)
    os.chmod(shared, 0o750)
    chosen = shared / "service.db"
    chosen.write_bytes(b"")
    os.chmod(chosen, 0o640)
    private_dir(shared)
    private_file(chosen)
    assert (_mode(shared), _mode(chosen)) == (0o750, 0o640)
