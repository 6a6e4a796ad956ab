"""The seeded generator: splitmix64's numbers, and draws and shuffles that never change (every
seeded game, and so every digest test, rests on them)."""

from __future__ import annotations

from pbem.games.rng import Rng

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def test_next64_is_splitmix64() -> None:
    rng = Rng.from_seed(0)
    assert rng.next64() == 0xE220A8397B1DCDAF  # the published first number from seed 0
    rng = Rng.from_seed(42)
    assert [rng.next64() for _ in range(3)] == [
        13679457532755275413,
        2949826092126892291,
        5139283748462763858,
    ]


def test_draws_and_shuffles_are_as_recorded() -> None:
    rng = Rng.from_seed(7)
    assert [rng.below(n) for n in (1, 2, 3, 10, 1000, 1, 1 << 64)] == [
        0,
        0,
        0,
        3,
        674,
        0,
        8632209307422871798,
    ]
    assert rng.state == 6018027440424182938
    rng = Rng.from_seed(9)
    cards = list(range(40))
    rng.shuffle(cards)
    assert cards[:10] == [39, 32, 6, 14, 0, 19, 1, 12, 20, 33]
    assert rng.state == 1906020184575502140


def one_by_one(rng: Rng, items: list[int]) -> None:
    """Fisher-Yates drawing each number with `below`, as `shuffle` must match."""
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]


def test_a_shuffle_draws_what_below_would_draw() -> None:
    for seed in range(200):
        for size in (0, 1, 2, 3, 17, 120):
            fast, slow = Rng.from_seed(seed * 7919), Rng.from_seed(seed * 7919)
            shuffled, expected = list(range(size)), list(range(size))
            fast.shuffle(shuffled)
            one_by_one(slow, expected)
            assert (shuffled, fast.state) == (expected, slow.state)


def state_before(number: int) -> int:
    """The state whose next `next64` is `number`: splitmix64's mixing undone step by step."""

    def unshift(z: int, shift: int) -> int:  # undoes z ^ (z >> shift)
        x = z
        for _ in range(64 // shift + 1):
            x = z ^ (x >> shift)
        return x

    z = unshift(number, 31)
    z = unshift(z * pow(0x94D049BB133111EB, -1, 1 << 64) & MASK, 27)
    z = unshift(z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64) & MASK, 30)
    return (z - GOLDEN) & MASK


def test_a_rejected_number_is_drawn_again_in_a_shuffle_too() -> None:
    # 2**64 - 1 is rejected for a bound of 3 (2**64 % 3 == 1): the draw moves on one number.
    start = state_before(MASK)
    assert Rng(start).next64() == MASK
    for size in (3, 4, 9):
        for lead in range(size - 2):  # the rejected number comes after `lead` accepted ones
            seed = (start - lead * GOLDEN) & MASK
            fast, slow = Rng(seed), Rng(seed)
            shuffled, expected = list(range(size)), list(range(size))
            fast.shuffle(shuffled)
            one_by_one(slow, expected)
            assert (shuffled, fast.state) == (expected, slow.state)


def test_a_draw_takes_what_popping_at_below_would_take() -> None:
    for seed in range(200):
        for size, count in ((1, 1), (5, 0), (5, 5), (30, 20), (48, 5)):
            fast, slow = Rng.from_seed(seed * 7919), Rng.from_seed(seed * 7919)
            pool, expected_pool = list(range(size)), list(range(size))
            taken = fast.draw(pool, count)
            expected = [expected_pool.pop(slow.below(len(expected_pool))) for _ in range(count)]
            assert (taken, pool, fast.state) == (expected, expected_pool, slow.state)


def test_a_rejected_number_is_drawn_again_in_a_draw_too() -> None:
    start = state_before(MASK)  # 2**64 - 1: rejected for a bound of 3, 5 or 6, not of 4
    for size in (3, 5, 6):
        for lead in range(3):
            seed = (start - lead * GOLDEN) & MASK
            fast, slow = Rng(seed), Rng(seed)
            pool, expected_pool = list(range(size + lead)), list(range(size + lead))
            taken = fast.draw(pool, lead + 2)
            expected = [expected_pool.pop(slow.below(len(expected_pool))) for _ in range(lead + 2)]
            assert (taken, fast.state) == (expected, slow.state)
