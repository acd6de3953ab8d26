"""Every rule Chevaliers des dragons cites, for its events and its refusals.

``section`` is a passage copied verbatim from the rulebook (or from the
decisions in ``shared/rules/README.md``); ``text`` says the rule in English.
What no book says (the round limit, the last dragon flying) cites ``platform``.
"""

from __future__ import annotations

from domain.kernel import LEAVING, RuleRef
from domain.kernel.rules import DECISIONS_BOOK, GAME_ENDED, MOVE_SHAPE, TURN_ORDER, titled

BOOK = titled("drachenreiter.fr.txt", "the rulebook of Chevaliers des dragons (Drachenreiter)")
DECISIONS = DECISIONS_BOOK


def _rule(key: str, book: str, section: str, text: str) -> RuleRef:
    return RuleRef(f"drachenreiter.{key}", book, section, text)


START_ORDER = _rule(
    "start.order",
    BOOK,
    "Distribuer autant de cartes Départ que de joueurs en jeu.",
    "Start cards 1 to n are dealt at random; each gives a grid place.",
)
START_CARDS = _rule(
    "start.cards",
    DECISIONS,
    "Card 1 gives 2 energy, 1 magic card and 500.",
    "Each start card gives a grid place, energy, magic cards and a starting speed (cards 2 to 6 designed).",
)
START_PLACE = _rule(
    "start.place",
    BOOK,
    "Chaque joueur pose son dragon sur la case départ correspondant au chiffre défini par sa carte Départ.",
    "Each dragon starts on the grid place of its start card, with that card's energy and speed.",
)
START_HAND = _rule(
    "start.hand",
    BOOK,
    "Chaque joueur obtient le nombre de cartes Magie (face cachée) indiqué sur sa carte Départ.",
    "Each player draws the number of magic cards its start card shows.",
)
DECK = _rule(
    "start.deck",
    BOOK,
    "Mélanger les cartes Magie et les mettre en pile, face cachée.",
    "The 38 magic cards are shuffled into a face-down pile.",
)
TRAP_STOCK = _rule(
    "start.traps",
    DECISIONS,
    "They start in the stock and reach the track only through the magic-trap card.",
    "The 12 trap tokens start face down in the stock.",
)
COURSE = _rule(
    "track.course",
    BOOK,
    "la case départ pour quatre est le départ et la case départ pour six est l'arrivée, ou vice versa",
    "On a point-to-point course, up to four start on the grid for four; five or six run it the other way.",
)
ROUND = _rule(
    "round.phases",
    BOOK,
    "Un tour de mouvement se compose de trois phases",
    "A round: set speeds in secret, lay a magic card, then move in race order.",
)
SET_SPEED = _rule(
    "round.speed",
    BOOK,
    "les joueurs peuvent augmenter ou diminuer leur vitesse de 300 VD (vitesse dragon) au maximum",
    "Each player secretly sets a speed of 100 to 800 within 300 of the last one.",
)
SPEED_CAP = _rule(
    "debilitatus.speed-cap",
    BOOK,
    "Il ne peut pas non plus dépasser une vitesse de 500 VD.",
    "An exhausted dragon may not set a speed above 500.",
)
LAY_CARD = _rule(
    "round.lay",
    BOOK,
    "chaque joueur peut (c'est facultatif) déposer une carte Magie, face cachée, à côté de son indicateur de vitesse",
    "Each player may lay one magic card from the hand face down.",
)
MOVE_ORDER = _rule(
    "move.order",
    BOOK,
    "Le joueur dont le dragon est en première position commence.",
    "Dragons move in race order (progress along the centre line); the inner one first on a tie.",
)
REVEAL = _rule(
    "move.reveal",
    BOOK,
    "Les autres joueurs peuvent alors vérifier s'il a respecté le changement de vitesse maximal autorisé.",
    "The mover reveals the speed it set.",
)
NEXT_MOVER = _rule(
    "move.next",
    BOOK,
    "c'est au tour du joueur dont le dragon est placé juste après celui qui vient de jouer",
    "When a dragon has moved, the foremost dragon yet to move goes next.",
)
TEMPLATE = _rule(
    "move.template",
    BOOK,
    "doit toujours prendre l'élément de trajectoire correspondant à la vitesse indiquée sur son indicateur de vitesse",
    "The template of the set speed is used, whole, laid at the front point and turned within its start notch.",
)
LANDING = _rule(
    "move.landing",
    BOOK,
    "de sorte que la pointe arrière de la base du dragon touche la pointe de l'élément de trajectoire",
    "The dragon is set with its rear point at the template's tip, turned within the end notch.",
)
DIAL = _rule(
    "move.dial",
    BOOK,
    "Le joueur place ensuite les deux aiguilles sur la vitesse actuelle",
    "After moving, the dial shows the speed used, less any crash or collision penalty.",
)
SYMBOL = _rule(
    "touch.symbol",
    BOOK,
    "Lorsque, pendant le déplacement, l'élément de trajectoire touche un symbole de carte Magie, "
    "le joueur peut tirer une carte Magie",
    "Each magic-card symbol touched by the template or the dragon lets the mover draw one card, if it wants.",
)
RESHUFFLE = _rule(
    "touch.reshuffle",
    BOOK,
    "il faut mélanger celles de la pile de dépôt et les remettre sur la pile des cartes Magie",
    "An empty pile is refilled by shuffling the discard pile.",
)
HAND_LIMIT = _rule(
    "touch.hand-limit",
    BOOK,
    "Lorsqu'un joueur en tire une cinquième, il doit en déposer une sur la pile de dépôt.",
    "A hand holds at most four cards; the player discards the excess of its choice.",
)
FIELD = _rule(
    "touch.field",
    BOOK,
    "Si, après un déplacement, un dragon (et non un élément de trajectoire) touche un champ Energie, "
    "alors le joueur obtient un jeton Energie.",
    "A dragon touching an energy field after its move gains one energy, up to four.",
)
TRAP = _rule(
    "touch.trap",
    BOOK,
    "alors le piège doit être retourné et retiré du jeu",
    "Each trap touched by the template or the dragon is flipped, costs its value and leaves the game.",
)
ENERGY_LOST = _rule(
    "energy.lost",
    BOOK,
    "Ces jetons sont remis en réserve dans la boîte de jeu.",
    "Energy lost goes back to the supply.",
)
CRASH_DRAGON = _rule(
    "crash.dragon",
    BOOK,
    "il doit replacer son dragon à la même hauteur, mais à l'intérieur du parcours",
    "A dragon touching a border after its move is put back inside at the same height: -1 energy, speed 100.",
)
CRASH_TEMPLATE = _rule(
    "crash.template",
    BOOK,
    "il doit placer son dragon à l'intérieur du parcours, à l'endroit où l'élément de trajectoire a touché la bordure",
    "A template touching a border stops the dragon inside at the contact: -2 energy, speed 100.",
)
CRASH_HEADING = _rule(
    "crash.heading",
    BOOK,
    "Le dragon peut être tourné dans le sens souhaité.",
    "After a template crash the player turns its stopped dragon to the heading it wants, in place.",
)
COLLISION = _rule(
    "collision.mover",
    BOOK,
    "Le joueur ayant provoqué cet accident doit céder **un jeton Energie** et **diminuer sa vitesse de 100 VD**",
    "A mover whose template or dragon touches another dragon loses 1 energy and 100 of speed per dragon.",
)
STRUCK = _rule(
    "collision.struck",
    BOOK,
    "ce dragon doit être glissé en arrière le long de la ligne jaune",
    "The struck dragon goes back inside along the border at its height, or slides back until it touches nothing.",
)
DEBILITATUS = _rule(
    "debilitatus.take",
    BOOK,
    "Lorsqu'un joueur doit céder un jeton Energie mais qu'il n'en a plus, alors son dragon est exténué.",
    "A dragon owing energy it lacks takes a Debilitatus: back to its last energy field, speed 300, 2 energy, "
    "all magic cards discarded.",
)
DEBILITATUS_LIFT = _rule(
    "debilitatus.lift",
    BOOK,
    "La prochaine fois que le dragon de ce joueur touche un champ Energie, il peut rendre la carte « Debilitatus »",
    "The next energy field the dragon touches lifts its Debilitatus.",
)
ELIMINATION = _rule(
    "debilitatus.second",
    BOOK,
    "Dans le cas où un dragon exténué recevrait une seconde carte « Debilitatus », il serait éliminé de la partie.",
    "A second Debilitatus eliminates the dragon.",
)
NO_CARDS = _rule(
    "debilitatus.no-cards",
    BOOK,
    "Il ne peut pas en recevoir d'autres, tant que son dragon est exténué.",
    "An exhausted dragon draws no magic cards.",
)
LAID_ONLY = _rule(
    "magic.laid",
    BOOK,
    "Pour mettre une carte Magie en jeu, il faut impérativement qu'elle ait préalablement été posée "
    "à côté de l'indicateur de vitesse.",
    "Only the laid card can be played, at its time (before, instead of or after the move).",
)
UNPLAYED = _rule(
    "magic.unplayed",
    BOOK,
    "il ne peut pas la reprendre dans la main, mais il doit la déposer sur la pile de dépôt",
    "A laid card not played this round goes to the discard pile at the end of the movement phase.",
)
RANGE = _rule(
    "magic.range",
    BOOK,
    "La boule n'atteint pas l'adversaire si l'élément de trajectoire touche une des bordures du parcours.",
    "A range is a template from the front point touching the target's base without touching a border; "
    "it is measured after the target is named.",
)
FIREBALL = _rule(
    "magic.fireball",
    BOOK,
    "Chaque tête de dragon qui apparaît désigne le nombre de jetons Energie que celui qui est attaqué doit céder.",
    "A fireball in range rolls the two damage dice; each dragon head costs the target one energy.",
)
LASSO = _rule(
    "magic.lasso",
    BOOK,
    "Le dragon déplacé doit toutefois se retrouver devant le dragon qui l'a attiré à lui",
    "A lasso pulls a dragon within 600 ahead to the caster's height, just in front, touching no dragon.",
)
LASSO_HEADING = _rule(
    "magic.lasso.heading",
    BOOK,
    "Le joueur du dragon déplacé peut le faire pivoter à sa guise tout en le laissant à son nouvel emplacement.",
    "The lassoed dragon's own player turns it to the heading it wants, in place.",
)
ALLIANCE_TURN = _rule(
    "magic.alliance.turn",
    BOOK,
    "Cette carte est retournée dès qu’un dragon adverse doit être bougé",
    "A laid forced alliance is turned as a dragon ahead is about to move; it takes hold if that dragon is "
    "within 400 (measured once turned).",
)
ALLIANCE = _rule(
    "magic.alliance",
    BOOK,
    "Mais il doit se positionner derrière lui (sans heurter d’autres dragons).",
    "Once that dragon's turn is over, the holder's dragon joins just behind it instead of moving; its dial "
    "stays (the set speed goes back to the dial).",
)
ALLIANCE_HEADING = _rule(
    "magic.alliance.heading",
    BOOK,
    "Le dragon déplacé peut être tourné dans la direction souhaitée",
    "The dragon that joined by a forced alliance is turned by its player to the heading it wants, in place.",
)
MAGIC_TRAP = _rule(
    "magic.trap",
    BOOK,
    "il doit les poser de telle manière que les pièges touchent le bord de l’élément de trajectoire",
    "Three stock traps are laid against the template, not on fields, symbols or dragons.",
)
MAGIC_ENERGY = _rule(
    "magic.energy",
    BOOK,
    "Le joueur obtient alors un jeton Energie de la part d'un autre joueur à condition que celui-ci se trouve "
    "devant lui et qu'il soit atteignable avec un élément de trajectoire 600.",
    "Magic energy takes one energy from a dragon within 600 ahead.",
)
FORCE = _rule(
    "magic.force",
    BOOK,
    "Il peut alors choisir un élément de trajectoire d'une VD jusqu'à 300 plus élevée.",
    "Dragon force: a template up to 300 faster, the dial unchanged.",
)
COUNTER_WIND = _rule(
    "magic.counter-wind",
    BOOK,
    "Le vent contraire permet au joueur de réduire sa VD de 300 au maximum.",
    "Counter-wind: a template up to 300 slower, the dial unchanged.",
)
AMULET = _rule(
    "magic.amulet",
    BOOK,
    "Cette carte protège le joueur pendant toute une phase de déplacement et de magie contre les attaques adverses",
    "A laid amulet protects through the movement phase against fireball, trap, energy, alliance and lasso.",
)
RESOLUTION = _rule(
    "move.resolution",
    "platform",
    "whole degrees",
    "Turns and headings are whole degrees (or the heading as placed, kept): a hand turns no finer.",
)
TRAP_LAYOUTS = _rule(
    "magic.trap-layouts",
    "platform",
    "listed trap layouts",
    "Traps are laid at a listed layout: on a long edge at 20%, 50% or 80% of the template, or beyond its tip.",
)
END = _rule(
    "end.finish",
    BOOK,
    "Le jeu est terminé lorsqu'à la fin d'un tour (tous les joueurs ont effectué leur déplacement), "
    "au moins un dragon a passé la ligne d'arrivée.",
    "The race ends at the end of a round in which a dragon's front point crossed the finish line.",
)
RANKING = _rule(
    "end.ranking",
    BOOK,
    "La position des dragons des autres joueurs correspond à leur classement.",
    "The farthest dragon wins; the others rank by position; eliminated dragons rank last.",
)
LAST_DRAGON = _rule(
    "end.last-dragon",
    "platform",
    "last dragon flying",
    "When only one dragon is left in the race, the race ends and it wins.",
)
ROUND_LIMIT_RULE = _rule(
    "end.round-limit",
    "platform",
    "round limit",
    "A race still running after the round limit ends as if a dragon had crossed the line (safety stop).",
)

RULES: tuple[RuleRef, ...] = (
    START_ORDER,
    START_CARDS,
    START_PLACE,
    START_HAND,
    DECK,
    TRAP_STOCK,
    COURSE,
    ROUND,
    SET_SPEED,
    SPEED_CAP,
    LAY_CARD,
    MOVE_ORDER,
    REVEAL,
    NEXT_MOVER,
    TEMPLATE,
    LANDING,
    DIAL,
    SYMBOL,
    RESHUFFLE,
    HAND_LIMIT,
    FIELD,
    TRAP,
    ENERGY_LOST,
    CRASH_DRAGON,
    CRASH_TEMPLATE,
    COLLISION,
    STRUCK,
    DEBILITATUS,
    DEBILITATUS_LIFT,
    ELIMINATION,
    NO_CARDS,
    LAID_ONLY,
    UNPLAYED,
    RANGE,
    FIREBALL,
    LASSO,
    ALLIANCE,
    MAGIC_TRAP,
    TRAP_LAYOUTS,
    MAGIC_ENERGY,
    FORCE,
    COUNTER_WIND,
    AMULET,
    CRASH_HEADING,
    LASSO_HEADING,
    ALLIANCE_TURN,
    ALLIANCE_HEADING,
    RESOLUTION,
    END,
    RANKING,
    LAST_DRAGON,
    ROUND_LIMIT_RULE,
    LEAVING,
    TURN_ORDER,
    GAME_ENDED,
    MOVE_SHAPE,
)
