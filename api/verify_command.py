"""``dragonhall verify RECORD``: checks a game record offline and prints a verdict per step.

It reads a record as the server exports it (``GET /api/v1/games/{id}/record``), as
``.json`` or gzipped (``.json.gz``, recognised by its content), or ``-`` for standard
input, and needs no server, database or configuration. It re-decides every decision
(``services.audits.verification``), prints one line per step, the signature's key and
fingerprint, every problem found, and the verdict.

A signed record (format 2) is checked against the public key it embeds. To pin the
keys you trust, give ``--key`` (a public key in base64, or its fingerprint; repeat
it for several), set ``DRAGONHALL_TRUSTED_KEYS`` (the same, separated by spaces or
commas), or name a server with ``--server URL`` (its ``GET /api/v1/keys``): then a
record signed by any other key, or unsigned, is rejected.

Exit codes: ``EXIT_VERIFIED`` 0; ``EXIT_REJECTED`` 1 (the record fails a check, or
cannot be checked by this verifier, with the reason); 2, a usage error; ``EXIT_UNREADABLE``
3 (the file is missing, unreadable, or not JSON); ``EXIT_NOT_A_RECORD`` 4 (JSON,
but not a game record of a format this verifier reads); ``EXIT_KEYS`` 5 (the
trusted keys given cannot be read or fetched). Errors are one line on standard error.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import os
import re
import sys
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

EXIT_VERIFIED = 0
EXIT_REJECTED = 1
EXIT_UNREADABLE = 3
EXIT_NOT_A_RECORD = 4
EXIT_KEYS = 5
TRUSTED_KEYS_ENV = "DRAGONHALL_TRUSTED_KEYS"
MAX_BYTES = 1 << 30
"""The largest record read (after decompression): a gzip bomb stops here, not in memory."""
PROGRESS_FROM = 400
"""Records with at least this many events show a progress bar (on a terminal's standard error)."""
_FINGERPRINT = re.compile(r"^(SHA256:)?[A-Za-z0-9+/]{43}$")


class Refused(Exception):
    """The command cannot verify: a one-line reason and its exit code."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``verify`` sub-command of ``dragonhall``."""
    verify = sub.add_parser(
        "verify",
        help="verify a game record offline; print a verdict per step",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    verify.add_argument("record", help="the record: .json or .json.gz, or - for standard input")
    verify.add_argument("--quiet", action="store_true", help="print only what fails, and the verdict")
    verify.add_argument(
        "--key",
        action="append",
        default=[],
        metavar="KEY",
        help="a trusted public key (base64) or its fingerprint; may be repeated",
    )
    verify.add_argument("--server", metavar="URL", help="trust the keys this server publishes at /api/v1/keys")


def run(args: argparse.Namespace) -> int:
    """Verifies ``args.record``; the exit code says how it went (see the module's docstring)."""
    try:
        trusted = trusted_keys(args.key, os.environ.get(TRUSTED_KEYS_ENV, ""), args.server)
        record = read_record(args.record)
        report = _verify(record, trusted)
    except Refused as e:
        print(f"dragonhall verify: {e}", file=sys.stderr)
        return e.code
    except KeyboardInterrupt:
        return 130
    code = EXIT_VERIFIED if report["ok"] else EXIT_REJECTED
    with _quiet_broken_pipe():
        _print_report(report, args.quiet, trusted is not None)
    return code


def read_record(path: str) -> Any:
    """The JSON of ``path`` (``-`` is standard input), gunzipped if it is gzip."""
    try:
        if path == "-":
            raw = sys.stdin.buffer.read(MAX_BYTES + 1)
        else:
            with open(path, "rb") as f:
                raw = f.read(MAX_BYTES + 1)
        if raw[:2] == b"\x1f\x8b":
            with gzip.GzipFile(fileobj=io.BytesIO(raw)) as z:
                raw = z.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise Refused(EXIT_UNREADABLE, f"{path}: no such file") from None
    except IsADirectoryError:
        raise Refused(EXIT_UNREADABLE, f"{path}: a directory, not a record") from None
    except PermissionError:
        raise Refused(EXIT_UNREADABLE, f"{path}: permission denied") from None
    except (OSError, EOFError, ValueError) as e:  # BadGzipFile, a truncated gzip, zlib errors
        raise Refused(EXIT_UNREADABLE, f"{path}: cannot be read ({_reason(e)})") from None
    if len(raw) > MAX_BYTES:
        raise Refused(EXIT_UNREADABLE, f"{path}: larger than {MAX_BYTES >> 20} MiB")
    try:
        return json.loads(raw, parse_constant=_no_constants)
    except RecursionError:
        raise Refused(EXIT_UNREADABLE, f"{path}: not JSON this verifier reads (nested too deeply)") from None
    except ValueError as e:  # JSONDecodeError, UnicodeDecodeError, an integer too long
        raise Refused(EXIT_UNREADABLE, f"{path}: not JSON ({_reason(e)})") from None


def trusted_keys(keys: list[str], env: str, server: str | None) -> list[str] | None:
    """The trusted keys or fingerprints given, or None when none is pinned."""
    names = [*keys, *(k for k in re.split(r"[\s,]+", env) if k)]
    for name in names:
        if not _is_key_name(name):
            raise Refused(EXIT_KEYS, f"{name!r} is neither a base64 Ed25519 public key nor a SHA256 fingerprint")
    if server:
        names += _server_keys(server)
    return names if (names or server) else None


def _is_key_name(name: str) -> bool:
    from services.audits.record_signing import PublicKey

    if _FINGERPRINT.match(name):
        return True
    try:
        PublicKey.parse(name)
    except ValueError:
        return False
    return True


def _server_keys(server: str) -> list[str]:
    url = server.rstrip("/")
    if not url.endswith("/api/v1/keys"):
        url += "/api/v1/keys"
    try:
        with urllib.request.urlopen(url, timeout=15) as response:
            body = json.loads(response.read(1 << 20))
        keys = [str(k["public_key"]) for k in body["keys"]]
    except (urllib.error.URLError, OSError, ValueError, KeyError, TypeError) as e:
        raise Refused(EXIT_KEYS, f"cannot fetch the trusted keys from {url} ({_reason(e)})") from None
    if not keys or not all(_is_key_name(k) for k in keys):
        raise Refused(EXIT_KEYS, f"{url} publishes no record-signing key")
    return keys


def _verify(record: Any, trusted: list[str] | None) -> dict[str, Any]:
    from services.audits.verification import NotARecord, verify_record
    from wiring import register_games

    register_games()  # the rules of every game this build knows

    events = record.get("events") if isinstance(record, dict) else None
    long = isinstance(events, list) and len(events) >= PROGRESS_FROM
    with _progress(len(events) if long and events else 0) as advance:
        try:
            return verify_record(record, trusted, advance)
        except NotARecord as e:
            raise Refused(EXIT_NOT_A_RECORD, str(e)) from None


@contextmanager
def _progress(total: int) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on standard error, when it is a terminal and the record is long."""
    if not total or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("re-deciding", total=total)
        yield lambda done, _total: bar.update(task, completed=done)


def _print_report(report: dict[str, Any], quiet: bool, pinned: bool) -> None:
    for step in report["steps"]:
        if not quiet or not step["ok"]:
            mark = "ok  " if step["ok"] else "FAIL"
            print(f"{mark} v{step['version']:>5} {step['actor']:<24} {step['summary']}")
    key = report.get("signature")
    if key:
        trust = (
            "a trusted key"
            if report["checks"].get("key_trusted")
            else ("NOT a trusted key" if pinned else "the key the record embeds; pin it with --key or --server")
        )
        print(f"signature: {key['algorithm']} key {key['key_id']}, fingerprint {key['fingerprint']} ({trust})")
    elif report.get("format") == "dragonhall-record/1":
        print("signature: none (records of format 1 are unsigned)")
    for problem in report["problems"]:
        print(f"FAIL {problem['where']}: {problem['message']}")
    print(report["verdict"])


@contextmanager
def _quiet_broken_pipe() -> Iterator[None]:
    """A reader that stops early (``| head``) ends the output, not the command with a traceback."""
    try:
        yield
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so that the flush at exit does not fail again


def _no_constants(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON number")


def _reason(e: BaseException) -> str:
    text = str(e) or type(e).__name__
    return text if len(text) <= 120 else text[:117] + "..."
