"""A bot for any Dragonhall game: it plays uniformly among its legal moves, in every game that awaits
its token until Ctrl-C, or in the one game it opens with --new.

    python examples/random_bot.py --new tarasque          # registers, opens a game against the server's bot
    python examples/random_bot.py --token TOKEN           # every game that awaits TOKEN
"""

import argparse
import os
import random

from dragonhall import BotRunner, Client


def choose(view, legal_moves, game):
    return random.choice(legal_moves)


def new_game(client, game):  # registers, opens a two-seat game, takes a seat, seats the server's bot
    client.token = client.register(f"random-bot-{random.randrange(16**6):06x}", "bot")["token"]  # names are unique
    client.take_seat(game_id := client.create_game(game, players=2)["id"])
    client.add_bot(game_id, next(g["default_bot"] for g in client.catalog() if g["game"] == game))
    return game_id


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", default=os.environ.get("DRAGONHALL_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--token", default=os.environ.get("DRAGONHALL_TOKEN"))
    parser.add_argument("--new", metavar="GAME", help="open a game of GAME (a slug of /api/v1/catalog)")
    args = parser.parse_args(argv)
    with Client(args.server, args.token) as client:
        runner = BotRunner(client, choose)
        runner.run(new_game(client, args.new) if args.new else None)  # None: every game, until Ctrl-C
    return runner.finished


if __name__ == "__main__":
    print(main())
