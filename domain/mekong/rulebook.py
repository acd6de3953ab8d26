"""Every rule Les Dragons du Mékong cites, with the passage of the rulebook it comes from.

``CLASSIC_BOOK`` is the OCR of the Descartes edition (garbled in places),
``RIVER_BOOK`` the clean River Dragons edition; ``README.md`` holds the facts
and decisions that fill their gaps; ``platform`` marks what no book says.
Every designed rule is documented in ``docs/rules/mekong.md``
(``tests/unit/domain/mekong/test_rules_page.py`` keeps the page and this module in step).
"""

from __future__ import annotations

from domain.kernel import LEAVING, RuleRef
from domain.kernel.rules import DECISIONS_BOOK, GAME_ENDED, TURN_ORDER, titled

CLASSIC_BOOK = titled(
    "mekong-classic-edition.fr.txt", "the rulebook of Les Dragons du Mékong, as worded in its classic edition"
)
RIVER_BOOK = titled(
    "mekong-river-dragons-edition.fr.txt",
    "the rulebook of Les Dragons du Mékong, as worded in its River Dragons edition",
)
"""The books' titles name the edition a passage is quoted from, not the edition played: a rule is
cited once for both editions (an event type has one ``RULE``), from the clearer book, and where the
editions differ each has its own rule naming its edition (``RETURN_CLASSIC``, ``SEATS_RIVER``)."""
DECISIONS = DECISIONS_BOOK
PLATFORM = "platform"

SEATS_CLASSIC = RuleRef(
    "mekong.seats.classic",
    CLASSIC_BOOK,
    "A 4 joueurs, on ne joue qu'avec les pions rouge, vert, bleu et jaune",
    "Classic edition: the colours in play depend on the number of players (black and white at 2, ...).",
)
SEATS_RIVER = RuleRef(
    "mekong.seats.river-dragons",
    RIVER_BOOK,
    "4 Bleu, vert, rouge et jaune",
    "River Dragons edition: the colours in play depend on the number of players (pink and black at 2, ...).",
)
FIRST_PLAYER = RuleRef(
    "mekong.first-player",
    RIVER_BOOK,
    "Le plus jeune des joueurs prend la carte « premier joueur »",
    "The first-player marker goes to one seat, drawn by lot in place of the youngest player.",
)
PROGRAMMING = RuleRef(
    "mekong.programming",
    RIVER_BOOK,
    "Chaque joueur choisit 5 cartes Action parmi celles qu'il a en main. Il les place ensuite face cachée",
    "Each player secretly places 5 cards of their hand in order; they cannot be changed.",
)
HAND = RuleRef(
    "mekong.hand",
    DECISIONS,
    "A hand is 8 action cards plus the dragon cards of the other colours in play",
    "A hand is the 8 actions and the dragons of the other colours in play; played cards return to it.",
)
ONE_DRAGON = RuleRef(
    "mekong.programming.one-dragon",
    RIVER_BOOK,
    "Un joueur ne peut poser plus d'une seule carte Dragon par tour, parmi ses 5 cartes.",
    "At most one of the 5 programmed cards is a dragon.",
)
REVEAL = RuleRef(
    "mekong.resolution.reveal",
    RIVER_BOOK,
    "ils retournent ensemble leur première carte et en réalisent l'action, chacun leur tour, dans le sens des "
    "aiguilles d'une montre, en commençant toujours par le premier joueur.",
    "Cards are revealed together position by position; players act clockwise from the first player.",
)
DRAGON_CANCELS = RuleRef(
    "mekong.dragon.cancels",
    RIVER_BOOK,
    "une carte Dragon ANNULE la carte Action du joueur de la couleur du dragon, située en même position.",
    "A dragon cancels the action of the player of its colour at the same position.",
)
DRAGONS_STACK = RuleRef(
    "mekong.dragon.never-cancels-dragons",
    RIVER_BOOK,
    "Une carte Dragon n'annule pas les effets d'une autre carte Dragon.",
    "A dragon never cancels a dragon: several dragons at one position all apply.",
)
ROUND_END = RuleRef(
    "mekong.round.end",
    RIVER_BOOK,
    "Le premier joueur passe la carte « premier joueur » à son voisin de gauche.",
    "After the fifth position the marker passes to the left and played cards return to the hands.",
)
CROSSING = RuleRef(
    "mekong.end.crossing",
    RIVER_BOOK,
    "La partie prend immédiatement fin lorsque le pion d'un joueur atteint sa destination",
    "The game ends the instant a pawn reaches its destination village; its player wins.",
)
ROUND_LIMIT = RuleRef(
    "mekong.end.round-limit",
    PLATFORM,
    "round limit",
    "Designed: after the round limit without a crossing, the pawn nearest its destination wins.",
)
STONE_ISLAND = RuleRef(
    "mekong.stone.island",
    RIVER_BOOK,
    "Chaque île ne peut recevoir qu'une seule pierre.",
    "A stone goes on a free island, one per island, never on a village; it never moves.",
)
STONE_ON_ISLAND = RuleRef(
    "mekong.stone.on-an-island",
    RIVER_BOOK,
    "Le joueur DOIT poser 1 pierre sur l'une des 27 îles du plateau.",
    "On the island boards a stone goes on one of the 27 islands, named, not at coordinates.",
)
STONE_NOT_UNDER_PLANK = RuleRef(
    "mekong.stone.not-under-plank",
    PLATFORM,
    "stones",
    "Designed: a stone cannot go where a plank passes over (the plank would rest on it).",
)
STONE_RESERVE = RuleRef(
    "mekong.stone.reserve-empty",
    RIVER_BOOK,
    "S'il n'y a plus de pierres dans la réserve au moment où un joueur joue cette action, il perd son action.",
    "With no stone left in the reserve the action is lost.",
)
STONE_IN_WATER = RuleRef(
    "mekong.challenge.stone",
    RIVER_BOOK,
    "Au lieu de poser les pierres sur les îles, vous devrez le faire au jugé, directement dans l'eau.",
    "Challenge: a stone goes anywhere in the water, not overlapping a stone, a village or a plank.",
)
DROP_RESOLUTION = RuleRef(
    "mekong.challenge.drop-resolution",
    PLATFORM,
    "whole units",
    "Designed: a stone dropped in the water is dropped at whole board units (the board's radius is 100), so "
    "every drop has its number in the learning environments.",
)
PLANK_SUPPORTS = RuleRef(
    "mekong.plank.supports",
    RIVER_BOOK,
    "Le joueur DOIT poser une planche en appui sur deux pierres, ou sur un village et une pierre.",
    "A plank from one's reserve rests on two stones, or on a village and a stone.",
)
PLANK_FROM_RESERVE = RuleRef(
    "mekong.plank.from-reserve",
    RIVER_BOOK,
    "choisir parmi ses planches disponibles celle qu'il veut placer.",
    "The plank named is one of the planks in the player's own reserve.",
)
PLANK_THREE = RuleRef(
    "mekong.plank.three-per-support",
    RIVER_BOOK,
    "Une même pierre ne peut supporter que trois planches au maximum.",
    "A stone or a village bears at most 3 planks.",
)
PLANK_THREE_VILLAGE = RuleRef(
    "mekong.plank.three-per-village",
    RIVER_BOOK,
    "De même un village ne peut supporter que trois planches au maximum.",
    "A village bears at most 3 planks.",
)
PLANK_CROSSING = RuleRef(
    "mekong.plank.no-crossing",
    CLASSIC_BOOK,
    "En aucun cas, une planche ne peut croiser une autre pla.nche",
    "Planks never cross and never lie on one another.",
)
PLANK_OVER_STONE = RuleRef(
    "mekong.plank.not-over-stone",
    RIVER_BOOK,
    "Le joueur DOIT poser une planche en appui sur deux pierres, ou sur un village et une pierre.",
    "Designed reading: a plank rests on its two supports only, so it never passes over a third stone or a village.",
)
PLANK_REACH = RuleRef(
    "mekong.plank.reach",
    RIVER_BOOK,
    "Si la planche est trop longue, ce n'est pas un problème, elle peut dépasser de la pierre.",
    "A plank fits if its reach covers the gap between its supports; too long is fine.",
)
PLANK_TOO_SHORT = RuleRef(
    "mekong.plank.too-short",
    RIVER_BOOK,
    "Mais si la planche ne peut pas être posée de manière stable (trop courte), le joueur doit la poser ailleurs.",
    "A plank named for supports it does not reach is a failed attempt; it must then go elsewhere.",
)
PLANK_LOST = RuleRef(
    "mekong.plank.lost",
    RIVER_BOOK,
    "Si le joueur ne peut poser nulle part sa planche sur le plateau, elle est retirée du jeu",
    "A plank that fits nowhere on the board is out of the game.",
)
PLANK_NONE = RuleRef(
    "mekong.plank.impossible",
    CLASSIC_BOOK,
    "absence de",
    "With no plank in reserve, or no two supports a plank may join, the plank action is lost.",
)
REMOVE = RuleRef(
    "mekong.remove",
    RIVER_BOOK,
    "Retirer 1 planche du plateau de jeu, de n'importe quelle couleur ou longueur",
    "Take a plank from the board into one's reserve, or return a stone to the common reserve.",
)
REMOVE_A_STONE = RuleRef(
    "mekong.remove.stone",
    RIVER_BOOK,
    "Retirer 1 pierre du plateau de jeu et la remettre dans la réserve commune.",
    "A stone taken from the board goes back to the common reserve.",
)
REMOVE_OCCUPIED = RuleRef(
    "mekong.remove.occupied",
    RIVER_BOOK,
    "de retirer une planche occupée par 1 pion.",
    "A plank a pawn stands on cannot be taken.",
)
RESERVE_SIZES = RuleRef(
    "mekong.remove.one-per-size",
    RIVER_BOOK,
    "d'avoir dans sa réserve 2 planches de même taille",
    "A reserve never holds two planks of one size.",
)
RESERVE_COLOURS = RuleRef(
    "mekong.remove.two-colours",
    RIVER_BOOK,
    "d'avoir dans sa réserve plus de 2 couleurs différentes de planches.",
    "A reserve never holds planks of more than two colours.",
)
REMOVE_STONE = RuleRef(
    "mekong.remove.bare-stone",
    RIVER_BOOK,
    "de retirer une pierre sur laquelle s'appuient une ou plusieurs planches.",
    "Only a stone bearing no plank can be removed.",
)
REMOVE_NOTHING = RuleRef(
    "mekong.remove.nothing",
    RIVER_BOOK,
    "Si aucune planche, ni aucune pierre ne peut être retirée, l'action est perdue.",
    "With nothing removable the action is lost.",
)
MOVE_1 = RuleRef(
    "mekong.move.one",
    RIVER_BOOK,
    "Le joueur DOIT déplacer son pion sur une planche voisine libre (non occupée par un autre pion) ou sur un village",
    "Each step of a move goes to a free plank sharing a support, or into a village the plank rests on.",
)
VILLAGE_OPEN = RuleRef(
    "mekong.move.village",
    RIVER_BOOK,
    "En revanche, un village peut contenir un nombre illimité de pions.",
    "Any number of pawns may share a village.",
)
MOVE_2 = RuleRef(
    "mekong.move.two",
    RIVER_BOOK,
    "Le joueur DOIT déplacer son pion de 2 planches ou de 1 planche et 1 village",
    "Move 2: two such steps; the game ends at once if the first step reaches the destination.",
)
RETURN_RIVER = RuleRef(
    "mekong.move.there-and-back.river-dragons",
    RIVER_BOOK,
    "Dans le cas d'un déplacement de 2, il est possible de faire un aller-retour et de revenir à sa place initiale.",
    "River Dragons: a move of 2 may go there and back to its start.",
)
RETURN_CLASSIC = RuleRef(
    "mekong.move.there-and-back.classic",
    CLASSIC_BOOK,
    "S'il n'y-a pas d'autre possibilité",
    "Classic: a move of 2 goes there and back only when nothing else is possible.",
)
FALL = RuleRef(
    "mekong.move.fall",
    RIVER_BOOK,
    "Si aucun déplacement n'est possible, dans aucune direction, le pion tombe à l'eau et retourne à son village "
    "de départ.",
    "A pawn that cannot move falls into the water and returns to its start village.",
)
JUMP = RuleRef(
    "mekong.jump",
    RIVER_BOOK,
    "Le joueur DOIT faire sauter son pion par dessus un autre pion situé sur une planche adjacente.",
    "Jump over a pawn on a neighbouring plank, landing beyond it, on a free plank or a village at its far end.",
)
JUMP_FALL = RuleRef(
    "mekong.jump.fall",
    RIVER_BOOK,
    "Si aucun saut n'est possible (pas de pions adverses, pas de place pour atterrir), le pion fait un saut pour "
    "rien, tombe à l'eau",
    "A pawn that cannot jump falls into the water and returns to its start village.",
)
SKIPPED = RuleRef(
    "mekong.skip",
    PLATFORM,
    "skip",
    "A seat whose decision is lost (timed out) loses the rest of that action.",
)

RULES = (
    SEATS_CLASSIC, SEATS_RIVER, FIRST_PLAYER, PROGRAMMING, HAND, ONE_DRAGON, REVEAL, DRAGON_CANCELS, DRAGONS_STACK,
    ROUND_END, CROSSING, ROUND_LIMIT, STONE_ISLAND, STONE_ON_ISLAND, STONE_NOT_UNDER_PLANK, STONE_RESERVE,
    STONE_IN_WATER, DROP_RESOLUTION, PLANK_SUPPORTS, PLANK_FROM_RESERVE, PLANK_THREE, PLANK_THREE_VILLAGE,
    PLANK_CROSSING,
    PLANK_OVER_STONE, PLANK_REACH, PLANK_TOO_SHORT, PLANK_LOST, PLANK_NONE, REMOVE, REMOVE_A_STONE, REMOVE_OCCUPIED,
    RESERVE_SIZES, RESERVE_COLOURS, REMOVE_STONE, REMOVE_NOTHING, MOVE_1, VILLAGE_OPEN, MOVE_2, RETURN_RIVER,
    RETURN_CLASSIC, FALL, JUMP, JUMP_FALL, SKIPPED, LEAVING, TURN_ORDER, GAME_ENDED,
)  # fmt: skip
