"""Every rule Seven Dragons cites, for its events and its refusals.

The rulebook is ``seven-dragons.nl-fr.txt`` (its French part); the gaps are filled
by the Seven Dragons section of ``README.md`` and, where neither says anything,
by rules this platform designed (book ``platform``, each marked *designed*).
Every designed rule is written up in ``docs/rules/seven-dragons.md``; a designed
rule's ``section`` is the title of its entry there, found verbatim on that page.
"""

from __future__ import annotations

from domain.kernel import LEAVING, RuleRef
from domain.kernel.rules import DECISIONS_BOOK, GAME_ENDED, JOINING, MOVE_SHAPE, TURN_ORDER, titled

BOOK = titled("seven-dragons.nl-fr.txt", "the rulebook of Seven Dragons")
DECISIONS = DECISIONS_BOOK
PLATFORM = "platform"

# ------------------------------------------------------------------ setup

GOALS_DEALT = RuleRef(
    "seven-dragons.setup.goals",
    BOOK,
    "Mélanges les 5 cartes Objectif et distribuez-en une à chaque joueur. Gardez votre objectif secret",
    "Each player is dealt one of the five goals, face down.",
)
UNUSED_GOALS = RuleRef(
    "seven-dragons.setup.unused-goals",
    BOOK,
    "Ces Objectifs inutilisés doivent être placés face cachée entre deux joueurs",
    "Unused goals lie face down between the players, as imaginary seats (designed: unused goal k sits "
    "after seat k mod n).",
)
SILVER_PLACED = RuleRef(
    "seven-dragons.setup.silver",
    BOOK,
    "Placez le Dragon d'Argent au centre de la table. Cette carte ne pourra jamais être déplacée.",
    "The Silver Dragon starts the layout at the origin and never moves.",
)
FIRST_CARD = RuleRef(
    "seven-dragons.setup.first-card",
    DECISIONS,
    "The first card turned up starts the layout.",
    "Without the Silver Dragon, a dragon card turned up at random starts the layout at the origin.",
)
DEAL = RuleRef(
    "seven-dragons.setup.deal",
    BOOK,
    "Mélanges ensemble les cartes Dragon et Action et distribuez ensuite 3 cartes à chaque joueur.",
    "The dragon and action cards are shuffled and each player is dealt 3 cards.",
)
FIRST_PLAYER = RuleRef(
    "seven-dragons.setup.first-player",
    BOOK,
    "Le joueur le plus âgé joue en premier.",
    "The oldest player, in the first seat, starts; turns follow seat order.",
)

# ------------------------------------------------------------------ the turn

DRAW = RuleRef(
    "seven-dragons.turn.draw",
    BOOK,
    "Piochez une carte du paquet et ajoutez-la à votre main.",
    "A turn starts by drawing one card, automatically; none when the deck is empty.",
)
PLAY = RuleRef(
    "seven-dragons.turn.play",
    BOOK,
    "Choisissez une carte de votre main et utilisez-la comme suit",
    "Then the player plays one card of their hand: a dragon to the layout, or an action.",
)
DRAGON_CARD = RuleRef(
    "seven-dragons.turn.dragon-card",
    BOOK,
    "Carte Dragon : ajoutez la carte à celles déjà présentes sur la table",
    "A dragon card is played by adding it to the layout; it does no action.",
)
NO_DRAW_WHEN_EMPTY = RuleRef(
    "seven-dragons.turn.deck-empty",
    BOOK,
    "continuez à jouer, sans piocher de nouvelles cartes, tant qu'au moins un joueur a des cartes en main",
    "Once the deck is empty, play goes on without drawing; a player with no card is passed over.",
)
STUCK = RuleRef(
    "seven-dragons.turn.stuck",
    PLATFORM,
    "A hand that cannot be played",
    "Designed: a player who can play no card of their hand sets one aside, face up, out of the game.",
)

# ------------------------------------------------------------------ placing dragons

CONNECTION = RuleRef(
    "seven-dragons.place.connection",
    BOOK,
    "au moins une Zone de la nouvelle carte soit adjacente à une Zone présentant le même dragon sur une autre carte",
    "A dragon goes next to the layout with at least one panel touching a same-coloured panel across an edge.",
)
DIAGONAL = RuleRef(
    "seven-dragons.place.diagonal",
    BOOK,
    "les deux Zones représentant les Dragons Vert sont en diagonale l'une par rapport à l'autre, "
    "ce qui n'est pas valide",
    "Cards touching only at a corner are not connected.",
)
EMPTY_CELL = RuleRef(
    "seven-dragons.place.empty-cell",
    BOOK,
    "ajoutez la carte à celles déjà présentes sur la table",
    "A card goes into an empty cell, beside the cards already on the table, never onto one of them.",
)
GRID = RuleRef(
    "seven-dragons.place.grid",
    BOOK,
    "Les cartes ne peuvent jamais être placées ni perpendiculairement, ni décalées l'une par rapport à l'autre.",
    "Cards stand in an orthogonal grid: never at right angles, never offset.",
)
TABLE = RuleRef(
    "seven-dragons.place.table",
    PLATFORM,
    "The table holds the cards within 12 cells of its centre",
    "Designed: a card goes within 12 cells, across and down, of the cell the Silver Dragon starts in.",
)
TURNED = RuleRef(
    "seven-dragons.place.orientation",
    DECISIONS,
    "Cards turn 180°",
    "A card may be turned 180°, never 90°: orientation 0 or 180.",
)
STRICT_EDGES = RuleRef(
    "seven-dragons.place.strict-edges",
    DECISIONS,
    'Make "every touching edge must match" a rule option, off by default.',
    "With strict edges, every panel touching another across an edge must match it.",
)
RAINBOW_WILD = RuleRef(
    "seven-dragons.place.rainbow",
    BOOK,
    "Il possède à tout moment les 5 couleurs.",
    "The Rainbow Dragon is every colour.",
)
SILVER_COLOUR = RuleRef(
    "seven-dragons.place.silver",
    BOOK,
    "Le Dragon d'Argent possède la couleur correspondant à la celle de la carte Action au sommet de la pile "
    "de défausse.",
    "The Silver Dragon is wild while the discard pile is empty, else the colour of its top card.",
)
BONUS = RuleRef(
    "seven-dragons.place.bonus",
    BOOK,
    "Si vous connectez 3 couleurs, vous piochez 2 cartes bonus",
    "A placed dragon connecting k distinct non-wild colours draws k-1 cards, as far as the deck allows.",
)

# ------------------------------------------------------------------ actions

ACTION_PLAYED = RuleRef(
    "seven-dragons.action.play",
    BOOK,
    "Carte Action : effectuez l'action tel que décrite ci-dessous, puis ajoutez la carte à la pile de défausse.",
    "An action card does the action printed on it, then goes to the discard pile; it is never placed.",
)
DISCARD_CHOICE = RuleRef(
    "seven-dragons.action.discard",
    BOOK,
    "Vous pouvez décider de placer la carte Action au fond de la pile de défausse",
    "An action goes on top with its effect, at the bottom with its effect (the Silver keeps its colour), "
    "or on top without effect.",
)
NO_BOTTOM_WITHOUT_SILVER = RuleRef(
    "seven-dragons.action.no-silver",
    PLATFORM,
    "Actions without the Silver Dragon",
    "Designed: without the Silver Dragon the pile's order changes nothing, so actions go on top.",
)
TRADE_HANDS = RuleRef(
    "seven-dragons.action.trade-hands",
    BOOK,
    "Echangez votre main (pas votre Objectif) avec le joueur de votre choix.",
    "Trade Hands: swap your whole hand, the card just drawn included, with another player.",
)
TRADE_GOALS = RuleRef(
    "seven-dragons.action.trade-goals",
    BOOK,
    "Echangez votre carte Objectif avec le joueur de votre choix. A moins de 5 joueurs, vous pouvez également "
    "choisir une carte Objectif non-utilisée.",
    "Trade Goals: swap your goal with another player's or with an unused goal.",
)
ROTATE_GOALS = RuleRef(
    "seven-dragons.action.rotate-goals",
    BOOK,
    "Choisissez gauche ou droite. Chaque joueur doit donner sa carte Objectif à son voisin",
    "Rotate Goals: every goal, unused ones included, passes to the next place left or right "
    "(designed: left is the next place in turn order).",
)
MOVE_A_CARD = RuleRef(
    "seven-dragons.action.move",
    BOOK,
    "Choisissez une carte en jeu sur la table, et déplacez-la à un nouvel emplacement respectant les règles de "
    "placement. Il est interdit de déplacer le Dragon d'Argent.",
    "Move a Card: move a card of the layout, any but the Silver Dragon, to a place where it could be played.",
)
MOVE_IN_PLACE = RuleRef(
    "seven-dragons.action.move-in-place",
    BOOK,
    "est-il possible de laisser la carte au même endroit mais dans une orientation différente",
    "Move a Card moves the card, or leaves it in its cell turned the other way; left as it was, it has not moved.",
)
MOVE_CONNECTED = RuleRef(
    "seven-dragons.action.move-connected",
    BOOK,
    "la carte déplacée doit toujours être reconnectée à au moins une autre carte",
    "A moved card must connect to another card, though it may leave islands behind.",
)
ZAP_A_CARD = RuleRef(
    "seven-dragons.action.zap",
    BOOK,
    "Choisissez une carte en jeu, prenez-la et ajoutez-la à votre main. Il est interdit de zapper le Dragon d'Argent.",
    "Zap a Card: take any card but the Silver Dragon from the layout into your hand.",
)
ZAP_LAST_CARD = RuleRef(
    "seven-dragons.action.zap-last",
    PLATFORM,
    "The layout's last card",
    "Designed: without the Silver Dragon, the last card of the layout cannot be zapped.",
)

# ------------------------------------------------------------------ winning

WIN = RuleRef(
    "seven-dragons.win.seven",
    BOOK,
    "Le but du jeu est de créer une chaîne continue de sept dragons de la même couleur que celle de votre carte "
    "Objectif. Dès que cet objectif est rempli, vous remportez la victoire !",
    "Seven dragons of your goal's colour in one group win at once; the check follows every play, for everyone.",
)
GROUP = RuleRef(
    "seven-dragons.win.group",
    BOOK,
    "Les 7 Zones doivent simplement se toucher les unes les autres.",
    "The seven form one contiguous group, branches allowed; each card's region counts once.",
)
ACTIVE_WINS = RuleRef(
    "seven-dragons.win.active-first",
    BOOK,
    "Le gagnant est le joueur actif, celui qui a joué la carte mettant fin à la partie.",
    "If several players win at once the active player wins; designed: if the active player is not among "
    "them, the first of them in seat order.",
)
OTHERS_COMPLETE = RuleRef(
    "seven-dragons.win.immediate",
    BOOK,
    "Vous gagnez immédiatement, si bien sûr il n'a pas lui-même obtenu 7 dragons.",
    "Another player completing your seven makes you win at once.",
)
UNUSED_WINS_NOTHING = RuleRef(
    "seven-dragons.win.unused",
    DECISIONS,
    "An unused goal that reaches 7 wins nothing: play goes on.",
    "An unused goal reaching its seven wins nothing.",
)
EXHAUSTION = RuleRef(
    "seven-dragons.win.exhaustion",
    BOOK,
    "le joueur dont le nombre de dragons connectés est le plus proche de 7 est déclaré vainqueur",
    "When every hand is empty with no winner, the largest group of one's goal colour closest to one's "
    "target (7, or a young player's own) wins; ties share the win.",
)
LAST_SEAT = RuleRef(
    "seven-dragons.win.last-seat",
    PLATFORM,
    "The last seat standing",
    "Designed: when all but one seat have left, the one remaining wins.",
)

# ------------------------------------------------------------------ seats

JOIN = RuleRef(
    "seven-dragons.seats.join",
    BOOK,
    "Il n'a qu'à récupérer une carte Objectif inutilisée, piocher 3 cartes, et c'est parti.",
    "A newcomer to a game of fewer than 5 takes an unused goal at random, draws 3 cards and sits last.",
)
JOIN_FULL = RuleRef(
    "seven-dragons.seats.join-full",
    BOOK,
    "En supposant bien sûr qu'il y avait moins de 5 joueurs jusque là.",
    "A newcomer may join only a game of fewer than 5 players.",
)
JOIN_DECK = RuleRef(
    "seven-dragons.seats.join-deck",
    PLATFORM,
    "A newcomer joins only while the deck has cards",
    "Designed: a newcomer may join only while the deck has a card, so that they have something to play.",
)
HAND_LEFT = RuleRef(
    "seven-dragons.seats.leave",
    PLATFORM,
    "A seat that leaves",
    "Designed: a leaver's hand is set aside face up, out of the game, and their goal becomes unused.",
)

# ------------------------------------------------------------------ variants

CONNECTIONS = RuleRef(
    "seven-dragons.variant.connections",
    BOOK,
    "Contentez-vous de retourner les cartes une à une, et laissez l'enfant choisir un endroit où la jouer",
    "Dragon connections: each turn the player turns up the top card and places it.",
)
CONNECTIONS_SET_ASIDE = RuleRef(
    "seven-dragons.variant.connections-aside",
    DECISIONS,
    "On each turn the player turns up the top card and places it, or sets it aside if it fits nowhere.",
    "Dragon connections: a card that fits nowhere is set aside.",
)
CONNECTIONS_WIN = RuleRef(
    "seven-dragons.variant.connections-win",
    DECISIONS,
    "Whoever places the last card wins.",
    "Dragon connections: whoever places the last card wins.",
)
BASIC_TARGET = RuleRef(
    "seven-dragons.variant.basic-target",
    BOOK,
    "chaque joueur de moins de 7 ans doit connecter autant de Zones que son âge pour gagner",
    "Basic dragons: a young player's target may be their age instead of 7.",
)
SINGLE_ACTION = RuleRef(
    "seven-dragons.variant.single-action",
    BOOK,
    "mais avec un seul type de carte Action (généralement Trade Goals)",
    "Single-action dragons: only one action type is in the deck.",
)

RULES: tuple[RuleRef, ...] = (
    GOALS_DEALT, UNUSED_GOALS, SILVER_PLACED, FIRST_CARD, DEAL, FIRST_PLAYER,
    DRAW, PLAY, DRAGON_CARD, NO_DRAW_WHEN_EMPTY, STUCK,
    CONNECTION, DIAGONAL, EMPTY_CELL, GRID, TABLE, TURNED, STRICT_EDGES, RAINBOW_WILD, SILVER_COLOUR, BONUS,
    ACTION_PLAYED, DISCARD_CHOICE, NO_BOTTOM_WITHOUT_SILVER, TRADE_HANDS, TRADE_GOALS, ROTATE_GOALS,
    MOVE_A_CARD, MOVE_IN_PLACE, MOVE_CONNECTED, ZAP_A_CARD, ZAP_LAST_CARD,
    WIN, GROUP, ACTIVE_WINS, OTHERS_COMPLETE, UNUSED_WINS_NOTHING, EXHAUSTION, LAST_SEAT,
    JOIN, JOIN_FULL, JOIN_DECK, HAND_LEFT,
    CONNECTIONS, CONNECTIONS_SET_ASIDE, CONNECTIONS_WIN, BASIC_TARGET, SINGLE_ACTION,
    TURN_ORDER, GAME_ENDED, JOINING, LEAVING, MOVE_SHAPE,
)  # fmt: skip
