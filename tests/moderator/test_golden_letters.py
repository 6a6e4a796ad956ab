"""The letters players receive stay byte for byte what they were when the golden set was taken
(`python -m tests.moderator.golden_play` takes it anew, after a change meant to show in them):
making letters faster must not change one byte of them."""

from __future__ import annotations

from tests.moderator.golden_play import GOLDEN, KEPT_WHOLE, digest, golden_letters


def test_every_letter_is_byte_for_byte_the_golden_one() -> None:
    letters = golden_letters()
    for index in KEPT_WHOLE:
        # Compared whole first, so a difference shows as a diff of the letter.
        assert letters[index] == (GOLDEN / f"letter-{index:02d}.eml").read_bytes(), index
    assert [digest(raw) for raw in letters] == (GOLDEN / "digests.txt").read_text().split()
