"""A tournament's settings: made, changed (audited before and after), the rule set kept while a
round is played with it."""

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from core.model_columns import concrete_field
from core.page_cache import tournament_changed
from tournaments import selectors
from tournaments.models import AuditRecord, Tournament
from tournaments.rule_set import RULE_SET_FIELDS
from tournaments.services.audit import audit, audit_value
from tournaments.services.refusal import ServiceError


class RuleSetLockedError(ServiceError):
    """The rule set cannot change while a round is played with it."""


@transaction.atomic
def tournament_settings_save(
    *,
    tournament: Tournament,
    values: dict[str, object],
    by: User | None,
    ip_address: str | None = None,
) -> Tournament:
    """Create a tournament, or change its settings, and audit what changed (before and after).

    The rule set (`tournaments.rule_set.RULE_SET_FIELDS`) is fixed for a round once it is
    published: while a round is published or in play it cannot change; a change made between
    rounds applies from the next round (each round keeps the rules it was played with)."""
    creating = tournament.pk is None
    if not creating:
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    before = {name: getattr(tournament, name) for name in values}
    changed = [name for name, value in values.items() if creating or before[name] != value]
    rule_changes = [name for name in changed if name in RULE_SET_FIELDS]
    if rule_changes and not creating:
        playing = selectors.playing_round(tournament=tournament)
        if playing is not None:
            fields = ", ".join(
                str(concrete_field(Tournament, name).verbose_name) for name in rule_changes
            )
            raise RuleSetLockedError(
                _(
                    "round %(number)d is %(status)s and is played with the rules it was "
                    "published with: %(fields)s can change once it is closed, and the change "
                    "then applies from the next round"
                )
                % {
                    "number": playing.number,
                    "status": playing.get_status_display(),
                    "fields": fields,
                }
            )
    for name, value in values.items():
        setattr(tournament, name, value)
    tournament.save()
    if changed:
        audit(
            action=AuditRecord.Action.SETTINGS_CHANGED,
            by=by,
            tournament=tournament,
            ip_address=ip_address,
            created=creating,
            before={} if creating else {name: audit_value(before[name]) for name in changed},
            after={name: audit_value(values[name]) for name in changed},
        )
    tournament_changed(tournament.pk)
    return tournament
