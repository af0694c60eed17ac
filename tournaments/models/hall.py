"""The hall on the day: who is present for a round (check-in, and checked out), the tables'
calls to the chief referee, and the hall display's private link."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.models.registrations import Registration
from tournaments.models.rounds import Round, Table, new_table_token
from tournaments.models.tournament import Tournament


class CheckInMethod(models.TextChoices):
    """How a check-in was made: the round's preparation checks in every player provisionally,
    the organiser's tick is final, the player himself by the round's code or his own link."""

    ROUND = "round", _("with the round's preparation")
    ORGANISER = "organiser", _("by the organiser")
    CODE = "code", _("by the player, with the round's code")
    LINK = "link", _("by the player, with his own link")


class CheckIn(models.Model):
    """A registration is present for a round; only checked-in players are seated."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="check_ins", verbose_name=_("round")
    )
    registration = models.ForeignKey(
        Registration,
        on_delete=models.CASCADE,
        related_name="check_ins",
        verbose_name=_("registration"),
    )
    checked_in_at = models.DateTimeField(_("checked in at"), auto_now_add=True)
    method = models.CharField(
        _("checked in"),
        max_length=10,
        choices=CheckInMethod.choices,
        default=CheckInMethod.ORGANISER,
    )

    class Meta:
        verbose_name = _("check-in")
        verbose_name_plural = _("check-ins")
        constraints = (
            models.UniqueConstraint(
                fields=["round", "registration"], name="check_in_once_per_round"
            ),
        )

    def __str__(self) -> str:
        return gettext("%(entry)s · round %(number)s") % {
            "entry": self.registration,
            "number": self.round.number,
        }


class DisplayLink(models.Model):
    """The private address of the tournament's hall display (/t/<slug>/display/<token>/): the
    public display and the check-in code of the round being prepared, for the screen in the
    hall. The organiser renews or revokes it; a tournament has one working link at most."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="display_links",
        verbose_name=_("tournament"),
    )
    token = models.CharField(_("token"), max_length=64, unique=True, default=new_table_token)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-pk")
        verbose_name = _("hall display link")
        verbose_name_plural = _("hall display links")

    def __str__(self) -> str:
        return gettext("%(tournament)s · hall display link") % {"tournament": self.tournament}


class CheckOut(models.Model):
    """The organiser unticked this registration for this round: his tick is final, so the
    player cannot check himself in again for it."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="check_outs", verbose_name=_("round")
    )
    registration = models.ForeignKey(
        Registration,
        on_delete=models.CASCADE,
        related_name="check_outs",
        verbose_name=_("registration"),
    )
    checked_out_at = models.DateTimeField(_("checked out at"), auto_now_add=True)

    class Meta:
        verbose_name = _("check-out")
        verbose_name_plural = _("check-outs")
        constraints = (
            models.UniqueConstraint(
                fields=["round", "registration"], name="check_out_once_per_round"
            ),
        )

    def __str__(self) -> str:
        return gettext("%(entry)s · round %(number)s") % {
            "entry": self.registration,
            "number": self.round.number,
        }


class RefereeCall(models.Model):
    """A table called the chief referee; open until he marks it answered. A table has at most
    one open call: pressing again after a minute reminds him (`reminded_at`)."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="referee_calls", verbose_name=_("table")
    )
    called_at = models.DateTimeField(_("called at"))
    reminded_at = models.DateTimeField(_("called again at"), null=True, blank=True)
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("answered by"),
    )

    class Meta:
        ordering = ("called_at", "pk")
        verbose_name = _("referee call")
        verbose_name_plural = _("referee calls")
        constraints = (
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(answered_at__isnull=True),
                name="referee_call_one_open_per_table",
            ),
        )

    def __str__(self) -> str:
        return gettext("%(table)s · call") % {"table": self.table}
