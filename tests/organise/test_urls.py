"""The organiser's pages keep their addresses: every URL name of the app, and the address it
gives, written out here by hand. Bookmarks and printed links stay good."""

from django.urls import get_resolver, reverse

from organise import urls

# (name, its arguments, the address)
ADDRESSES = [
    ("dashboard", {}, "/organise/"),
    ("create", {}, "/organise/new/"),
    ("clubs", {}, "/organise/clubs/"),
    ("players", {}, "/organise/players/"),
    ("player_create", {}, "/organise/players/new/"),
    ("player_import", {}, "/organise/players/import/"),
    ("player_edit", {"player_id": 5}, "/organise/players/5/"),
    ("detail", {"slug": "cup-2026"}, "/organise/t/cup-2026/"),
    ("edit", {"slug": "cup-2026"}, "/organise/t/cup-2026/settings/"),
    ("registrations", {"slug": "cup-2026"}, "/organise/t/cup-2026/registrations/"),
    (
        "registration_edit",
        {"slug": "cup-2026", "registration_id": 11},
        "/organise/t/cup-2026/registrations/11/",
    ),
    ("signups", {"slug": "cup-2026"}, "/organise/t/cup-2026/sign-ups/"),
    ("signups_accept", {"slug": "cup-2026"}, "/organise/t/cup-2026/sign-ups/accept/"),
    ("fee_category_set", {"slug": "cup-2026"}, "/organise/t/cup-2026/registrations/fee-category/"),
    ("meetings", {"slug": "cup-2026"}, "/organise/t/cup-2026/meetings/"),
    ("round_create", {"slug": "cup-2026"}, "/organise/t/cup-2026/rounds/new/"),
    ("round", {"slug": "cup-2026", "number": 2}, "/organise/t/cup-2026/rounds/2/"),
    ("check_in", {"slug": "cup-2026", "number": 2}, "/organise/t/cup-2026/rounds/2/check-in/"),
    (
        "fees_paid_present",
        {"slug": "cup-2026", "number": 2},
        "/organise/t/cup-2026/rounds/2/all-paid/",
    ),
    ("generate", {"slug": "cup-2026", "number": 2}, "/organise/t/cup-2026/rounds/2/seating/"),
    ("swap", {"slug": "cup-2026", "number": 2}, "/organise/t/cup-2026/rounds/2/swap/"),
    ("publish", {"slug": "cup-2026", "number": 2}, "/organise/t/cup-2026/rounds/2/publish/"),
    ("referees", {"slug": "cup-2026", "number": 2}, "/organise/t/cup-2026/rounds/2/referees/"),
    ("clock", {"slug": "cup-2026", "number": 2}, "/organise/t/cup-2026/rounds/2/clock/"),
    ("roles", {"slug": "cup-2026"}, "/organise/t/cup-2026/people/"),
    ("role_remove", {"slug": "cup-2026"}, "/organise/t/cup-2026/people/remove/"),
    (
        "referee_call_answer",
        {"slug": "cup-2026", "call_id": 3},
        "/organise/t/cup-2026/calls/3/answer/",
    ),
    ("display_link_new", {"slug": "cup-2026"}, "/organise/t/cup-2026/display-link/new/"),
    ("display_link_revoke", {"slug": "cup-2026"}, "/organise/t/cup-2026/display-link/revoke/"),
    ("audit", {"slug": "cup-2026"}, "/organise/t/cup-2026/audit/"),
    ("notices", {"slug": "cup-2026"}, "/organise/t/cup-2026/notices/"),
    ("fees", {"slug": "cup-2026"}, "/organise/t/cup-2026/fees/"),
    ("round_close", {"slug": "cup-2026", "number": 2}, "/organise/t/cup-2026/rounds/2/close/"),
    ("table_link_new", {"table_id": 17}, "/organise/tables/17/link/new/"),
    ("table_link_revoke", {"table_id": 17}, "/organise/tables/17/link/revoke/"),
    ("seasons", {}, "/ranking/seasons/"),
    ("season_create", {}, "/ranking/seasons/new/"),
    ("season_edit", {"season_id": 4}, "/ranking/seasons/4/"),
    ("qualification", {"slug": "cup-2026"}, "/ranking/qualification/cup-2026/"),
    ("invite", {"slug": "cup-2026"}, "/ranking/qualification/cup-2026/invite/"),
    ("withdraw", {"slug": "cup-2026"}, "/ranking/qualification/cup-2026/withdraw/"),
]


def test_every_page_keeps_its_address():
    for name, kwargs, address in ADDRESSES:
        assert reverse(f"organise:{name}", kwargs=kwargs) == address, name


def test_every_page_of_the_app_is_listed():
    names = {
        name
        for name in get_resolver().namespace_dict["organise"][1].reverse_dict
        if isinstance(name, str)
    }
    assert names == {name for name, _kwargs, _address in ADDRESSES}
    assert urls.app_name == "organise"
