"""The notices app, registered with Django, and where it connects its receivers to the
signals the apps below it send (a round published, a table confirmed, a sign-up accepted)
without those apps importing it."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NoticesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notices"
    verbose_name = _("Notices to players")

    def ready(self) -> None:
        from notices import notice_receivers

        notice_receivers.connect()
