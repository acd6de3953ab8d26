"""Streams: the lines a follower of a game or an account reads, their framings, the wake-ups behind
them and the fan-out engine that can carry them."""
