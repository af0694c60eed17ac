"""English as the site's readers use it, next to Latvian and Russian day-first dates: the month
spelled out, never 12/01/2026 (1 December or 12 January?). Input formats stay Django's."""

DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j F Y, H:i"
SHORT_DATETIME_FORMAT = "j M Y H:i"
