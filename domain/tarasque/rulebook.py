"""Every rule Tarasque cites, for its events and its refusals.

``section`` is a passage copied verbatim from the book (an OCR scan, typos
included, so that it can be found); ``text`` says the rule in English. Rules
that the rulebook leaves open cite the decisions in ``shared/rules/README.md``
or, for what only this implementation decides, ``platform``: their ``section``
is the title of their entry in ``docs/rules/tarasque.md``, which documents
every designed rule.
"""

from __future__ import annotations

from domain.kernel import LEAVING, RuleRef
from domain.kernel.rules import DECISIONS_BOOK, GAME_ENDED, MOVE_SHAPE, TURN_ORDER, titled

BOOK = titled("drachenwurf-tarasque.fr.txt", "the rulebook of Tarasque (DrachenWurf)")
DECISIONS = DECISIONS_BOOK

SETUP = RuleRef(
    "tarasque.setup",
    BOOK,
    "Mélangez les tuiles de dragon, formez-en une pile cachée",
    "The 36 tiles are shuffled into a face-down pile; each player has a base and 1 egg, "
    "the other eggs form the supply.",
)
FIRST_PLAYER = RuleRef(
    "tarasque.first-player",
    "platform",
    "Seats and the first player",
    "The first seat starts; play passes to the next seat (the left neighbour) in seat order.",
)
NEXT_PLAYER = RuleRef(
    "tarasque.next-player",
    BOOK,
    "Quand un joueur a terminé son tour, c’est au tour de son voisin de gauche.",
    "When a turn ends, the next seat plays.",
)
REFILL = RuleRef(
    "tarasque.refill",
    BOOK,
    "le joueur retourne autant de nouvelles tuiles que nécessaire pour qu’il y en ait de nouveau 3",
    "At the start of a turn the middle is refilled from the pile to 3 tiles (4 with two players, who remove one; "
    "fewer when the pile runs out).",
)
TWO_PLAYERS = RuleRef(
    "tarasque.two-players",
    BOOK,
    "Le joueur dont c’est le tour choisit 'une des 4 tuiles qu’il élimine",
    "With 2 players the middle is refilled to 4 tiles and the active player removes one of them for good; "
    "once the pile cannot make 4, nothing is removed.",
)
STORE = RuleRef(
    "tarasque.store",
    BOOK,
    "chaque joueur met a I'abri les tuiles de dragon qui se trouvent pres de sa base",
    "From the second round on, the active player moves every tile at their base into their lair.",
)
LAIR_ROWS = RuleRef(
    "tarasque.lair-rows",
    BOOK,
    "des rangées de dragons de couleurs identiques avec des paysages différents",
    "A lair row is one colour with all marks different, or one mark with all colours different; "
    "a new tile extends a compatible row or opens a new one.",
)
LAIR_ROWS_NUMBERED = RuleRef(
    "tarasque.lair-rows.numbered",
    BOOK,
    "des rangées de dragons de couleurs identiques avec des numéros différents",
    "Numbered tiles: a row is one colour with all numbers different, or one number with all colours different.",
)
ROLL = RuleRef(
    "tarasque.roll",
    BOOK,
    "Le joueur peut lancer les dés jusqu’a 6 fois et doit toujours sélectionner au moins un dé valable",
    "The player rolls the dice in hand, up to 6 times, and sets aside at least one valid die after each roll.",
)
SET_ASIDE = RuleRef(
    "tarasque.set-aside",
    BOOK,
    "Une fois qu’un dé est sélectionné, on ne peut pas le relancer.",
    "A die set aside is never rolled again.",
)
VALID_DIE = RuleRef(
    "tarasque.valid-die",
    BOOK,
    "on ne peut sélectionner que des dés qui indiquent des dragons présents également sur les tuiles du "
    "milieu de la table ou plus tard sur celles situées prés des bases des autres joueurs",
    "A die is valid if its symbol is on a tile in the middle or at another player's base.",
)
NUMBERED_DICE = RuleRef(
    "tarasque.numbered-dice",
    BOOK,
    "Le nombre de points sur les faces des dés déterminent les numéros des tuiles",
    "Numbered game: the number a die shows picks the tiles with that number.",
)
NO_VALID_DIE = RuleRef(
    "tarasque.no-valid-die",
    BOOK,
    "il n’a plus le droit de relancer les dés et on procede a l'évaluation",
    "A roll with no valid die ends the rolling; the dice already set aside are then used.",
)
STOP = RuleRef(
    "tarasque.stop",
    DECISIONS,
    "The player may stop rolling after any roll in which they set dice aside.",
    "The player may stop rolling after any roll in which they set dice aside.",
)
EGG = RuleRef(
    "tarasque.egg",
    BOOK,
    "Pendant un tour, on ne peut placer qu’un seul dé sur un ceuf de dragon pour doubler sa valeur",
    "A die set aside on an egg counts twice; one egg per turn, and it returns to the supply.",
)
TAKE_MIDDLE = RuleRef(
    "tarasque.take-middle",
    BOOK,
    "Pour obtenir une tuile qui se trouve au milieu de la table on a besoin d’au moins deux dés",
    "A tile in the middle needs at least 2 set-aside dice of its symbol.",
)
STEAL = RuleRef(
    "tarasque.steal",
    BOOK,
    "il lui faut un dé de plus que ce qu’indique le coté de la base",
    "A tile at another player's base side s needs at least s+1 dice of its symbol.",
)
SPLIT = RuleRef(
    "tarasque.split",
    BOOK,
    "On peut aussi partager des résultats avec 4, 5 ou 6 symboles identiques pour prendre plusieurs tuiles.",
    "The dice of one symbol may be split among several tiles of that symbol.",
)
SIDE = RuleRef(
    "tarasque.side",
    BOOK,
    "Le nombre de dés détermine le coté ou elle est placée.",
    "A tile taken goes to the side of the taker's base equal to the dice spent on it.",
)
SIX = RuleRef(
    "tarasque.six",
    DECISIONS,
    "A tile won with six or more dice of one colour, with the egg counting, goes straight into the lair.",
    "A tile taken with 6 or more dice goes straight into the lair; if all were spent on it, "
    "the player takes an extra turn.",
)
VICTIM_EGG = RuleRef(
    "tarasque.victim-egg",
    DECISIONS,
    "When a tile is stolen, the **victim** receives an egg from the supply",
    "The victim of a theft receives an egg from the supply, if the supply has one.",
)
LAIR_MOVE = RuleRef(
    "tarasque.lair-move",
    BOOK,
    "il a la possibilité de changer la position d’une tuile dans son antre de dragon",
    "At the end of their turn, by returning an egg, a player may move one lair tile to another row it fits "
    "or to a new row; gaps close.",
)
LAIR_FIXED = RuleRef(
    "tarasque.lair-fixed",
    BOOK,
    "la position d’une tuile dans I'antre de dragon ne peut jamais étre changée",
    "A lair tile never moves except by the egg move at the end of its owner's turn.",
)
END = RuleRef(
    "tarasque.end",
    DECISIONS,
    "The game ends the moment the last tile enters a lair.",
    "The game ends the moment the last tile enters a lair, counting removed tiles as gone.",
)
SCORING = RuleRef(
    "tarasque.scoring",
    BOOK,
    "On compte chaque rangée séparément.",
    "Each row scores its length squared (1, 4, 9, 16, 25, 36) and each unused egg 1; ties share the place.",
)
DESIGNED_STORE_ORDER = RuleRef(
    "tarasque.store-order",
    "platform",
    "The order in which base tiles enter the lair",
    "Base tiles enter the lair one at a time, side 2 first, then 3, 4, 5, each side in the order its tiles "
    "arrived; any arrangement of rows stays reachable.",
)
DESIGNED_SET_ASIDE_ONCE = RuleRef(
    "tarasque.set-aside-once",
    "platform",
    "Setting dice aside, one symbol at a time",
    "From one roll, the dice of a symbol are set aside in one move (how many, and whether one sits on the egg).",
)
DESIGNED_LEAVE = RuleRef(
    "tarasque.leave",
    "platform",
    "A seat that leaves",
    "A seat that leaves is out: its base tiles are removed from the game (nobody can steal them any more), "
    "its eggs return to the supply, its lair stays; with one seat left the game ends.",
)

RULES = (
    SETUP,
    FIRST_PLAYER,
    NEXT_PLAYER,
    REFILL,
    TWO_PLAYERS,
    STORE,
    LAIR_ROWS,
    LAIR_ROWS_NUMBERED,
    ROLL,
    SET_ASIDE,
    VALID_DIE,
    NUMBERED_DICE,
    NO_VALID_DIE,
    STOP,
    EGG,
    TAKE_MIDDLE,
    STEAL,
    SPLIT,
    SIDE,
    SIX,
    VICTIM_EGG,
    LAIR_MOVE,
    LAIR_FIXED,
    END,
    SCORING,
    DESIGNED_STORE_ORDER,
    DESIGNED_SET_ASIDE_ONCE,
    DESIGNED_LEAVE,
    LEAVING,
    TURN_ORDER,
    GAME_ENDED,
    MOVE_SHAPE,
)
