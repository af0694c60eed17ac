"""The audit log: one line per organiser or referee action."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.tournament import Tournament


class AuditRecord(models.Model):
    """One organiser or referee action, with a typed code (who, when, from where, what)."""

    class Action(models.TextChoices):
        ROUND_GENERATED = "round.generated", _("seating generated")
        ROUND_REGENERATED = "round.regenerated", _("published seating regenerated")
        ROUND_SWAP = "round.swap", _("players swapped")
        ROUND_PUBLISHED = "round.published", _("round published")
        PLAYERS_IMPORTED = "players.imported", _("players imported")
        PLAYER_SAVED = "player.saved", _("player added or changed")
        CLUB_ADDED = "club.added", _("club added")
        # The codes are stored, in the database and in every exported archive: those of actions on
        # registrations keep the names they were first stored under (`entries.*`, `entry.*`),
        # so that an archive of any age imports as it was written.
        REGISTRATIONS_CREATED = "entries.registered", _("players registered")
        REGISTRATION_CHANGED = "entry.changed", _("registration changed")
        REGISTRATION_WITHDRAWN = "entry.withdrawn", _("registration withdrawn")
        ROUND_CREATED = "round.created", _("round prepared")
        CHECK_IN_CHANGED = "round.check_in", _("check-in changed")
        QUALIFIERS_REGISTERED = "entries.qualified", _("qualifiers registered from the ranking")
        RANKING_CHANGED = "ranking.changed", _("season or final invitation changed")
        DEAL_ENTERED = "deal.entered", _("deal entered")
        DEAL_CORRECTED = "deal.corrected", _("deal corrected")
        DEAL_REMOVED = "deal.removed", _("deal removed")
        PENALTY_GIVEN = "penalty.given", _("penalty pule given")
        TABLE_CONFIRMED = "table.confirmed", _("table confirmed")
        TABLE_UNLOCKED = "table.unlocked", _("table unlocked")
        TOKEN_ISSUED = "token.issued", _("table link issued")
        TOKEN_REVOKED = "token.revoked", _("table link revoked")
        DISPLAY_LINK_ISSUED = "display_link.issued", _("hall display link issued")
        DISPLAY_LINK_REVOKED = "display_link.revoked", _("hall display link revoked")
        ROUND_CLOSED = "round.closed", _("round closed")
        ROLE_GRANTED = "role.granted", _("role given")
        ROLE_REVOKED = "role.revoked", _("role taken away")
        TABLE_REFEREES = "table.referees", _("table referees assigned")
        TOURNAMENT_IMPORTED = "tournament.imported", _("tournament imported from an archive")
        SETTINGS_CHANGED = "tournament.settings", _("tournament settings changed")
        CLOCK_STARTED = "round.clock_started", _("round clock started")
        CLOCK_RESET = "round.clock_reset", _("round clock stopped and reset")
        TIME_CALLED = "round.time_called", _("time called")
        DEALS_ALLOWED = "table.deals_allowed", _("more deals allowed after time")
        API_TOKEN_CREATED = "api_token.created", _("API token created")
        API_TOKEN_REVOKED = "api_token.revoked", _("API token revoked")
        # Self check-in and calling the referee.
        SELF_CHECK_IN = "round.self_check_in", _("player checked himself in")
        REFEREE_CALLED = "table.referee_called", _("chief referee called to a table")
        REFEREE_CALL_ANSWERED = "table.referee_call_answered", _("referee call answered")
        # Entry fees and prizes.
        FEES_PAID = "fees.paid", _("entry fees ticked paid or unpaid")
        FEE_CATEGORIES = "fees.categories", _("fee categories changed")
        FEE_CATEGORY_SET = "fees.category_set", _("fee category given to players")
        # Late and absent players
        LATE_ARRIVAL = "player.late", _("late arrival recorded")
        OUT_OF_ROUND = "player.out_of_round", _("player out of the round")
        # Registration online.
        SIGNUP_CREATED = "signup.created", _("signed up online")
        SIGNUP_ACCEPTED = "signup.accepted", _("online sign-up accepted")
        SIGNUP_MOVED = "signup.moved", _("online sign-up moved")
        SIGNUP_REFUSED = "signup.refused", _("online sign-up refused")
        # What the players are told (notices).
        ANNOUNCEMENT_SENT = "notice.announcement", _("announcement sent to the players")

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="audit_records",
        verbose_name=_("tournament"),
    )
    table = models.ForeignKey(
        "Table",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="audit_records",
        verbose_name=_("table"),
    )
    action = models.CharField(_("action"), max_length=40, choices=Action.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("account"),
    )
    at = models.DateTimeField(_("when"), auto_now_add=True)
    ip_address = models.GenericIPAddressField(_("address"), null=True, blank=True)
    detail = models.JSONField(_("detail"), default=dict, blank=True)

    class Meta:
        ordering = ("-at", "-id")
        verbose_name = _("audit record")
        verbose_name_plural = _("audit records")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action}"  # codes, for operators
