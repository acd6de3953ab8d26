"""The hand-written Tarasque strategy of ``examples/tarasque_bot.py`` is clearly stronger than chance:
measured on a fixed sample of local games against the server's random bot (``bench/tarasque_client_bot.py``
plays 200 and prints the rates), where a uniform client strategy wins about half."""

from __future__ import annotations

from bench.tarasque_client_bot import example_strategy, uniform, win_rate

SAMPLE = range(40)


def test_the_example_strategy_beats_the_random_bot_far_more_often_than_a_uniform_strategy_does() -> None:
    """Both variants and both seats are in the sample (``bench.tarasque_client_bot.play`` alternates them)."""
    ours = win_rate(example_strategy(), "random", SAMPLE)
    chance = win_rate(uniform(seed=1), "random", SAMPLE)
    assert ours >= 0.9
    assert chance <= 0.7
