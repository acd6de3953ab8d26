"""Competition: tournaments, their pairings, notices and standings."""
