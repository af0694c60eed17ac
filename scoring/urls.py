"""Table entry pages: the private link /r/<token>/ and the signed-in view of any table."""

app_name = "scoring"

urlpatterns: list = []
