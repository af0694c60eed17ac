"""The site itself as an app: what it installs of its own (its migrations, its system checks)."""

from django.apps import AppConfig


class ZoleSiteConfig(AppConfig):
    """The site on top of the apps: settings, URLs, its own pages (home, documentation, health).
    Installed for its two migrations, on which core's first depends: the first creates the rate
    limits' failure count, the second hands it to core (core/migrations/0001), table and all."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "zole_site"
    verbose_name = "Zole site"

    def ready(self) -> None:
        from zole_site import system_checks  # noqa: F401  (registers the site's system checks)
