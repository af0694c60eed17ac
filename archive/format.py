"""What the export and the import share: the archive's name and versions, and the small helpers
both use."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from django.contrib.auth import get_user_model
from django.db import models

from scoring.models import TWELFTHS
from tournaments.models import AuditRecord, RoundStatus

# The file calls a registration an entry ("entries"; the "entry" of a seat, a result and a deal
# version; "confirmed_by_entry"): a file written before must still load, so its keys keep that
# word whatever the models call these fields.
ARCHIVE_FORMAT = "zole-tournament-archive"
# 1: settings, players, entries, rounds, tables with the current sheet and the confirmed results.
# 2: also every deal version, confirmers, check-ins, seating warnings and flags, the accounts'
#    roles and the audit log.
# 3: also each round's rule set (the options it was published with) and round clock, and which
#    tables were confirmed short because time was called. The rounds of an older archive were
#    played with the tournament's options: a published one is given them when it is imported.
# 4: also the event day: fee categories and each entry's fee paid (when, to whom), when each
#    entry registered, the online registrations, how and when each player checked in and whom
#    the organiser marked absent, late arrivals and players out of the round, the calls to the
#    chief referee, and the deals the chief referee allowed a table after time.
ARCHIVE_VERSION = 4
READABLE_VERSIONS = (1, 2, 3, 4)
# Not settings: the row's id and its creation and change times (an imported tournament is
# created, and so changed, at its import). (The roles, many-to-many relations to accounts, are
# exported by username beside the settings.)
NOT_SETTINGS = frozenset({"id", "created_at", "changed_at"})
# Audit records whose detail names players by entry id (as the engine keys them).
DEAL_ACTIONS = frozenset(
    {
        AuditRecord.Action.DEAL_ENTERED,
        AuditRecord.Action.DEAL_CORRECTED,
        AuditRecord.Action.DEAL_REMOVED,
        AuditRecord.Action.PENALTY_GIVEN,
    }
)
IMPORT_CLIENT_KEY = "archive-{position}-{version}"  # DealResult.client_key of an imported row
OPEN_STATUSES = (RoundStatus.PUBLISHED, RoundStatus.IN_PLAY)
BATCH_SIZE = 1000


def json_value(value: object) -> object:
    if isinstance(value, Decimal):  # a percentage: its exact text, never a float
        return str(value)
    return value.isoformat() if hasattr(value, "isoformat") else value


def place_points_text(twelfths: int) -> str:
    return str(Fraction(twelfths, TWELFTHS))  # exact: "4", "14/3"


def user_relations(model: type[models.Model]) -> list[models.ManyToManyField]:
    """The model's many-to-many relations to user accounts: the roles it records (a
    tournament's organisers, chief referees and referees; a table's referees)."""
    user_model = get_user_model()
    return sorted(
        (field for field in model._meta.many_to_many if field.related_model is user_model),
        key=lambda field: field.name,
    )


def through_model(relation: models.ManyToManyField) -> type[models.Model]:
    """The model of a many-to-many relation's table of pairs (Django's own, for a role)."""
    through = relation.remote_field.through
    if not isinstance(through, type):  # a lazy "app.Model" reference: never, once apps are ready
        raise TypeError(f"{relation} has no through model yet")
    return through
