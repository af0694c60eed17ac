"""The environment a manage.py of its own runs in: the tests that start one (production
settings, a second database) clear what the settings read and set what they need."""

# Everything the settings read; the tests set what they need and nothing leaks in from outside.
SETTINGS_VARIABLES = {
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "DATABASE_URL",
    "REDIS_URL",
    "HTTPS",
    "HSTS_SECONDS",
    "HSTS_INCLUDE_SUBDOMAINS",
    "HSTS_PRELOAD",
    "TRUSTED_PROXIES",
    "PUBLIC_PAGE_CACHE_SECONDS",
    "BACKUP_DIR",
    "STATIC_ROOT",
    "LOG_LEVEL",
    "VAPID_PUBLIC_KEY",
    "VAPID_PRIVATE_KEY",
    "VAPID_SUBJECT",
    "PUSH_SERVICES",
    "NOTICES_SENDER",
    "SITE_URL",
    "EMBED_FRAME_ANCESTORS",
    "EMAIL_HOST",
    "EMAIL_PORT",
    "EMAIL_HOST_USER",
    "EMAIL_HOST_PASSWORD",
    "EMAIL_USE_TLS",
    "EMAIL_USE_SSL",
    "DEFAULT_FROM_EMAIL",
    # Set by the browser tests (tests/e2e/conftest.py) for this process only.
    "DJANGO_ALLOW_ASYNC_UNSAFE",
}
