"""The table through which a process tells the others which games and accounts its streams follow
(``infra.wake_interest``): a game's or an account's key is wanted while any stream follows a key of
its slot, a token's always is, and a peer with no table (yet) is sent everything."""

from __future__ import annotations

from pathlib import Path

from infra import wake_interest
from infra.wake_interest import Interest, read_table, wanted


def _pair(tmp_path: Path) -> tuple[Interest, str]:
    interest = Interest(tmp_path / f"1-a{wake_interest.SUFFIX}")
    return interest, str(tmp_path / "1-a.sock")


def test_a_game_is_wanted_while_any_stream_follows_it(tmp_path: Path) -> None:
    interest, socket = _pair(tmp_path)
    table = read_table(socket)
    assert table is not None
    assert wanted(table, "game:g") == ""
    interest.follow("game:g", True)
    interest.follow("game:g", True)
    assert wanted(table, "game:g") == "game:g"  # the sender's map sees the byte at once
    interest.follow("game:g", False)
    assert wanted(table, "game:g") == "game:g", "one stream still follows it"
    interest.follow("game:g", False)
    assert wanted(table, "game:g") == ""
    interest.close()


def test_an_account_is_wanted_while_followed_a_token_always_and_a_batch_is_filtered_key_by_key(
    tmp_path: Path,
) -> None:
    interest, socket = _pair(tmp_path)
    table = read_table(socket)
    interest.follow("game:kept", True)
    interest.follow("account:ann", True)
    batch = "game:kept\ngame:dropped\naccount:ann\naccount:bob\ntokens:bob"
    expected = "game:kept\naccount:ann\ntokens:bob"
    shared = {wake_interest.slot(k) for k in ("game:dropped", "account:bob")} & {
        wake_interest.slot(k) for k in ("game:kept", "account:ann")
    }
    assert not shared, "the test's keys have slots of their own"
    assert wanted(table, batch) == expected
    interest.follow("account:ann", False)
    assert wanted(table, "account:ann\ntokens:ann") == "tokens:ann"
    interest.want_all(True)
    assert wanted(table, batch) == batch
    interest.close()


def test_a_peer_without_a_whole_table_is_sent_every_key(tmp_path: Path) -> None:
    assert read_table(str(tmp_path / "2-b.sock")) is None
    (tmp_path / f"3-c{wake_interest.SUFFIX}").write_bytes(b"\0" * 10)  # still being made
    assert read_table(str(tmp_path / "3-c.sock")) is None
    assert wanted(None, "game:g\ngame:h") == "game:g\ngame:h"


def test_a_closed_table_leaves_no_file(tmp_path: Path) -> None:
    interest, _ = _pair(tmp_path)
    interest.close()
    assert not interest.path.exists()
