"""Table entry: the referee's sheet page (the private link /r/<token>/ and the signed-in door)
and the organiser's side of it (entry links, closing a round). URLs in entry/urls.py."""
