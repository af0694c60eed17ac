"""The hall on the day: the tables' calls to the chief referee, and the hall display's private
link (who is present for a round is the round's check-in, tournaments.models.CheckIn)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.models import Table, Tournament, new_table_token


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
        # The table kept the name it had when the hall was part of the tournaments app: the move
        # to this app changed only where the model is declared, not a row or a column.
        db_table = "tournaments_displaylink"

    def __str__(self) -> str:
        return gettext("%(tournament)s · hall display link") % {"tournament": self.tournament}


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
        # The table kept the name it had when the hall was part of the tournaments app: the move
        # to this app changed only where the model is declared, not a row or a column.
        db_table = "tournaments_refereecall"
        constraints = (
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(answered_at__isnull=True),
                name="referee_call_one_open_per_table",
            ),
        )

    def __str__(self) -> str:
        return gettext("%(table)s · call") % {"table": self.table}
