"""Where webhooks may go: public addresses only, unless the operator allows a network.

Any registered player chooses a webhook URL, and the workers POST to it from inside
the deployment. Pointed at ``http://127.0.0.1:6379/`` (Redis), a database on the
private network or ``169.254.169.254`` (a cloud's metadata service), the workers
would send requests the player could never send themselves. So a URL must be
``http`` or ``https``, carry no credentials, and lead to a public address:

* ``PUT /me/webhook`` refuses (400) what the URL alone shows: another scheme,
  credentials, an address that is not public (in any form a resolver reads as an
  address: ``127.1``, ``2130706433``, ``[::ffff:127.0.0.1]``), ``localhost`` and
  names under ``.localhost`` (loopback by definition, RFC 6761). It does not look
  names up: a slow name server would hold the request, and the answer may change.
* Each delivery looks the name up, keeps the addresses that are allowed, refuses
  the delivery if none is, and connects to an address it checked, so a name that
  resolves elsewhere by then (DNS rebinding) reaches nothing it may not. Redirects
  are not followed: one could lead anywhere.

An address is public when Python's ``ipaddress`` calls it global and it is not
multicast; an IPv6 address that carries an IPv4 one (IPv4-mapped, IPv4-compatible
``::7f00:1``, 6to4, Teredo, NAT64 ``64:ff9b::/96``) is judged by that too, and the
local-use NAT64 prefix ``64:ff9b:1::/48`` is never public. ``DRAGONHALL_WEBHOOK_ALLOW_NETWORKS`` lists the networks an
operator allows besides (``10.20.0.0/16`` for a receiver on the intranet, say).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Sequence
from typing import Any
from urllib.parse import SplitResult, unquote, urlsplit

from services.common.errors import InvalidRequest

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

SCHEMES = {"http": 80, "https": 443}
LOOPBACK_NAMES = ("localhost",)
"""Names that are loopback by definition, with every name under them (RFC 6761, 6.3)."""
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_NAT64_LOCAL = ipaddress.IPv6Network("64:ff9b:1::/48")
"""Local-use NAT64 (RFC 8215): the IPv4 address may sit at several places, and the prefix is the
operator's own, so no address in it is public (Python's ``ipaddress`` calls it global)."""
_IPV4_COMPATIBLE = ipaddress.IPv6Network("::/96")
"""``::a.b.c.d``, deprecated (RFC 4291) but still read by some stacks as the IPv4 address."""
ALLOW_SETTING = "DRAGONHALL_WEBHOOK_ALLOW_NETWORKS"


class RefusedTarget(ValueError):
    """A webhook URL, or the addresses its name resolves to, that webhooks may not reach."""


class WebhookTargets:
    """Checks webhook URLs against the public internet and the networks the operator allows."""

    def __init__(self, allowed: Sequence[Network] = ()) -> None:
        self.allowed = tuple(allowed)

    def check(self, url: str) -> None:
        """``InvalidRequest`` (400, field ``url``) for a URL that can be seen to lead where
        webhooks may not go, before any name is looked up."""
        try:
            parts = _parts(url)
            host = _host(parts)
            literal = _literal(host)
            if literal is not None:
                self._refuse_unless_allowed(host, [literal])
            elif _is_loopback_name(host):
                self._refuse_unless_allowed(host, [ipaddress.ip_address("127.0.0.1"), ipaddress.ip_address("::1")])
        except RefusedTarget as e:
            raise InvalidRequest(str(e), field="url") from None

    def resolve(self, url: str) -> tuple[SplitResult, list[tuple[Any, ...]]]:
        """The URL's parts and the allowed addresses its host resolves to now, as
        ``getaddrinfo`` gives them (family, type, protocol, name, socket address).
        ``RefusedTarget`` if the URL may not be used or no address is allowed;
        ``socket.gaierror`` if the name does not resolve."""
        parts = _parts(url)
        host = _host(parts)
        found = socket.getaddrinfo(host, parts.port or SCHEMES[parts.scheme], type=socket.SOCK_STREAM)
        allowed = [info for info in found if self.allows(_address(info[4][0]))]
        if not allowed:
            self._refuse_unless_allowed(host, [_address(info[4][0]) for info in found])
        return parts, allowed

    def allows(self, address: Address) -> bool:
        """Whether webhooks may reach ``address``: a public one, or one in an allowed network."""
        if _not_public(address) is None:
            return True
        return any(
            a.version == net.version and a in net for a in {address, *_leads_to(address)} for net in self.allowed
        )

    def _refuse_unless_allowed(self, host: str, addresses: list[Address]) -> None:
        if not addresses:
            raise RefusedTarget(f"{host} resolves to no address")
        if any(self.allows(a) for a in addresses):
            return
        first = addresses[0]
        shown = host if host == str(first) else f"{host} ({first})"
        raise RefusedTarget(
            f"webhooks may not reach {shown}, {_not_public(first)}: only public addresses, "
            f"or networks the operator allows ({ALLOW_SETTING})"
        )


def parse_networks(value: str | None) -> tuple[Network, ...]:
    """The networks of ``DRAGONHALL_WEBHOOK_ALLOW_NETWORKS`` (comma-separated: ``10.0.0.0/8``,
    ``127.0.0.1``, ``fd00::/8``); a ``ValueError`` naming the setting for a bad one."""
    networks = []
    for item in (value or "").split(","):
        if item.strip():
            try:
                networks.append(ipaddress.ip_network(item.strip(), strict=False))
            except ValueError as e:
                raise ValueError(f"{ALLOW_SETTING}: {e}") from None
    return tuple(networks)


def _parts(url: str) -> SplitResult:
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port out of range
    except ValueError as e:
        raise RefusedTarget(f"not a usable URL: {e}") from None
    if parts.scheme not in SCHEMES:
        raise RefusedTarget("a webhook URL must be http or https")
    if parts.username is not None or parts.password is not None:
        raise RefusedTarget(
            "a webhook URL may not carry credentials (user:password@): each POST is "
            "signed instead (X-Dragonhall-Signature)"
        )
    if not parts.hostname:
        raise RefusedTarget("a webhook URL needs a host")
    if ":" in parts.hostname and _literal(_host(parts)) is None:
        raise RefusedTarget(f"not a usable URL: [{parts.hostname}] is no IPv6 address")
    return parts


def _host(parts: SplitResult) -> str:
    """The URL's host as a resolver takes it: an IPv6 zone is written ``%25`` in a URL (RFC 6874)."""
    return unquote(parts.hostname or "")


def _literal(host: str) -> Address | None:
    """The address ``host`` stands for if a resolver reads it as one (``127.1`` and
    ``2130706433`` are 127.0.0.1), without a look-up; None for a name."""
    try:
        found = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM, flags=socket.AI_NUMERICHOST)
    except (socket.gaierror, UnicodeError):
        return None
    return _address(found[0][4][0]) if found else None


def _address(text: str | int) -> Address:
    return ipaddress.ip_address(str(text).split("%", 1)[0])  # a zone (fe80::1%eth0) makes it no other address


def _is_loopback_name(host: str) -> bool:
    name = host.rstrip(".").lower()
    return any(name == n or name.endswith("." + n) for n in LOOPBACK_NAMES)


def _leads_to(address: Address) -> list[Address]:
    """The addresses that say where ``address`` leads: an IPv4-mapped IPv6 address is its IPv4
    address; an IPv4-compatible (``::7f00:1``), 6to4, Teredo (server and client) or NAT64 one is
    itself and the IPv4 addresses it carries. Each is judged (``_not_public``)."""
    if not isinstance(address, ipaddress.IPv6Address):
        return [address]
    if address.ipv4_mapped is not None:
        return [address.ipv4_mapped]
    carried: list[Address] = [address.sixtofour] if address.sixtofour is not None else []
    carried += list(address.teredo or ())
    low = ipaddress.IPv4Address(int(address) & 0xFFFF_FFFF)
    if address in _NAT64 or (address in _IPV4_COMPATIBLE and int(address) > 1):
        carried.append(low)
    return [address, *carried]


def _not_public(address: Address) -> str | None:
    """What ``address`` is ("a loopback address"...), unless it is a public one (None)."""
    if address in _NAT64_LOCAL:
        return "a local-use NAT64 address"
    for a in _leads_to(address):
        if not a.is_global or a.is_multicast:
            kinds = (
                ("a loopback", a.is_loopback),
                ("a link-local", a.is_link_local),
                ("a multicast", a.is_multicast),
                ("an unspecified", a.is_unspecified),
                ("a private", a.is_private),
            )
            return next((kind for kind, flag in kinds if flag), "a non-public") + " address"
    return None
