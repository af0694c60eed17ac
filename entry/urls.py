"""Table entry pages: the private link /r/<token>/ and the signed-in view of any table."""

from django.urls import path

from entry import offline, sync
from entry import views as entry

app_name = "entry"

urlpatterns = [
    # The worker's address decides its scope: served from /r/, it covers the table links only.
    path("r/table-worker.js", offline.table_worker, name="table_worker"),
    path("r/<str:token>/", entry.token_sheet, name="token_sheet"),
    path("r/<str:token>/entries/", sync.token_sync, name="token_sync"),
    path("r/<str:token>/manifest.webmanifest", offline.table_manifest, name="table_manifest"),
    path("organise/tables/<int:table_id>/sheet/", entry.organiser_sheet, name="table_sheet"),
    path("organise/tables/<int:table_id>/entries/", sync.table_sync, name="table_sync"),
]
