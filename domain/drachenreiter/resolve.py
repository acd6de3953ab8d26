"""From a flight to its events: crashes, collisions, fields, symbols, traps, energy.

Order (designed where the rulebook is silent, documented here): the dragon lands
(put back inside after a crash; after a template crash its player first turns it,
``Face``, and what it touches is counted from there); struck dragons go back
inside; the energy field gives its token and lifts a Debilitatus; traps are
flipped; then the energy owed is paid at once (rulebook: "il reçoit un jeton
Energie, mais il doit éventuellement en donner"), a dragon that cannot pay taking
a Debilitatus; the dial shows the speed, less the penalties; last, the mover
chooses how many of the cards its symbols offer it draws (``offer_draw``: "le
joueur peut tirer une carte Magie"), none while exhausted.
"""

from __future__ import annotations

from domain.drachenreiter import events as ev
from domain.drachenreiter import magic_events
from domain.drachenreiter.cards import ENERGY_LIMIT, Magic
from domain.drachenreiter.dimensions import SPEEDS
from domain.drachenreiter.flight import Flight, Touches, track_of
from domain.drachenreiter.placement import centre_progress, obstacles, settle
from domain.drachenreiter.state import Facing, Pose, RaceState
from domain.kernel import Emitter, Rng

CRASH_LOSS = {"template": 2, "dragon": 1}
"""Energy a crash costs (rulebook: "deux jetons" by the template, "un jeton" by the dragon)."""
CRASH_SPEED = 100
COLLISION_LOSS = 1
COLLISION_SLOWDOWN = 100


def shielded(state: RaceState, seat: int) -> bool:
    """Whether ``seat`` has an amulet laid (shown or not): it protects all phase long."""
    return state.dragons[seat].laid is Magic.AMULET


def shield(out: Emitter[RaceState], seat: int) -> bool:
    """Shows ``seat``'s amulet if it has one laid; True when it protects."""
    if not shielded(out.state, seat):
        return False
    if not out.state.dragons[seat].shown:
        out.emit(magic_events.AmuletShielded(seat))
    return True


def haven_pose(state: RaceState, seat: int) -> Pose:
    """Where an exhausted dragon restarts: on the last energy field it crossed (its
    start place if none), facing along the track, sliding back if it is taken.

    The field is taken on the lap it was crossed (``Dragon.haven_lap``), the start
    place on the first lap: the dragon's progress cannot tell the lap, as it may since
    have fallen back behind the field (its nose only touched it, it flew or was pushed
    back) or flown on for most of a lap without touching another field."""
    tr = track_of(state)
    d = state.dragons[seat]
    if d.haven >= 0:
        spot = tr.fields[d.haven]
        s, u = spot.s + d.haven_lap * tr.length, spot.u
    else:
        x, y, _ = tr.grid[d.place - 1]
        s = tr.progress(x, y, 0.0)
        u = tr.lateral(s, x, y)
    others = [o.pose for k, o in enumerate(state.dragons) if k != seat and not o.out]
    return settle(tr, s, u, None, obstacles(others), s) or d.pose


def exhaust(out: Emitter[RaceState], seat: int) -> None:
    """A dragon that must give energy it does not have: Debilitatus, or out on a second."""
    d = out.state.dragons[seat]
    cards = d.hand + ((d.laid,) if d.laid is not None else ())
    if d.exhausted:
        out.emit(ev.DragonEliminated(seat, cards))
        return
    out.emit(ev.Exhausted(seat, cards, haven_pose(out.state, seat)))


def lose(out: Emitter[RaceState], seat: int, amount: int, cause: str) -> None:
    """``seat`` gives ``amount`` energy; what it cannot give exhausts it."""
    if amount <= 0:
        return
    have = out.state.dragons[seat].energy
    if have:
        out.emit(ev.EnergyLost(seat, min(have, amount), cause))
    if amount > have:
        exhaust(out, seat)


def draw(out: Emitter[RaceState], seat: int, count: int, rng: Rng) -> None:
    """``seat`` draws ``count`` cards, the discard pile reshuffled when the pile runs out."""
    for _ in range(count):
        if not out.state.deck:
            if not out.state.discard:
                return
            out.emit(ev.DiscardReshuffled(rng.shuffle(out.state.discard)))
        out.emit(ev.CardsDrawn(seat, out.state.deck[:1]))


def settle_struck(out: Emitter[RaceState], mover: int, struck: int) -> None:
    """Puts a struck dragon back inside along the border at its height, or slides it back."""
    state = out.state
    tr = track_of(state)
    pose = state.dragons[struck].pose
    s = centre_progress(tr, pose)
    others = [d.pose for k, d in enumerate(state.dragons) if k != struck and not d.out]
    u = tr.lateral(s, pose.x, pose.y)
    spot = settle(tr, s, u, pose.heading, obstacles(others), pose.progress, border_first=True)
    spot = spot or settle(tr, s, u, None, obstacles(others), pose.progress, border_first=True) or pose
    out.emit(ev.DragonStruck(mover, struck, spot))


def resolve(out: Emitter[RaceState], seat: int, flight: Flight, dial: int) -> bool:
    """Emits the events of ``flight`` by ``seat`` whose dial was set to ``dial``; True when
    it stopped at a template crash and its player must now turn it (the rest follows
    ``Face``, by ``land``)."""
    f = flight
    if f.crash == "template":
        out.emit(ev.DragonFlew(seat, f.template, f.turn_in, f.turn_out, f.landing, -1))
        out.emit(ev.TemplateCrashed(seat, f.final))
        out.emit(ev.HeadingAwaited(seat, Facing.CRASH))
        return True
    out.emit(ev.DragonFlew(seat, f.template, f.turn_in, f.turn_out, f.landing, f.haven))
    if f.crash == "dragon":
        out.emit(ev.DragonCrashed(seat, f.final))
    land(out, seat, f.crash, f.touched, dial)
    return False


def land(out: Emitter[RaceState], seat: int, crash: str, touched: Touches, dial: int) -> None:
    """What the landed dragon's move touched: collisions, field, traps, energy, dial."""
    f = touched
    owed: list[tuple[int, str]] = []
    speed = dial
    if crash:
        owed.append((CRASH_LOSS[crash], f"{crash} crash"))
        speed = CRASH_SPEED
    for struck in f.struck:
        settle_struck(out, seat, struck)
        owed.append((COLLISION_LOSS, f"collision with seat {struck}"))
        speed = max(min(SPEEDS), speed - COLLISION_SLOWDOWN)
    me = out.state.dragons[seat]
    if f.fields:
        if me.energy < ENERGY_LIMIT and out.state.supply:
            out.emit(ev.EnergyGained(seat, 1))
        if me.exhausted:
            out.emit(ev.DebilitatusLifted(seat))
    values = {t.id: t.value for t in out.state.traps}
    for trap in f.traps:
        protected = shield(out, seat)
        out.emit(ev.TrapSprung(seat, trap, values[trap], protected))
        if not protected and values[trap]:
            owed.append((values[trap], f"trap {trap}"))
    before = out.state.dragons[seat]
    lose(out, seat, sum(a for a, _ in owed), ", ".join(c for _, c in owed))
    after = out.state.dragons[seat]
    if not after.out and after.exhausted == before.exhausted:
        out.emit(ev.SpeedDialled(seat, speed))


def offer_draw(out: Emitter[RaceState], seat: int, symbols: int) -> bool:
    """Offers the mover the cards of the ``symbols`` it touched (no more than the pile and
    the discard pile hold, none while exhausted); True when it must now choose."""
    me = out.state.dragons[seat]
    count = min(symbols, len(out.state.deck) + len(out.state.discard))
    if me.out or me.exhausted or count == 0:
        return False
    out.emit(ev.DrawOffered(seat, count))
    return True
