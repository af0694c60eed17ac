"""The player import (CSV): the delimiter, a header row, a line's fields, licences seen twice."""

import csv

import pytest

from tests.factories import make_club, make_player, make_tournament
from tournaments import services
from tournaments.models import AuditRecord, Club, Player

pytestmark = pytest.mark.django_db

# The file of the report: semicolons, a header row, a line of 4 fields and a line without a name.
REPORTED_FILE = (
    "Vārds;Klubs;Licences numurs\n"
    "Ēriks Bērziņš;Ogres Zoles klubs;LV-100001\n"
    "Anna Ozoliņa;Ogres Zoles klubs;LV-100002;vēl kaut kas\n"
    ";Ogres Zoles klubs;LV-100003\n"
    "Līga Liepiņa;Rīgas Zoles klubs;LV-100004\n"
)


def preview_of(text: str) -> services.ImportPreview:
    return services.players_import_preview(text.encode())


class TestDelimiter:
    def test_a_semicolon_file_with_a_bad_line_is_read_with_semicolons(self):
        preview = preview_of(REPORTED_FILE)
        rows = [(row.line, row.full_name, row.club, row.licence_number) for row in preview.rows]
        assert rows == [
            (2, "Ēriks Bērziņš", "Ogres Zoles klubs", "LV-100001"),
            (5, "Līga Liepiņa", "Rīgas Zoles klubs", "LV-100004"),
        ]
        assert preview.errors == (
            "line 3: expected 3 fields (name, club, licence); got 4",
            "line 4: the name is empty",
        )

    def test_the_reported_file_imports_nothing(self):
        with pytest.raises(services.ServiceError, match="nothing imported"):
            services.players_import(raw=REPORTED_FILE.encode(), by=None)
        assert not Player.objects.exists()

    def test_semicolons_without_a_header(self):
        preview = preview_of("Ēriks Bērziņš;Ogres Zoles klubs;LV-1\nAnna;;\n")
        assert [(row.full_name, row.club) for row in preview.rows] == [
            ("Ēriks Bērziņš", "Ogres Zoles klubs"),
            ("Anna", ""),
        ]
        assert preview.errors == ()

    def test_a_comma_inside_a_semicolon_file_stays_in_its_field(self):
        preview = preview_of("Bērziņš, Ēriks;Ogres Zoles klubs;LV-1\nOzoliņa, Anna;Rīga;LV-2\n")
        assert [row.full_name for row in preview.rows] == ["Bērziņš, Ēriks", "Ozoliņa, Anna"]

    def test_tabs(self):
        preview = preview_of("Ēriks Bērziņš\tOgre\tLV-1\nAnna\tRīga\t\n")
        assert [(row.full_name, row.club) for row in preview.rows] == [
            ("Ēriks Bērziņš", "Ogre"),
            ("Anna", "Rīga"),
        ]

    def test_a_line_with_the_other_delimiter_is_refused(self):
        preview = preview_of("Ēriks Bērziņš;Ogre;LV-1\nAnna,Rīga,LV-2\nJānis;Rīga;LV-3\n")
        assert preview.errors == (
            'line 2: the fields are separated by ";" in this file, this line has ","',
        )

    def test_a_file_of_names_alone(self):
        preview = preview_of("Ēriks Bērziņš\nAnna Ozoliņa\n")
        assert [row.full_name for row in preview.rows] == ["Ēriks Bērziņš", "Anna Ozoliņa"]
        assert preview.errors == ()


class TestHeader:
    @pytest.mark.parametrize(
        "header",
        [
            "Vārds;Klubs;Licences numurs",
            "vārds, uzvārds;klubs;licence",
            "Name;Club;Licence",
            "name;club;license number",
            "Имя;Клуб;Лицензия",
            "ФИО;клуб;номер лицензии",
            "Spēlētājs;Klubs;Licences Nr.",
        ],
    )
    def test_a_header_row_in_latvian_russian_or_english_is_not_a_player(self, header):
        preview = preview_of(f"{header}\nĒriks Bērziņš;Ogre;LV-1\n")
        assert [row.full_name for row in preview.rows] == ["Ēriks Bērziņš"]
        assert preview.errors == ()

    def test_a_comma_header(self):
        preview = preview_of("Name,Club,Licence\nĒriks Bērziņš,Ogre,LV-1\n")
        assert [(row.line, row.full_name) for row in preview.rows] == [(2, "Ēriks Bērziņš")]

    def test_the_header_gives_the_order_of_the_columns(self):
        preview = preview_of("licence;name;club\nLV-1;Ēriks Bērziņš;Ogre\n")
        row = preview.rows[0]
        assert (row.full_name, row.club, row.licence_number) == ("Ēriks Bērziņš", "Ogre", "LV-1")

    def test_a_header_without_a_licence_column(self):
        preview = preview_of("vārds;klubs\nĒriks Bērziņš;Ogre\nAnna;Ogre;LV-2\n")
        assert [row.full_name for row in preview.rows] == ["Ēriks Bērziņš"]
        assert preview.errors == ("line 3: expected 2 fields (name, club); got 3",)

    def test_a_line_shorter_than_the_header_is_refused(self):
        preview = preview_of("vārds;klubs;licence\nĒriks Bērziņš;Ogre\n")
        assert preview.errors == ("line 2: expected 3 fields (name, club, licence); got 2",)

    def test_an_unknown_column_is_named(self):
        preview = preview_of("vārds;klubs;pilsēta\nĒriks Bērziņš;Ogre;Ogre\n")
        assert preview.errors == (
            'line 1: the column "pilsēta" is not known: the columns are name, club and licence',
        )

    def test_a_column_named_twice(self):
        preview = preview_of("vārds;name;klubs\nĒriks Bērziņš;Ēriks;Ogre\n")
        assert preview.errors == ('line 1: the column "name" is named twice',)

    def test_a_header_needs_a_name_column(self):
        preview = preview_of("klubs;licence\nOgre;LV-1\n")
        assert preview.errors == ("line 1: the header has no name column",)


class TestLicences:
    def test_a_licence_twice_in_the_file(self):
        preview = preview_of("Ēriks Bērziņš;Ogre;LV-1\nAnna Ozoliņa;Ogre;lv-1\n")
        assert preview.errors == ("line 2: licence lv-1 is also on line 1",)

    def test_a_licence_of_another_player_in_the_register(self):
        make_player(full_name="Jānis Kalniņš", licence_number="LV-1")
        preview = preview_of("Ēriks Bērziņš;Ogre;LV-1\n")
        assert preview.errors == ("line 1: licence LV-1 already belongs to Jānis Kalniņš",)

    def test_the_same_player_in_the_register_is_skipped(self):
        make_player(full_name="Ēriks Bērziņš", licence_number="LV-1")
        preview = preview_of("Ēriks Bērziņš;Ogre;LV-1\nAnna;Ogre;LV-2\n")
        assert [row.existing for row in preview.rows] == [True, False]
        assert preview.errors == ()

    def test_a_player_without_licence_twice_in_the_file(self):
        preview = preview_of("Ēriks Bērziņš;Ogre;\nĒriks Bērziņš;Ogre;\n")
        assert preview.errors == ("line 2: Ēriks Bērziņš (Ogre) is also on line 1",)


class TestFieldSize:
    def test_a_field_over_the_csv_limit_is_a_message_not_a_crash(self):
        huge = "x" * (csv.field_size_limit() + 10)
        preview = preview_of(f'Anna;Ogre;LV-1\n"{huge}";Ogre;LV-2\nLīga;Ogre;LV-3\n')
        assert preview.errors
        assert preview.errors[-1].startswith("line 2: ")
        assert "longer than" in preview.errors[-1]


class TestLikelyDuplicates:
    """A line for a player the register already has under another spelling or without his
    licence is named as a likely duplicate: by default it updates that player instead of adding
    a second one of the same name; the organiser may choose a new player instead."""

    LINE = "Jānis Bērziņš;Rīgas Zoles klubs;LV-101\n"

    @pytest.fixture
    def janis(self):
        return make_player(full_name="Jānis Bērziņš", club=make_club(name="Rīgas Zoles klubs"))

    def test_a_licensed_line_for_a_register_player_without_licence(self, janis):
        (row,) = preview_of(self.LINE).rows
        assert not row.existing
        assert [player.pk for player in row.duplicates] == [janis.pk]

    def test_the_name_is_compared_without_diacritics_or_case(self, janis):
        (row,) = preview_of("janis berzins;Rīgas Zoles klubs;\n").rows
        assert [player.pk for player in row.duplicates] == [janis.pk]

    def test_a_line_without_licence_for_a_licensed_player(self):
        licensed = make_player(
            full_name="Jānis Bērziņš", club=make_club(name="Ogre"), licence_number="LV-1"
        )
        (row,) = preview_of("Janis Berzins;Ogre;\n").rows
        assert [player.pk for player in row.duplicates] == [licensed.pk]

    def test_a_namesake_of_another_club_is_not_a_duplicate(self, janis):
        (row,) = preview_of("Jānis Bērziņš;Ogres Zoles klubs;LV-101\n").rows
        assert row.duplicates == ()

    def test_two_licences_are_two_players(self):
        make_player(full_name="Jānis Bērziņš", club=make_club(name="Ogre"), licence_number="LV-1")
        (row,) = preview_of("Jānis Bērziņš;Ogre;LV-2\n").rows
        assert row.duplicates == ()

    def test_the_same_licence_under_a_name_without_diacritics_is_the_same_player(self):
        make_player(full_name="Jānis Bērziņš", licence_number="LV-1")
        preview = preview_of("Janis Berzins;;lv-1\n")
        assert preview.errors == ()
        assert [row.existing for row in preview.rows] == [True]

    def test_by_default_the_existing_player_gets_the_licence(self, janis):
        result = services.players_import(raw=self.LINE.encode(), by=None)
        assert Player.objects.count() == 1
        janis.refresh_from_db()
        assert janis.licence_number == "LV-101"
        assert janis.full_name == "Jānis Bērziņš"  # the register's spelling stays
        assert (result.created, result.updated) == ([], [janis])
        entry = AuditRecord.objects.get(action=AuditRecord.Action.PLAYERS_IMPORTED)
        assert entry.detail["imported"] == 0 and entry.detail["updated"] == 1

    def test_the_organiser_may_choose_a_new_player(self, janis):
        services.players_import(raw=self.LINE.encode(), by=None, matches={1: None})
        assert Player.objects.filter(full_name="Jānis Bērziņš").count() == 2
        janis.refresh_from_db()
        assert janis.licence_number == ""

    def test_a_choice_not_offered_is_refused_and_changes_nothing(self, janis):
        stranger = make_player(full_name="Anna Ozoliņa")
        with pytest.raises(services.ServiceError, match="line 1: "):
            services.players_import(raw=self.LINE.encode(), by=None, matches={1: stranger.pk})
        janis.refresh_from_db()
        assert janis.licence_number == "" and Player.objects.count() == 2

    def test_two_lines_cannot_both_be_the_same_register_player(self, janis):
        lines = self.LINE + "Janis Berzins;Rīgas Zoles klubs;LV-102\n"
        with pytest.raises(services.ServiceError, match="line 2: "):
            services.players_import(raw=lines.encode(), by=None)
        assert Player.objects.count() == 1

    def test_one_name_twice_in_the_file_diacritics_aside(self):
        preview = preview_of("Jānis Bērziņš;Ogre;\nJanis Berzins;Ogre;\n")
        assert preview.errors == ("line 2: Janis Berzins (Ogre) is also on line 1",)

    def test_a_line_for_him_and_a_likely_duplicate_of_him_register_him_once(self, janis):
        tournament = make_tournament()
        lines = "Jānis Bērziņš;Rīgas Zoles klubs;\nJanis Berzins;Rīgas Zoles klubs;LV-5\n"
        result = services.players_import(raw=lines.encode(), by=None, tournament=tournament)
        assert list(tournament.registrations.values_list("player", flat=True)) == [janis.pk]
        assert result.players == [janis]

    def test_imported_into_a_tournament_the_existing_player_is_registered_once(self, janis):
        tournament = make_tournament()
        services.players_import(raw=self.LINE.encode(), by=None, tournament=tournament)
        assert list(tournament.registrations.values_list("player", flat=True)) == [janis.pk]


class TestLookAlikeNames:
    """A name or club with invisible letters, odd spaces or a letter of another alphabet that
    reads as a Latin one: cleaned, or refused, never a second player or club."""

    @pytest.fixture
    def janis(self):
        return make_player(full_name="Jānis Bērziņš", club=make_club(name="Rīgas Zoles klubs"))

    @pytest.mark.parametrize(
        ("name", "club"),
        [
            ("Jā\u200bnis Bērziņš", "Rīgas Zoles klubs"),  # a zero-width space
            ("Jānis Bēr\u00adziņš", "Rīgas Zoles klubs"),  # a soft hyphen
            ("Jānis\u2060 Bērziņš", "Rīgas\u00a0Zoles klubs"),  # a word joiner, a no-break space
            ("\u202eJānis Bērziņš\u202c", "Rīgas Zoles\u200d klubs"),  # an override, a joiner
            ("Ja\u0304nis Be\u0304rzin\u0327s\u030c", "\ufeffRīgas Zoles klubs"),  # NFD, a BOM
        ],
    )
    def test_an_invisible_variant_is_the_register_player_and_club(self, janis, name, club):
        tournament = make_tournament()
        result = services.players_import(
            raw=f"{name};{club};\n".encode(), by=None, tournament=tournament
        )
        assert result.created == [] and result.players == [janis]
        assert Player.objects.count() == 1 and Club.objects.count() == 1

    def test_a_new_players_name_and_club_are_stored_cleaned(self):
        services.players_import(
            raw="Zw\u200bsp \u202eevil;Ogres\u2003 klubs\u2060;\n".encode(), by=None
        )
        player = Player.objects.get()
        assert (player.full_name, player.club.name) == ("Zwsp evil", "Ogres klubs")

    @pytest.mark.parametrize(
        ("line", "error"),
        [
            (
                "Jānis Bērziņš;Rīgа;",  # a Cyrillic а
                "line 2: club: the word “Rīgа” mixes Latin and Cyrillic letters; type it "
                "again in one alphabet",
            ),
            (
                "Jānis Bērziņš;Rīgas Zοles klubs;",  # a Greek ο
                "line 2: club: the word “Zοles” mixes Latin and Greek letters; type it again "
                "in one alphabet",
            ),
            (
                "Jānis Веrziņš;;",  # a Cyrillic В and е
                "line 2: name: the word “Веrziņš” mixes Cyrillic and Latin letters; type it "
                "again in one alphabet",
            ),
        ],
    )
    def test_a_word_of_two_alphabets_is_refused_naming_the_line_and_field(self, janis, line, error):
        preview = preview_of(f"Anna Ozoliņa;;\n{line}\n")
        assert preview.errors == (error,)
        with pytest.raises(services.ImportRefusedError):
            services.players_import(raw=f"{line}\n".encode(), by=None)
        assert Player.objects.count() == 1 and Club.objects.count() == 1

    def test_a_cyrillic_name_is_imported(self):
        services.players_import(raw="Иван Петров;Даугавпилс;\n".encode(), by=None)
        assert Player.objects.get().full_name == "Иван Петров"

    def test_a_stored_name_with_hidden_or_look_alike_letters_is_a_likely_duplicate(self):
        # Stored before names were cleaned: a zero-width space, a Cyrillic а in the club.
        stored = make_player(full_name="Jā\u200bnis Bērziņš", club=make_club(name="Rīgа"))
        (row,) = preview_of("Jānis Bērziņš;Rīga;\n").rows
        assert [player.pk for player in row.duplicates] == [stored.pk]
        services.players_import(raw="Anna;Rīga;\n".encode(), by=None)
        assert Club.objects.count() == 1  # the stored club, its look-alike letter aside

    def test_a_licence_with_a_hidden_letter_is_the_registers(self, janis):
        janis.licence_number = "LV-1"
        janis.save()
        preview = preview_of("Jānis Bērziņš;Rīgas Zoles klubs;LV\u200b-1\n")
        assert preview.errors == ()
        assert [row.existing for row in preview.rows] == [True]


class TestPlayerImport:
    def test_a_good_file_imports_every_player_and_creates_missing_clubs(self):
        make_club(name="Rīgas Zoles klubs")
        raw = "Jānis Bērziņš;Rīgas Zoles klubs;LV-001\nĪrisa Ķēniņa;Ogres Kārts;\n".encode()
        players = services.players_import(raw=raw, by=None).created
        assert [p.full_name for p in players] == ["Jānis Bērziņš", "Īrisa Ķēniņa"]
        assert Player.objects.get(licence_number="LV-001").club.name == "Rīgas Zoles klubs"
        assert Club.objects.filter(name="Ogres Kārts").exists()

    def test_a_header_line_is_recognised(self):
        preview = services.players_import_preview(b"name,club,licence\nAnna Ozolina,,\n")
        assert [row.full_name for row in preview.rows] == ["Anna Ozolina"]
        assert preview.errors == ()

    def test_each_bad_line_is_named_and_nothing_is_imported(self):
        raw = ("Anna Ozoliņa,Rīga,LV-9\n,Rīga,\nPēteris,Rīga,LV-9\nA,B,C,D\n").encode()
        preview = services.players_import_preview(raw)
        assert preview.errors == (
            "line 2: the name is empty",
            "line 3: licence LV-9 is also on line 1",
            "line 4: expected 3 fields (name, club, licence); got 4",
        )
        with pytest.raises(services.ServiceError, match="nothing imported"):
            services.players_import(raw=raw, by=None)
        assert Player.objects.count() == 0
        assert Club.objects.count() == 0

    def test_players_already_in_the_register_are_skipped_not_doubled(self):
        make_player(full_name="Anna Ozoliņa", licence_number="LV-1")
        preview = services.players_import_preview("Anna Ozoliņa,,LV-1\nLīga,,\n".encode())
        assert [row.existing for row in preview.rows] == [True, False]
        services.players_import(raw="Anna Ozoliņa,,LV-1\nLīga,,\n".encode(), by=None)
        assert Player.objects.count() == 2

    def test_a_licence_of_another_player_is_an_error(self):
        make_player(full_name="Anna Ozoliņa", licence_number="LV-1")
        preview = services.players_import_preview("Jānis,,LV-1\n".encode())
        assert preview.errors == ("line 1: licence LV-1 already belongs to Anna Ozoliņa",)

    def test_a_windows_1257_file_keeps_its_latvian_letters(self):
        preview = services.players_import_preview("Ģirts Šteins,Cēsis,\n".encode("cp1257"))
        assert preview.rows[0].full_name == "Ģirts Šteins"

    def test_an_oversized_file_is_refused(self):
        preview = services.players_import_preview(b"x" * (services.IMPORT_MAX_BYTES + 1))
        assert preview.errors and "larger than" in preview.errors[0]

    def test_html_in_a_name_is_stored_as_text(self):
        services.players_import(raw=b"<script>alert(1)</script>,,\n", by=None)
        assert Player.objects.get().full_name == "<script>alert(1)</script>"
