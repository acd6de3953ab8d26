"""Accounts: players and their tokens, names, passwords and scopes, the inbox, the account feed and
its webhooks."""
