"""The organiser's pages (signed in): a tournament set up and run, under /organise/, and the
ranking's own under /ranking/. URLs in organise/urls.py."""
