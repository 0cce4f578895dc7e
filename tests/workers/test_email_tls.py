"""E-mail over TLS against a real aiosmtpd server holding a certificate made here (cryptography):
smtps:// (TLS from the first byte) and STARTTLS (smtp+starttls:// or smtp://...?starttls=1),
the certificate verified by default, ARENA_SMTP_CA_FILE to trust a CA of one's own, and no
fallback to plain text when STARTTLS is asked for but not offered."""
from __future__ import annotations

import datetime
import ipaddress
import smtplib
import ssl
from email.message import EmailMessage

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from events.redis_process import free_port
from events.settings import Settings
from workers import email as mail

from .test_email import Inbox, Person, mails_to, table_game
from .helpers import run_worker


def _name(text: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, text)])


@pytest.fixture(scope="module")
def certificates(tmp_path_factory):
    """A CA and a server certificate for 127.0.0.1 signed by it: (ca.pem, cert.pem, key.pem)."""
    folder = tmp_path_factory.mktemp("tls")
    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca = (x509.CertificateBuilder().subject_name(_name("Arena test CA")).issuer_name(_name("Arena test CA"))
          .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
          .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                                       content_commitment=False, key_encipherment=False, data_encipherment=False,
                                       key_agreement=False, encipher_only=False, decipher_only=False), critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
          .sign(ca_key, hashes.SHA256()))
    cert = (x509.CertificateBuilder().subject_name(_name("127.0.0.1")).issuer_name(ca.subject)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
            .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .sign(ca_key, hashes.SHA256()))
    paths = folder / "ca.pem", folder / "cert.pem", folder / "key.pem"
    paths[0].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths[1].write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    paths[2].write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return paths


class TlsInbox(Inbox):
    """Records, with each message, whether its session was encrypted and who logged in."""

    def __init__(self) -> None:
        super().__init__()
        self.sessions: list[tuple[bool, str | None]] = []
        self.logins: dict[int, str] = {}

    def login(self, server, session, envelope, mechanism, auth_data):
        ok = auth_data.login == b"arena" and auth_data.password == b"s3cret"
        if ok:
            self.logins[id(session)] = auth_data.login.decode()
        return AuthResult(success=ok, handled=False)

    async def handle_DATA(self, server, session, envelope):
        encrypted = server.transport.get_extra_info("ssl_object") is not None
        self.sessions.append((encrypted, self.logins.get(id(session))))
        return await super().handle_DATA(server, session, envelope)


def _server_context(certificates) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(certificates[1], certificates[2])
    return context


@pytest.fixture
def implicit_tls(certificates):
    inbox = TlsInbox()
    # aiosmtpd offers AUTH "after TLS" only after STARTTLS; here the whole connection is TLS
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port(), ssl_context=_server_context(certificates),
                            authenticator=inbox.login, auth_require_tls=False)
    controller.start()
    yield inbox, controller.port
    controller.stop()


@pytest.fixture
def starttls(certificates):
    inbox = TlsInbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port(), tls_context=_server_context(certificates),
                            require_starttls=True, authenticator=inbox.login, auth_require_tls=True)
    controller.start()
    yield inbox, controller.port
    controller.stop()


def _message(to: str = "tls@example.test") -> EmailMessage:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "arena@localhost", to, "over TLS"
    message.set_content("hello")
    return message


def test_smtps_delivers_over_tls_with_the_trusted_ca(implicit_tls, certificates):
    inbox, port = implicit_tls
    mail.send(Settings(smtp_url=f"smtps://arena:s3cret@127.0.0.1:{port}", smtp_ca_file=str(certificates[0])), _message())
    assert inbox.sessions == [(True, "arena")] and inbox.messages[0]["Subject"] == "over TLS"


@pytest.mark.parametrize("form", ["smtp://arena:s3cret@127.0.0.1:{port}?starttls=1",
                                  "smtp+starttls://arena:s3cret@127.0.0.1:{port}"])
def test_starttls_upgrades_before_logging_in(starttls, certificates, form):
    inbox, port = starttls
    mail.send(Settings(smtp_url=form.format(port=port), smtp_ca_file=str(certificates[0])), _message())
    assert inbox.sessions == [(True, "arena")]


def test_certificates_are_verified_by_default(implicit_tls, starttls, monkeypatch):
    monkeypatch.delenv("ARENA_SMTP_CA_FILE", raising=False)
    for url in (f"smtps://127.0.0.1:{implicit_tls[1]}", f"smtp://127.0.0.1:{starttls[1]}?starttls=1"):
        with pytest.raises(ssl.SSLCertVerificationError):
            mail.send(Settings(smtp_url=url), _message())
    assert implicit_tls[0].messages == [] and starttls[0].messages == []


def test_starttls_asked_for_but_not_offered_sends_nothing_in_plain_text():
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        with pytest.raises(smtplib.SMTPNotSupportedError):
            mail.send(Settings(smtp_url=f"smtp://127.0.0.1:{controller.port}?starttls=1"), _message())
    finally:
        controller.stop()
    assert inbox.messages == []


def test_a_your_turn_mail_goes_through_the_queue_over_smtps(app, redis_db, implicit_tls, certificates, monkeypatch):
    inbox, port = implicit_tls
    monkeypatch.setenv("ARENA_SMTP_CA_FILE", str(certificates[0]))
    monkeypatch.setenv("ARENA_SMTP_URL", f"smtps://arena:s3cret@127.0.0.1:{port}")
    monkeypatch.setenv("ARENA_EMAIL_RETRIES", "0")
    ann, bob = Person(app, "ann-tls@example.test"), Person(app, "bob-tls@example.test")
    game_id = table_game(ann, bob)
    run_worker(redis_db)
    [turn] = mails_to(inbox, "ann-tls@example.test") + mails_to(inbox, "bob-tls@example.test")
    # every session (the turn mail's, and the two addresses' confirmations) over TLS, signed in
    assert game_id in turn["Subject"] and set(inbox.sessions) == {(True, "arena")} and len(inbox.sessions) == 3
