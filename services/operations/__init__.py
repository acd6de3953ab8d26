"""Operations: the health model an on-call reads and the heartbeats it is built from."""
