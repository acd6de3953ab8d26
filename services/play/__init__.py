"""The write side: the ``Game`` aggregate, the unit of work, and the use cases that change a game
(create, seat, start, move, resign, invite), each recorded as events."""
