"""Sorting names the way a Latvian reader expects: ā after a, č after c, ... ž after z."""

from __future__ import annotations

import unicodedata

# The Latvian alphabet, with q w x y in their Latin places for foreign names.
LATVIAN_ALPHABET = "aābcčdeēfgģhiījkķlļmnņoprqsštuūvwxyzž"
_RANK = {letter: index for index, letter in enumerate(LATVIAN_ALPHABET)}


def _letter_key(letter: str) -> tuple[int, int]:
    if letter in _RANK:
        return (1, _RANK[letter])
    if not letter.isalnum():
        return (-1, 0)  # a space or hyphen ends a word: "Ozols Jānis" before "Ozolsone"
    if letter.isdigit():
        return (0, ord(letter))
    # Letters outside the alphabet (Cyrillic, ö, ...): their base letter when they have one,
    # otherwise after the Latin letters in code point order.
    base = unicodedata.normalize("NFD", letter)[0]
    if base in _RANK and base != letter:
        return (1, _RANK[base])
    return (2, ord(letter))


def latvian_sort_key(name: str) -> tuple[tuple[tuple[int, int], ...], str]:
    """A key that orders names alphabetically in Latvian, case-insensitively, then exactly."""
    folded = unicodedata.normalize("NFC", name.strip().casefold())
    return (tuple(_letter_key(letter) for letter in folded), name)
