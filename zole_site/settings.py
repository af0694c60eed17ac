"""Settings for the Zole tournament site.

One module for every environment: the differences come from environment variables, so
development, CI and production run the same code paths. README.md ("Production") lists them:
DEBUG, SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL, REDIS_URL, HTTPS, TRUSTED_PROXIES, ...
"""

import os
import re
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    """Read a boolean environment variable ("1", "true", "yes", "on" are true)."""
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    """Read a comma-separated environment variable, ignoring blanks."""
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


# A CSP source a frame-ancestors list may name: any site ("*"), this site ("'self'"), or an origin
# with no path, its host's leftmost label "*" for every subdomain (https://*.klubs.lv).
FRAME_ANCESTOR = re.compile(
    r"\*|'self'|https?://(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*"
    r"(:[0-9]{1,5})?"
)


def env_frame_ancestors(name: str) -> list[str]:
    """Read a list of the sites that may frame a page, separated by spaces or commas; any entry
    that is not a source `FRAME_ANCESTOR` matches stops the start (a typo would otherwise put
    the header's directive out of force, or let a quote or a semicolon into the header)."""
    value = os.environ.get(name, "")
    sources = [item.rstrip("/") for item in re.split(r"[\s,]+", value.strip().lower()) if item]
    wrong = [source for source in sources if not FRAME_ANCESTOR.fullmatch(source)]
    if wrong:
        raise ImproperlyConfigured(
            f"{name} takes origins such as https://lzf.lv or https://*.klubs.lv, '*' or 'self', "
            f"separated by spaces or commas; not {', '.join(map(repr, wrong))}."
        )
    return sources


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, got {value!r}.") from None


# Development is the default so that a fresh clone runs with no configuration at all.
DEBUG = env_bool("DEBUG", default=True)

# DEVELOPMENT ONLY: this key is public (it is in the repository). It is accepted only with
# DEBUG on; a deployment must set SECRET_KEY or it refuses to start.
_DEVELOPMENT_SECRET_KEY = "django-insecure-zole-development-key-do-not-use-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = _DEVELOPMENT_SECRET_KEY

ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS",
    default=["localhost", "127.0.0.1", "testserver"] if DEBUG else [],
)
# Origins (https://zole.example.lv) trusted for form posts when a proxy rewrites the host.
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_tables2",
    "django_htmx",
    "corsheaders",
    "core",  # the plumbing every app uses
    "tournaments",
    "accounts",
    "signups",
    "hall",
    "scoring",
    "notices",  # what players are told: Web Push to their phones, mail to sign-ups
    "ranking",
    "archive",  # a tournament exported and imported as one JSON file
    "documents",  # the printed documents (PDF)
    "entry",  # table entry: the referee's sheet page, the phone's sync
    "organise",  # the organiser's pages (/organise/)
    "public",  # the public pages, the hall display, the home page
    "api",  # the JSON API (/api/v1/)
    "zole_site",  # the site on top: its pages; the history of its migrations
    "demo",  # demo data for trying the site, the benchmarks and the tests (`manage.py load_demo`)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files straight from gunicorn (no separate file server), before anything else runs.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # The security headers wrap everything below, so the refusals made there carry them too.
    "core.security.ContentSecurityPolicyMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Answers the API's preflight requests itself and marks its answers for the origins allowed,
    # before anything below can answer them (django-cors-headers asks to be this high).
    "corsheaders.middleware.CorsMiddleware",
    # Under /api/ an error page of anything below is answered as JSON (CORS headers added after).
    "core.security.ApiRefusalsAsJsonMiddleware",
    # Before the CSRF check, which would read (and spool) the body of an oversized upload.
    "core.security.RequestSizeLimitMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the visitor's choice (a cookie), else the browser's, else Latvian.
    "django.middleware.locale.LocaleMiddleware",
    # Before anything looks a text up (the session, a page): refused in the reader's language.
    "core.security.NulCharacterMiddleware",
    # A JSON body's lone surrogate (the phone's sync, the API's import), refused the same way.
    "core.security.LoneSurrogateMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last: it runs the view, and runs it again after a dropped database connection.
    "core.dropped_connections.DroppedConnectionMiddleware",
]

ROOT_URLCONF = "zole_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.account_roles",
            ],
        },
    },
]

WSGI_APPLICATION = "zole_site.wsgi.application"
ASGI_APPLICATION = "zole_site.asgi.application"

# SQLite is the embedded default; PostgreSQL for real events via DATABASE_URL.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=60,
        # A connection kept from before a database restart is tested before it is reused.
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            # Busy timeout (seconds): a writer waits for a competing one (several referees
            # entering deals at once) instead of failing at once with "database is locked".
            "timeout": 20,
            # WAL: readers (the public standings) never block the writer, nor it them. The
            # default synchronous=FULL is kept: a confirmed deal survives a power cut too.
            "init_command": "PRAGMA journal_mode=WAL",
            # Take the write lock at BEGIN, where the busy timeout applies: a deferred
            # transaction that reads first and writes later fails at once on a competing
            # writer ("database is locked") instead of waiting.
            "transaction_mode": "IMMEDIATE",
        }
    )

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            # A server that does not answer (restarting, the network lost) costs a request a
            # few seconds, not the system's TCP timeout of minutes, and never holds up a stop.
            "connect_timeout": 3,
            # A connection whose server vanished without closing it is found dead in ~10 s.
            "keepalives": 1,
            "keepalives_idle": 5,
            "keepalives_interval": 2,
            "keepalives_count": 3,
        }
    )

# Where `manage.py backup_database` writes (a folder outside the checkout in production).
BACKUP_DIR = Path(os.environ.get("BACKUP_DIR") or BASE_DIR / "backups")

# Local memory by default (one cache per process); Redis when several processes or servers
# serve one event, so that a confirmed result invalidates the cached pages of them all.
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES: dict[str, dict[str, object]] = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "zole",
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "zole",
            # Pages of up to ~100 kB: 100 MB a process at most; the least recently used go.
            "OPTIONS": {"MAX_ENTRIES": 1000},
        }
    }
# How long a public page (standings, a round, a tournament, its PDFs) is served from the cache.
# A confirmed result invalidates them at once; this bounds what no write invalidates (another
# process's local memory cache, a renamed player) to the standings' own refresh period.
PUBLIC_PAGE_CACHE_SECONDS = env_int("PUBLIC_PAGE_CACHE_SECONDS", 30)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Latvian first: the federation's language; Russian and English for players and guests.
LANGUAGE_CODE = "lv"
LANGUAGES = [
    ("lv", "Latviešu"),
    ("ru", "Русский"),
    ("en", "English"),
]
# One catalogue per language for the whole project: locale/<lang>/LC_MESSAGES/django.po.
LOCALE_PATHS = [BASE_DIR / "locale"]
# One unambiguous date format per language: English spells the month (zole_site/formats/en).
FORMAT_MODULE_PATH = ["zole_site.formats"]
# The language chosen on the switcher is remembered for a year, on this device.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_HTTPONLY = True
TIME_ZONE = "Europe/Riga"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
# Where collectstatic gathers the static files that whitenoise serves.
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Production serves collected files with hashed names (cached for good by browsers) and
    # compressed copies; development and the tests read the source folders directly.
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "zole_site.static_files.HashedStaticFiles"
    },
}
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG
# Files browsers ask for at the site's root (/favicon.ico), served as they are.
WHITENOISE_ROOT = BASE_DIR / "site_root"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Organisers sign in on the site's own page (django.contrib.auth views).
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "organise:dashboard"
LOGOUT_REDIRECT_URL = "home"

# --- Security --------------------------------------------------------------------------------
# HTTPS is on whenever DEBUG is off; HTTPS=0 serves plain HTTP (a venue's laptop on a Wi-Fi
# with no internet and no certificate, a load test on loopback) and then `check --deploy`
# rightly warns.
HTTPS = env_bool("HTTPS", default=not DEBUG)
SECURE_SSL_REDIRECT = HTTPS
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # a monitor on the server itself asks over plain HTTP
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
LANGUAGE_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = env_int("HSTS_SECONDS", 365 * 24 * 3600 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env_bool("HSTS_PRELOAD", default=True)
# Reverse proxies in front of gunicorn (nginx, a load balancer): they say the scheme, and the
# rate limits read the client's address from X-Forwarded-For (core.ratelimit).
TRUSTED_PROXIES = env_int("TRUSTED_PROXIES", 0)
if TRUSTED_PROXIES:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# A table's private link (/r/<token>/) must never leave the site in a Referer header.
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True

# Scripts, styles, images and fonts from this site only: no inline script or style anywhere
# (templates load static/js files), so an injected <script> never runs. Sent with HTML pages
# (core.security.ContentSecurityPolicyMiddleware).
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
# The sites whose pages may show the embeds (/embed/: the upcoming tournaments, a tournament's
# standings, the season ranking) in a frame, e.g. "https://lzf.lv https://*.klubs.lv", or "*"
# for any site. Those pages alone get this frame-ancestors list and no X-Frame-Options
# (core.security.frameable); every other page is never framed. None by default: the site's
# operator decides which sites show its results.
EMBED_FRAME_ANCESTORS = env_frame_ancestors("EMBED_FRAME_ANCESTORS")

# Other sites' pages that may read the JSON API from the browser (CORS), e.g.
# https://lzf.example.lv: GET only, and only under /api/; none by default.
CORS_ALLOWED_ORIGINS = env_list("API_CORS_ORIGINS", default=[])
CORS_URLS_REGEX = r"^/api/"
CORS_ALLOW_METHODS = ("GET", "HEAD", "OPTIONS")
# Cross-origin scripts may read the cache validators, to ask again with If-None-Match.
CORS_EXPOSE_HEADERS = ("ETag", "Retry-After")

# Ratings (ranking.services): a confirmation or unlock followed, in the rating order, by more
# confirmed tables than this (a correction early in a long season) is left to a job run after
# the commit, so the request stays fast; the rating list keeps the complete ratings of before
# until the job ends.
RATING_INLINE_TABLES = env_int("RATING_INLINE_TABLES", 500)
# The job runs in a thread of the process that committed the change (off the request); False
# runs it at the commit, in the request (the tests). `manage.py run_rating_updates` runs what a
# stopped process left.
RATING_UPDATES_IN_BACKGROUND = env_bool("RATING_UPDATES_IN_BACKGROUND", True)

# Notices to players (notices/): Web Push to the phones that asked on a player's own page, and
# mail to players who signed up online. The VAPID key pair signs every push (`manage.py
# make_vapid_keys` makes one); without it no page offers messages. VAPID_SUBJECT is how a push
# service reaches the site's operator (a mailto: or https: address).
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "")
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:webmaster@localhost")
# The push services the server posts to (a browser names its own; any other address is refused,
# so a made-up subscription cannot make the server call an internal host): origins, or
# "https://*.domain" for every subdomain. The defaults are Chrome's and Android's, Firefox's,
# Safari's (Apple) and Edge's (Windows).
PUSH_SERVICES = env_list(
    "PUSH_SERVICES",
    default=[
        "https://fcm.googleapis.com",
        "https://updates.push.services.mozilla.com",
        "https://web.push.apple.com",
        "https://*.push.apple.com",
        "https://*.notify.windows.com",
    ],
)
# How notices are sent: "thread" (a thread of the web process that committed them, started at
# the commit, and `manage.py send_notices` for what a stopped process left), "worker" (only the
# `manage.py send_notices` process), or "inline" (at the commit, in the request: the tests).
NOTICES_SENDER = os.environ.get("NOTICES_SENDER", "thread")
# The site's own address, for the links in mail (a mail has no page to be relative to).
SITE_URL = os.environ.get("SITE_URL", "").rstrip("/")
# Mail (Django's SMTP backend): EMAIL_HOST unset keeps mail in the console's log.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=EMAIL_PORT == 587)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", default=EMAIL_PORT == 465)
EMAIL_TIMEOUT = 20
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "zole@localhost")

# Uploads: the largest request body accepted at all (core.security answers 413 above it).
# It is above the player import's own 1 MB limit, so a CSV between the two gets the import's
# message. Files below it stay in memory: an upload never lands on disk.
REQUEST_BODY_MAX_BYTES = 2_621_440
DATA_UPLOAD_MAX_MEMORY_SIZE = REQUEST_BODY_MAX_BYTES
FILE_UPLOAD_MAX_MEMORY_SIZE = REQUEST_BODY_MAX_BYTES

# Where the rate limits count failures (core.ratelimit): in the shared cache when there is
# one (Redis), otherwise in the database. The local memory cache is per process, so it would let
# each gunicorn worker allow the limit on its own.
RATE_LIMIT_STORE = "cache" if REDIS_URL else "database"
# Failures allowed per client address and window before the page answers 429 (core.ratelimit).
RATE_LIMITS = {
    "login": {"failures": env_int("LOGIN_FAILURES_ALLOWED", 10), "seconds": 15 * 60},
    # A whole venue may share one address: a mistyped link is rare, a scan is thousands.
    "table-link": {"failures": env_int("TABLE_LINK_FAILURES_ALLOWED", 30), "seconds": 10 * 60},
    # Renders of public pages the cache did not hold, for anonymous clients (core.page_cache): a
    # spectator's polls are served from the cache; a scan of made-up searches and sorts is not.
    "render": {"failures": env_int("PAGE_RENDERS_ALLOWED", 30), "seconds": 60},
    # Requests made with one API token (api.token_auth), whatever they ask: a program that polls
    # the standings every few seconds and imports a list now and then stays far below.
    "api-token": {"failures": env_int("API_TOKEN_REQUESTS_ALLOWED", 120), "seconds": 60},
    # Wrong self check-in codes and unknown check-in links from one address (a venue shares
    # one: a mistyped code is rare, a guess needs millions).
    "check-in": {"failures": env_int("CHECK_IN_FAILURES_ALLOWED", 30), "seconds": 10 * 60},
    # Wrong check-in codes for one round from all addresses together (a guesser with many): a
    # hall's typos stay far below; a code has about eight million values.
    "check-in-round": {
        "failures": env_int("CHECK_IN_ROUND_FAILURES_ALLOWED", 100),
        "seconds": 60 * 60,
    },
    # Calls to the chief referee from one table (core.ratelimit.REFEREE_CALLS): it calls again
    # a minute after its last call at the soonest, so a table that needs him stays far below.
    "referee-call": {"failures": env_int("REFEREE_CALLS_ALLOWED", 20), "seconds": 10 * 60},
    # Unknown or revoked API tokens sent from one address (a guess is hopeless: 256 bits).
    "api-token-failures": {
        "failures": env_int("API_TOKEN_FAILURES_ALLOWED", 30),
        "seconds": 10 * 60,
    },
    # Registrations sent on the public registration pages (core.ratelimit.SIGNUPS), each one
    # counted: a club registering its members from one phone stays below.
    "signup": {"failures": env_int("SIGNUPS_ALLOWED", 20), "seconds": 60 * 60},
    # Push subscriptions given or taken back on one player's page (core.ratelimit.PUSH_CHANGES),
    # each one counted: a player with a phone and a tablet stays far below.
    "push": {"failures": env_int("PUSH_CHANGES_ALLOWED", 20), "seconds": 60 * 60},
}

LOG_LEVEL = os.environ.get("LOG_LEVEL", "WARNING")
# Errors go to standard error (gunicorn's log) in every environment, not to e-mail.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    # Replaces Django's default, which prints to the console only with DEBUG on.
    "loggers": {"django": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False}},
}
