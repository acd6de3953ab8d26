"""Webhook deliveries of feed entries on PostgreSQL: claimed once by processes that look at once."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import make_settings
from tests.unit.services.test_webhook_subscriptions import claim_at_once_in_two_processes


def test_two_processes_on_postgres_claim_each_entry_once(pg_url: str, pg_schema: str, tmp_path: Path) -> None:
    claim_at_once_in_two_processes(make_settings("postgres", tmp_path, database_url=pg_url, postgres_schema=pg_schema))
