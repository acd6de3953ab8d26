"""What a dispute's calls refuse: the errors of ``services.audits.disputes``."""

from __future__ import annotations

from services.common.errors import ServiceError


class DisputeNotFound(ServiceError):
    code = "dispute_not_found"


class DisputeResolved(ServiceError):
    """A dispute is resolved once: a second verdict conflicts with the first (409)."""

    code = "dispute_resolved"
