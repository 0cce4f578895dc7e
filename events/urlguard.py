"""Where a webhook may go: http(s) URLs whose host resolves only to public addresses.

A player chooses the URL and the server makes the request, so without this guard a webhook makes
the server POST to itself or into its private network (SSRF). The rules, applied when a URL is
registered and again at every delivery:

- only `http` and `https`, with a host, without a user name or password;
- the host is resolved and *every* address it gives must be allowed; the delivery then connects
  to the vetted address itself (webhooks.py), so a second lookup cannot answer otherwise (DNS
  rebinding);
- refused: loopback, private (RFC 1918, unique local), link-local, multicast, reserved and
  unspecified addresses, the shared space of carrier NAT (100.64.0.0/10): everything `ipaddress`
  does not call global; IPv4-mapped and IPv4-compatible IPv6 addresses; 6to4, Teredo and NAT64
  addresses that carry a refused IPv4 address;
- unless the operator's allow-list names the address or the host name:
  `ARENA_WEBHOOK_ALLOW=127.0.0.1/32,10.1.0.0/16,hooks.internal` (CIDRs, addresses or host names).

    target = check_url(url)          # Malformed: not a URL a webhook may have
    addresses = vet(target)          # Refused: an address not allowed; Unresolved: no address
"""
from __future__ import annotations

import ipaddress
import logging
import re
import socket
import string
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable
from urllib.parse import quote, urlsplit
from .settings import current

ALLOW_ENV = "ARENA_WEBHOOK_ALLOW"
DEFAULT_PORTS = {"http": 80, "https": 443}
MAX_URL_LENGTH = 2048
_HOST_NAME = re.compile(r"[a-z0-9_]([a-z0-9_.-]{0,251}[a-z0-9_])?\.?")
_NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))
_IPV4_COMPATIBLE = ipaddress.ip_network("::/96")
log = logging.getLogger(__name__)

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

# The resolver the guard asks; a hook for tests that need a name to answer differently each time.
resolver: Callable[..., list[Any]] = socket.getaddrinfo


class Malformed(ValueError):
    """Not a URL a webhook may have (scheme, host, port, credentials); the message says why."""


class Refused(ValueError):
    """The URL's host is, or resolves to, an address webhooks may not reach."""


class Unresolved(Refused):
    """The URL's host gives no address."""


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str           # lower case, IDNA-encoded, without the brackets of an IPv6 literal
    port: int
    path: str           # path and query as sent in the request line

    @property
    def tls(self) -> bool:
        return self.scheme == "https"


@dataclass(frozen=True)
class AllowList:
    """What the operator lets webhooks reach although the rules refuse it."""
    networks: tuple[Network, ...] = ()
    hosts: frozenset[str] = frozenset()

    @classmethod
    def configured(cls) -> AllowList:
        """ARENA_WEBHOOK_ALLOW, of the process's settings."""
        return _parsed_allow_list(current().webhook_allow)

    def allows_host(self, host: str) -> bool:
        return host.rstrip(".") in self.hosts

    def allows_address(self, address: Address) -> bool:
        return any(address.version == net.version and address in net for net in self.networks)


@lru_cache(maxsize=8)
def _parsed_allow_list(items: tuple[str, ...]) -> AllowList:
    networks, hosts = [], set()
    for item in (part.lower() for part in items):
        try:
            networks.append(ipaddress.ip_network(item.strip("[]"), strict=False))
        except ValueError:
            if _HOST_NAME.fullmatch(item):
                hosts.add(item.rstrip("."))
            else:
                log.warning("%s: ignoring %r, neither a CIDR, an address nor a host name", ALLOW_ENV, item)
    return AllowList(tuple(networks), frozenset(hosts))


def check_url(url: str) -> Target:
    """The parts of a webhook URL, or Malformed saying what is wrong with it."""
    if not isinstance(url, str) or not url:
        raise Malformed("a webhook URL is a non-empty string")
    if len(url) > MAX_URL_LENGTH:
        raise Malformed(f"a webhook URL has at most {MAX_URL_LENGTH} characters")
    if any(ch <= " " or ch == "\x7f" or 0xD800 <= ord(ch) <= 0xDFFF for ch in url):
        raise Malformed("a webhook URL may not hold spaces, control characters or lone surrogates")
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS:
        raise Malformed("a webhook URL must start with http:// or https://")
    if parts.username is not None or parts.password is not None:
        raise Malformed("a webhook URL may not carry a user name or password (the signature authenticates)")
    try:
        port = DEFAULT_PORTS[scheme] if parts.port is None else parts.port
    except ValueError:
        port = 0
    if not 0 < port < 65536:
        raise Malformed("the webhook URL's port is not a number from 1 to 65535")
    host = _host(parts.hostname or "")
    path = quote(parts.path or "/", safe=string.punctuation) + (f"?{quote(parts.query, safe=string.punctuation)}"
                                                                 if parts.query else "")
    return Target(scheme, host, port, path)


def _host(raw: str) -> str:
    if not raw:
        raise Malformed("the webhook URL has no host")
    if _literal(raw) is not None:
        return raw
    try:
        host = raw.encode("idna").decode("ascii").lower()
    except UnicodeError:
        raise Malformed("the webhook URL's host is not a valid host name") from None
    if not _HOST_NAME.fullmatch(host):
        raise Malformed("the webhook URL's host is not a valid host name")
    return host


def _literal(host: str) -> Address | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def vet(target: Target, allow: AllowList | None = None) -> list[str]:
    """The addresses to connect to (resolved now, each one allowed), or Refused / Unresolved."""
    allow = AllowList.configured() if allow is None else allow
    literal = _literal(target.host)
    addresses = [literal] if literal is not None else _resolve(target)
    if allow.allows_host(target.host):
        return [str(a) for a in addresses]
    for address in addresses:
        why = refusal(address)
        if why is not None and not allow.allows_address(address):
            raise Refused(f"{address} is {why}; webhooks may not reach it" if literal is not None
                          else "the webhook URL's host resolves to an address webhooks may not reach")
    return [str(a) for a in addresses]


def _resolve(target: Target) -> list[Address]:
    try:
        infos = resolver(target.host, target.port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise Unresolved("the webhook URL's host does not resolve") from None
    out: list[Address] = []
    for info in infos:
        address = ipaddress.ip_address(str(info[4][0]).split("%", 1)[0])
        if address not in out:
            out.append(address)
    if not out:
        raise Unresolved("the webhook URL's host does not resolve")
    return out


def refusal(address: Address) -> str | None:
    """Why webhooks may not reach `address` (a few words), or None when it is a public address."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return "an IPv4-mapped IPv6 address"
        if address in _IPV4_COMPATIBLE and address not in (ipaddress.IPv6Address("::"), ipaddress.IPv6Address("::1")):
            return "an IPv4-compatible IPv6 address"
        for inner in _embedded_ipv4(address):
            if refusal(inner) is not None:
                return "an IPv6 address carrying a refused IPv4 address"
    for why, refused in (("an unspecified address", address.is_unspecified),
                         ("a loopback address", address.is_loopback), ("a link-local address", address.is_link_local),
                         ("a multicast address", address.is_multicast), ("a private address", address.is_private),
                         ("a reserved address", address.is_reserved)):
        if refused:
            return why
    return None if address.is_global else "not a public address"


def _embedded_ipv4(address: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses a 6to4, Teredo or NAT64 address routes to."""
    inner = [address.sixtofour] if address.sixtofour is not None else []
    if address.teredo is not None:
        inner.extend(address.teredo)
    if any(address in net for net in _NAT64):
        inner.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    return inner
