"""Audits: disputes and their aggregate, game records and their signatures, and the verifier that
replays a record with no server."""
