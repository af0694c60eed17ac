from django.apps import AppConfig


class ZoleSiteConfig(AppConfig):
    """The site on top of the apps: settings, URLs, its own pages (home, documentation, health).
    Installed for the history of its migrations: the rate limits' failure count it once kept
    now belongs to core (core/migrations/0001 takes it over, table and all)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "zole_site"
    verbose_name = "Zole site"
