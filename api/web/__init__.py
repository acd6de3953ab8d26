"""The web client for people: server-rendered pages at ``/`` over the same services as the API.

Pages are Jinja templates rendered by Flask (no build step, nothing fetched from another site);
a few small scripts under ``static/`` make a page live (the game's stream), build move controls
from the legal moves and the move schema, and step through replays. Sign-in keeps the account's
token in an ``HttpOnly`` cookie (``api.web.session``); the API accepts it, with a CSRF token on
every write (``api.auth``).
"""
