"""The read side: queries answered from the read models, and a game told to one viewer (its
document, its log in words, its steps and its board), with profiles and ratings as people read them."""
