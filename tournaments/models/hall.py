"""Who is present for a round: checked in (by the organiser, or by the player himself) and
checked out."""

from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.models.registrations import Registration
from tournaments.models.rounds import Round


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
