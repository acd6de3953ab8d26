"""What a tournament's calls refuse, and why: each error of ``services.competition.tournaments``."""

from __future__ import annotations

from services.common.errors import ServiceError


class TournamentNotFound(ServiceError):
    code = "tournament_not_found"


class RegistrationClosed(ServiceError):
    """The tournament has started (or is full): no one registers any more."""

    code = "registration_closed"


def past(status: str) -> str:
    """What became of a tournament that takes no more registrations, by its status."""
    return {"cancelled": "was cancelled", "finished": "has ended"}.get(status, "has started")


class NotOwner(ServiceError):
    """Only a player, or the owner of a bot, registers that player."""

    code = "not_owner"


class NotOrganiser(ServiceError):
    """Only the tournament's organiser (who announced it) starts it early or cancels it."""

    code = "not_organiser"


class TooFewPlayers(ServiceError):
    """A tournament started early needs at least the game's fewest seats registered."""

    code = "too_few_players"


__all__ = ["NotOrganiser", "NotOwner", "RegistrationClosed", "TooFewPlayers", "TournamentNotFound", "past"]
