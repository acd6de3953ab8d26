"""Infrastructure: the machinery that makes Dragonhall fast and safe to run, kept out of the rules,
the use cases and the routes. Each module's docstring says what it does and why, with the
measurement that justified it; ``docs/operations.md`` gathers the reasons.

It imports nothing of Dragonhall's other layers: the services, the API and the composition root
(``wiring``) use it.
"""
