"""Dragonhall's rules: pure deciders, one package per game, no I/O.

Nothing in ``domain`` imports from ``services``, ``projections``, ``workers`` or
``api``. The kernel (``domain.kernel``) defines the plug-in contract and the
shared pieces (records, seeded chance, rule citations, outcomes), and
``domain.catalog`` lists the games, which the composition root registers.
"""
