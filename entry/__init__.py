"""Table entry: the referee's sheet page (the private link /r/<token>/ and the signed-in door).
URLs in entry/urls.py."""
