"""What the command tells an operator: the rebuild's help and refusal, each process's connection name."""

from __future__ import annotations

import pytest

from api.cli import command_line
from api.operations import rebuild_advice, role_of


def test_the_rebuild_s_help_says_what_it_does() -> None:
    sub = command_line()._subparsers._group_actions[0]  # type: ignore[union-attr]
    said = {action.dest: action.help for action in sub._choices_actions}["rebuild-projections"] or ""
    assert "beside the live ones" in said and "drop every read model" not in said
    assert "standby" in said


def test_the_refusal_says_to_stop_the_standbys_and_serve_only_where_serve_may_lead() -> None:
    separate = rebuild_advice(embedded_projections=False)
    assert "every standby" in separate and "serve" not in separate
    embedded = rebuild_advice(embedded_projections=True)
    assert "every standby" in embedded and "`dragonhall serve`" in embedded


@pytest.mark.parametrize(
    ("argv", "role"),
    [
        (["serve"], "web"),
        (["worker"], "worker"),
        (["worker", "--beat"], "beat"),
        (["projections"], "projections"),
        (["rebuild-projections"], "rebuild"),
        (["init"], "init"),
    ],
)
def test_each_process_names_its_connections_by_its_role(argv: list[str], role: str) -> None:
    assert role_of(command_line().parse_args(argv)) == role
