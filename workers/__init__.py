"""Background work on Celery: bot turns, deadlines, scheduled starts, notifications.

Tasks are thin entry points (decode, call the service) that never name a game
and are idempotent: each carries the game version it was scheduled for, and
writes nothing once the game has moved on.
"""
