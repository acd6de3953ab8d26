"""``dragonhall verify``: reads what a user hands it, answers in one line when it cannot, never crashes."""

from __future__ import annotations

import gzip
import io
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from api import verify_command
from api.cli import main
from tests.unit.audit.sample_records import FORGER, bot_record

CLI = Path(sys.executable).parent / "dragonhall"
OFFLINE = {"PATH": "/usr/bin:/bin"}  # no database, no broker, no server, no settings
CORPUS = sorted((Path(__file__).parents[2] / "regression" / "corpus").glob("*/*.json.gz"))


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[Any, str]]:
    """A platform, and the URL of its HTTP API served on a local port."""
    from werkzeug.serving import make_server

    from api.app import create_app
    from services.common.ports import NullWork
    from tests.conftest import make_settings
    from wiring import bootstrap

    platform = bootstrap(make_settings("memory"), work=NullWork())
    server = make_server("127.0.0.1", 0, create_app(platform), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield platform, f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    platform.close()


@pytest.fixture(scope="module")
def record(served: tuple[Any, str]) -> dict[str, Any]:
    return bot_record(served[0], "mekong")


@pytest.fixture
def files(tmp_path: Path, record: dict[str, Any]) -> dict[str, Path]:
    good = tmp_path / "game.json"
    good.write_text(json.dumps(record))
    packed = tmp_path / "game.json.gz"
    packed.write_bytes(gzip.compress(good.read_bytes()))
    other = dict(record)
    other.pop("signature")
    other["signature"] = FORGER.sign(other)
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(other))
    return {"good": good, "packed": packed, "forged": forged}


def run(*argv: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """The command in this process: its exit code, standard output and standard error."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdout, sys.stderr, dict(os.environ)
    sys.stdout, sys.stderr = out, err
    os.environ.pop(verify_command.TRUSTED_KEYS_ENV, None)
    os.environ.update(env or {})
    try:
        code = main(["verify", *argv])
    finally:
        sys.stdout, sys.stderr = saved[0], saved[1]
        os.environ.clear()
        os.environ.update(saved[2])
    return code, out.getvalue(), err.getvalue()


def test_a_record_verifies_from_json_and_gzipped_json_and_names_its_key(
    files: dict[str, Path], record: dict[str, Any]
) -> None:
    for path in (files["good"], files["packed"]):
        code, out, err = run(str(path))
        assert code == verify_command.EXIT_VERIFIED, out + err
        assert out.count("\nok ") > 10 and out.rstrip().splitlines()[-1].startswith("VERIFIED")
        key = record["signature"]
        assert f"key {key['key_id']}, fingerprint {key['fingerprint']}" in out and "pin it" in out


def test_every_record_of_the_repositorys_corpus_verifies_from_its_gzipped_file() -> None:
    for path in CORPUS[::12]:
        code, out, err = run(str(path), "--quiet")
        with gzip.open(path, "rt", encoding="utf-8") as f:
            recorded_as = json.load(f)["format"]
        if recorded_as == "dragonhall-record/1":  # recorded before records were signed
            assert code == 0 and "VERIFIED (format 1, unsigned)" in out, (path, out, err)
            assert "signature: none" in out
        else:  # rebuilt since (Drachenreiter's games), signed by the corpus's server key
            assert code == 0 and "VERIFIED:" in out and "signed by key" in out, (path, out, err)


@pytest.mark.parametrize(
    ("content", "code", "says"),
    [
        (None, verify_command.EXIT_UNREADABLE, "no such file"),
        (b"{not json", verify_command.EXIT_UNREADABLE, "not JSON"),
        (b"\x1f\x8b\x08\x00truncated", verify_command.EXIT_UNREADABLE, "cannot be read"),
        (b"[" * 100_000 + b"]" * 100_000, verify_command.EXIT_UNREADABLE, "nested too deeply"),
        (b'{"x": NaN}', verify_command.EXIT_UNREADABLE, "not JSON"),
        (b"[1, 2, 3]", verify_command.EXIT_NOT_A_RECORD, "a record is a JSON object, not a list"),
        (b'{"hello": "world"}', verify_command.EXIT_NOT_A_RECORD, "not a game record"),
        (
            b'{"format": "dragonhall-record/9", "header": {}, "events": [], "decisions": []}',
            verify_command.EXIT_NOT_A_RECORD,
            "is not one this verifier reads",
        ),
    ],
    ids=["missing", "not-json", "bad-gzip", "deep", "nan", "list", "object", "format"],
)
def test_what_is_not_a_readable_record_gets_one_line_and_its_own_exit_code(
    tmp_path: Path, content: bytes | None, code: int, says: str
) -> None:
    path = tmp_path / "input.json"
    if content is not None:
        path.write_bytes(content)
    got, out, err = run(str(path))
    assert got == code and code not in (verify_command.EXIT_VERIFIED, verify_command.EXIT_REJECTED)
    assert out == "" and len(err.strip().splitlines()) == 1 and says in err and "Traceback" not in err


def test_a_record_signed_by_another_key_passes_unpinned_and_fails_pinned(
    files: dict[str, Path], record: dict[str, Any]
) -> None:
    code, out, _ = run(str(files["forged"]))
    assert code == 0 and FORGER.public.key_id in out
    server = record["signature"]
    for pin in (["--key", server["public_key"]], ["--key", server["fingerprint"]]):
        assert run(str(files["good"]), *pin)[0] == 0
        code, out, _ = run(str(files["forged"]), *pin)
        assert code == verify_command.EXIT_REJECTED and "NOT a trusted key" in out and "REJECTED" in out
    env = {verify_command.TRUSTED_KEYS_ENV: f"{FORGER.public.fingerprint}, {server['fingerprint']}"}
    assert run(str(files["forged"]), env=env)[0] == 0
    code, _, err = run(str(files["good"]), "--key", "not-a-key")
    assert code == verify_command.EXIT_KEYS and "neither a base64 Ed25519 public key" in err


def test_the_server_option_trusts_the_keys_the_server_publishes(
    files: dict[str, Path], served: tuple[Any, str]
) -> None:
    url = served[1]
    code, out, _ = run(str(files["good"]), "--server", url)
    assert code == 0 and "(a trusted key)" in out
    assert run(str(files["forged"]), "--server", url)[0] == verify_command.EXIT_REJECTED
    code, _, err = run(str(files["good"]), "--server", "http://127.0.0.1:9")
    assert code == verify_command.EXIT_KEYS and "cannot fetch the trusted keys" in err


def test_a_long_record_shows_progress_on_a_terminal_and_not_elsewhere(
    files: dict[str, Path], record: dict[str, Any]
) -> None:
    assert len(record["events"]) >= verify_command.PROGRESS_FROM

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    seen: list[int] = []
    saved = sys.stderr
    sys.stderr = Terminal()
    try:
        with verify_command._progress(len(record["events"])) as advance:
            assert advance is not None
            advance(10, len(record["events"]))
            seen.append(1)
    finally:
        sys.stderr = saved
    assert seen
    with verify_command._progress(len(record["events"])) as advance:
        assert advance is None, "standard error is not a terminal here"


def test_the_command_runs_offline_reads_standard_input_and_survives_a_reader_that_stops_early(
    files: dict[str, Path],
) -> None:
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first line: every write fails
    try:
        done = subprocess.run(
            [str(CLI), "verify", str(files["good"])],
            stdout=write,
            stderr=subprocess.PIPE,
            env=OFFLINE,
            cwd=files["good"].parent,
            timeout=120,
        )
    finally:
        os.close(write)
    assert done.returncode == 0 and done.stderr == b"", done.stderr.decode()
    shell = subprocess.run(
        ["/bin/bash", "-c", f"set -o pipefail; '{CLI}' verify '{files['packed']}' | head -n 2"],
        capture_output=True,
        text=True,
        env=OFFLINE,
        timeout=120,
    )
    assert shell.returncode == 0 and len(shell.stdout.splitlines()) == 2 and "Traceback" not in shell.stderr
    with files["packed"].open("rb") as stdin:
        piped = subprocess.run(
            [str(CLI), "verify", "--quiet", "-"], stdin=stdin, capture_output=True, text=True, env=OFFLINE, timeout=120
        )
    assert piped.returncode == 0 and piped.stdout.rstrip().splitlines()[-1].startswith("VERIFIED")
    missing = subprocess.run(
        [str(CLI), "verify", "nowhere.json"],
        capture_output=True,
        text=True,
        env=OFFLINE,
        cwd=files["good"].parent,
        timeout=120,
    )
    assert missing.returncode == verify_command.EXIT_UNREADABLE
    assert missing.stderr == "dragonhall verify: nowhere.json: no such file\n"
