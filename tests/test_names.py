# ruff: noqa: RUF001, RUF003
# (Cyrillic letters that look like Latin ones are the point of these tests.)
"""Name keys, look-alike letters, transliteration and alias lists (pdn/text/names.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdn.game.model import Tags
from pdn.text.names import (
    AliasError,
    Aliases,
    aliases_csv,
    differences,
    name_key,
    similar_names,
    suggest_aliases,
)

# A name list as real files give it: one player in five spellings, one with a Cyrillic "е"
# and "о" typed into a Latin name (U+0435, U+043E), one all in Cyrillic.
LOOK_ALIKE = "N\u0435m\u0435ts D"  # Cyrillic е twice
assert LOOK_ALIKE != "Nemets D"
NAMES = [
    "Nemets D",
    "Nemets D.",
    "NEMETS D",
    "Nemets  D",
    LOOK_ALIKE,
    "Немец Д.",
    "Kok",
    "K\u043ek",  # Cyrillic о
    "Кок",
    "Wyllie, J.",
    "Wyllie,J",
    "Ann",
]


def test_the_spellings_of_one_player_share_a_key() -> None:
    keys = {name_key(name) for name in NAMES[:6]}
    assert keys == {"nemetsd"}
    assert name_key("Kok") == name_key("K\u043ek") == name_key("Кок") == "kok"
    assert name_key("Wyllie, J.") == name_key("Wyllie,J")
    assert name_key("Ann") != name_key("Anna")


@pytest.mark.parametrize(
    ("a", "b", "why"),
    [
        ("Nemets D.", "Nemets D", ["dots"]),
        ("NEMETS D", "Nemets D", ["case"]),
        ("Nemets  D", "Nemets D", ["spacing"]),
        (LOOK_ALIKE, "Nemets D", ["look-alike letters"]),
        ("K\u043ek", "Kok", ["look-alike letters"]),
        ("Кок", "Kok", ["transliteration"]),
        ("Немец Д.", "Nemets D", ["dots", "transliteration"]),
        ("Wyllie, J.", "Wyllie,J", ["spacing", "dots"]),
        ("Ann", "Bo", []),
        ("Ann", "Ann", []),
    ],
)
def test_differences_name_what_is_needed(a: str, b: str, why: list[str]) -> None:
    assert differences(a, b) == why


def test_look_alikes_only_fold_in_mixed_words() -> None:
    # "Рора" in Cyrillic is a Cyrillic name (transliterated "Rora"), not "Popa" with look-alikes.
    assert name_key("Рора") == "rora"
    # In a word that mixes scripts the Cyrillic р is the Latin p it looks like.
    assert name_key("\u0440opa") == "popa"


def test_similar_names_groups_with_the_most_used_first() -> None:
    groups = similar_names([*NAMES, "Nemets D.", "Nemets D.", "K\u043ek", "Kok"])
    by_first = {group.names[0]: group for group in groups}
    assert set(by_first) == {"Nemets D.", "Kok", "Wyllie, J."}
    nemets = by_first["Nemets D."]
    assert nemets.counts[0] == 3
    assert set(nemets.names) == set(NAMES[:6])
    # Kok and its look-alike are both used twice, the Cyrillic Кок once: the clean Latin
    # spelling is preferred, and a spelling with look-alike letters is never preferred.
    assert by_first["Kok"].names == ("Kok", "Кок", "K\u043ek")
    assert by_first["Kok"].why("K\u043ek") == "look-alike letters"
    assert all("Ann" not in group.names for group in groups)


def test_alias_lists_read_and_rename_only_what_they_list(tmp_path: Path) -> None:
    path = tmp_path / "aliases.csv"
    path.write_text(
        "old,new,tags,why\n"
        "# a comment line\n"
        "Nemets D.,Nemets D,player,dots\n"
        f"{LOOK_ALIKE},Nemets D,player\n"
        "Dutch Open 2024 round 5,Dutch Open 2024,event\n"
        "Kok,Kok J,Black\n"
        "\n",
        encoding="utf-8",
    )
    aliases = Aliases.from_file(path)
    tags = Tags(
        [
            ("Event", "Dutch Open 2024 round 5"),
            ("Black", "Kok"),
            ("White", LOOK_ALIKE),
            ("Site", "Nemets D."),
        ]
    )
    changes = aliases.rename(tags)
    assert [(c.tag, c.old, c.new) for c in changes] == [
        ("Event", "Dutch Open 2024 round 5", "Dutch Open 2024"),
        ("Black", "Kok", "Kok J"),
        ("White", LOOK_ALIKE, "Nemets D"),
    ]
    assert tags["Site"] == "Nemets D."  # not a tag the list names
    assert aliases.lookup("White", "Kok") is None  # "Kok" is renamed as Black only
    assert aliases.lookup("Black", "Nemets D") is None  # exact values only


def test_alias_list_errors_say_where() -> None:
    with pytest.raises(AliasError, match="list:2: expected old,new"):
        Aliases.from_text("old,new\nonly-one-column\n", "list")
    with pytest.raises(AliasError, match="already renamed"):
        Aliases.from_text("A,B\nA,C\n", "list")
    with pytest.raises(AliasError, match="not a tag name"):
        Aliases.from_text("A,B,Bl/ack\n", "list")


def test_suggested_aliases_read_back_as_an_alias_list() -> None:
    games = [
        Tags([("Event", "Open"), ("Black", "Nemets D"), ("White", "=Kok")]),
        Tags([("Event", "open"), ("Black", "Nemets D."), ("White", "=kok")]),
        Tags([("Event", "Open"), ("Black", "Nemets D"), ("White", "=Kok")]),
    ]
    text = aliases_csv(suggest_aliases(games))
    assert text.splitlines()[0] == "old,new,tags,why"
    assert "'=kok,'=Kok,player" in text  # formula guard in the file...
    aliases = Aliases.from_text(text)
    assert aliases.lookup("White", "=kok") == "=Kok"  # ...and the names read back
    assert aliases.lookup("Black", "Nemets D.") == "Nemets D"
    assert aliases.lookup("Event", "open") == "Open"


def test_a_damaged_letter_matches_the_one_spelling_it_fits() -> None:
    # A real file (Belarus championship 2015) has the second byte of "И" replaced by "?": the
    # reader shows the invalid first byte as U+FFFD.
    damaged = "Михальченко \ufffd?."
    assert differences(damaged, "Михальченко И.") == ["damaged letter"]
    (group,) = similar_names(["Михальченко И.", damaged, "Михальченко И.", "Мечный А."])
    assert group.names == ("Михальченко И.", damaged)
    assert group.why(damaged) == "damaged letter"
    # When two spellings fit, nothing is guessed.
    assert similar_names([damaged, "Михальченко И.", "Михальченко А."]) == []


def test_an_event_renamed_between_rounds_is_suggested() -> None:
    games = [Tags([("Event", "Championship 2015 (men)")])] * 3
    games += [Tags([("Event", "Championship 2015")])] * 5 + [Tags([("Event", "Open")])]
    games += [Tags([("Event", "Open Blitz")])]  # "Open" is too short to say anything
    suggested = suggest_aliases(games)
    assert [(kind, group.names, group.counts) for kind, group in suggested] == [
        ("event", ("Championship 2015", "Championship 2015 (men)"), (5, 3))
    ]
    why = suggested[0][1].why("Championship 2015 (men)")
    assert why == "one name extends the other: check that it is the same event"


def test_an_event_number_is_not_an_extension() -> None:
    games = [Tags([("Event", "Boston 1882, game 4")]), Tags([("Event", "Boston 1882, game 41")])]
    assert suggest_aliases(games) == []


def test_a_capital_look_alike_is_folded_too() -> None:
    # Cyrillic capital Н (U+041D) in "Hans", and the Ukrainian і (U+0456) in "Nina".
    assert differences("\u041dans", "Hans") == ["look-alike letters"]
    assert name_key("N\u0456na") == name_key("Nina")


def test_one_letter_typos_are_suggested_in_latin_and_cyrillic_names() -> None:
    # Issue 33 (section 5): a letter typed wrong in a name was never suggested.
    games = [
        Tags([("Black", "Ivanov, A."), ("White", "Садовский С.")]),
        Tags([("Black", "Ivanov, A."), ("White", "Садовский С.")]),
        Tags([("Black", "Ivenov, A."), ("White", "Садовскии С.")]),  # a replaced letter each
        Tags([("Black", "Petrosian T."), ("White", "Petorsian T.")]),  # two letters swapped
        Tags([("Black", "Petrosian T."), ("White", "Mikhalchenko I.")]),
        Tags([("Black", "Mikhalchenko I."), ("White", "Mikhalcheko I.")]),  # one left out
        # Not typos: a surname's feminine form, another initial, a short name, two neighbours.
        Tags([("Black", "Ivanova, A."), ("White", "Ivanov, B.")]),
        Tags([("Black", "Kok J"), ("White", "Kos J")]),
        Tags([("Black", "Morgan K"), ("White", "Morgen K")]),
        Tags([("Black", "Morgun K"), ("White", "Morgan K")]),
    ]
    found = {
        group.names: group.reason
        for kind, group in suggest_aliases(games)
        if kind == "player" and group.reason
    }
    typo = "one letter apart: check that it is the same person"
    assert found == {
        ("Ivanov, A.", "Ivenov, A."): typo,
        ("Садовский С.", "Садовскии С."): typo,
        ("Petrosian T.", "Petorsian T."): typo,
        ("Mikhalchenko I.", "Mikhalcheko I."): typo,
    }
    text = aliases_csv(suggest_aliases(games))
    assert 'Ivenov, A.","Ivanov, A.",player,one letter apart' in text


def test_the_well_formed_spelling_is_preferred_to_the_most_used() -> None:
    # Issue 33 (section 5): the ALL-CAPS, comma-less spelling, the most used in the file,
    # was the target of the renames.
    names = ["WYLLIE J"] * 5 + ["Wyllie J"] * 2 + ["Wyllie, J"] + ["Wyllie ,J"] * 3
    (group,) = similar_names(names)
    assert group.preferred == "Wyllie, J"
    assert group.names[1:] == ("Wyllie ,J", "Wyllie J", "WYLLIE J")  # one fault each, then two
    # Among well-formed spellings, the most used still wins.
    (group,) = similar_names(["Nemets D"] * 2 + ["Nemets D."] * 3 + ["NEMETS D."] * 9)
    assert group.names == ("Nemets D.", "Nemets D", "NEMETS D.")


def test_the_typo_search_grows_with_the_names_not_their_pairs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import random
    from collections import Counter

    import pdn.text.name_typos as typos

    calls = 0
    checked = typos._one_typo

    def counted(a: str, b: str) -> bool:
        nonlocal calls
        calls += 1
        return checked(a, b)

    monkeypatch.setattr(typos, "_one_typo", counted)
    rng = random.Random(33)

    def names(n: int) -> list[str]:
        # n surnames, each with a typo of its own, and numbered players that are no typos.
        out = []
        for i in range(n):
            word = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(9))
            typo = word[:4] + ("a" if word[4] != "a" else "b") + word[5:]
            out += [f"{word.title()} A", f"{typo.title()} A", f"Player {1000 + i}"]
        return out

    made = []
    for n in (2000, 4000):
        calls = 0
        found = names(n)
        pairs = typos.typo_pairs(found, Counter(found))
        assert len(pairs) == n  # each surname with its typo, no numbered player
        made.append(calls)
    assert made[1] <= 2.2 * made[0]  # linear: each name's neighbours, not every pair
