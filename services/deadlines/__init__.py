"""Time on the write side: time-control arithmetic, vacation days, and the time-driven use cases
(timeouts, reminders, scheduled starts) with the sweep that runs them."""
