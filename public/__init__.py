"""The public pages (no sign-in): tournaments, rounds, tables, standings, the hall display,
players. URLs in public/urls.py."""
