"""The one configuration (events/settings.py): the README's table lists exactly the settings the
object reads, values are parsed and checked with messages that name the variable, a TOML file
named by ARENA_CONFIG sits under the environment, and a renamed variable still works, with one
warning per process."""
from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

import server  # noqa: F401 - every view declares its rate limits on import
from events import settings
from events.settings import RATE_LIMIT_PREFIX, Settings, SettingsError
from server.limits import RATE_LIMITS

README = Path(__file__).resolve().parents[1] / "README.md"


def readme_variables() -> set[str]:
    """Every variable the rows of the README's Configuration table name."""
    section = README.read_text().split("\n## Configuration\n", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1] for line in section.splitlines() if line.startswith("| `")]
    return {name for cell in rows for name in re.findall(r"`([A-Z_]+)`", cell)}


def test_the_readme_lists_every_setting_and_only_those():
    declared = {name for name in settings.variables() if not name.startswith(RATE_LIMIT_PREFIX)}
    declared |= set(RATE_LIMITS) | {settings.CONFIG_FILE_ENV}
    listed = readme_variables()
    assert sorted(declared - listed) == [], "settings missing from the README's table"
    assert sorted(listed - declared) == [], "README rows that no setting reads"
    assert not listed & set(settings.DEPRECATED), "a deprecated name is listed as a setting"


def test_values_are_parsed_by_type_and_refused_with_the_variable_named():
    read = Settings.from_mapping({"ARENA_RATE_LIMITS": "off", "ARENA_WEBHOOK_RETRIES": "5, 50", "ARENA_WAIT_MS": "250",
                                  "ARENA_PUBLIC_URL": "https://arena.example/", "ARENA_LIMIT_CHAT_PLAYER": "1/minute",
                                  "ARENA_TRUSTED_KEYS": "a.pem,,b.pem"})
    assert (read.rate_limits_on, read.webhook_retries, read.wait_ms) == (False, (5, 50), 250)
    assert read.public_url == "https://arena.example" and read.trusted_keys == ("a.pem", "b.pem")
    assert dict(read.rate_limits) == {"ARENA_LIMIT_CHAT_PLAYER": "1/minute"}
    assert Settings.from_mapping({"ARENA_WAIT_MS": ""}).wait_ms == 1000           # empty: the default
    for variable, value, message in [("ARENA_WAIT_MS", "soon", "ARENA_WAIT_MS must be a whole number, not 'soon'"),
                                     ("ARENA_SECURE_COOKIES", "maybe", "ARENA_SECURE_COOKIES must be 1 or 0"),
                                     ("ARENA_HEARTBEAT_SECONDS", "0", "ARENA_HEARTBEAT_SECONDS must be a positive"),
                                     ("ARENA_WAIT_REPLICAS", "-1", "ARENA_WAIT_REPLICAS must be at least 0"),
                                     ("ARENA_WEBHOOK_RETRIES", "10,x", "ARENA_WEBHOOK_RETRIES must be a comma")]:
        with pytest.raises(SettingsError, match=re.escape(message)):
            Settings.from_mapping({variable: value})


def test_a_toml_file_sits_under_the_environment(tmp_path):
    config = tmp_path / "arena.toml"
    config.write_text('ARENA_WAIT_MS = 300\nARENA_QUEUE = "games"\nARENA_WEBHOOK_RETRIES = [1, 2]\n'
                      'ARENA_RATE_LIMITS = false\n')
    read = Settings.load({"ARENA_CONFIG": str(config), "ARENA_QUEUE": "from-env"})
    assert (read.wait_ms, read.queue, read.webhook_retries, read.rate_limits_on) == (300, "from-env", (1, 2), False)
    config.write_text("ARENA_WAIT_MSS = 300\n")
    with pytest.raises(SettingsError, match="no such setting ARENA_WAIT_MSS"):
        Settings.load({"ARENA_CONFIG": str(config)})


def test_a_renamed_variable_still_works_and_warns_once_per_process(caplog, monkeypatch):
    monkeypatch.setattr(settings, "_warned", set())
    with caplog.at_level(logging.WARNING, logger="arena.settings"):
        for _ in range(3):
            read = Settings.from_mapping({"ARENA_MAX_BODY_BYTES": "4096", "ARENA_FORWARDED_ALLOW_IPS": "10.0.0.2"})
            assert (read.max_import_body, read.proxy_hops) == (4096, 1)
    warned = [r.getMessage() for r in caplog.records]
    assert len(warned) == 2 and all("is deprecated" in w for w in warned)
    assert "set ARENA_MAX_IMPORT_BODY instead" in warned[0] and "set ARENA_PROXY_HOPS instead" in warned[1]
    both = Settings.from_mapping({"ARENA_MAX_BODY_BYTES": "4096", "ARENA_MAX_IMPORT_BODY": "8192"})
    assert both.max_import_body == 8192                                          # the new name wins


def test_an_app_takes_its_settings_and_names_an_unknown_rate_limit(redis_server):
    from server import create_app
    app = create_app({"REDIS_URL": redis_server.url, "ARENA_MAX_BODY": 1000},
                     settings=Settings.from_mapping({"ARENA_MAX_OPEN_TABLES": "7"}))
    assert (app.extensions["arena"].settings.max_body, app.extensions["arena"].settings.max_open_tables) == (1000, 7)
    with pytest.raises(SettingsError, match="no such rate limit: ARENA_LIMIT_CHATT_PLAYER"):
        create_app({"REDIS_URL": redis_server.url, "ARENA_LIMIT_CHATT_PLAYER": "1/minute"})


def test_the_front_trusts_as_many_proxies_as_the_flask_app_does():
    """ARENA_PROXY_HOPS, the one name for both: the front reads X-Forwarded-For and -Proto as
    werkzeug's ProxyFix does under plain WSGI (the hops-th value from the right)."""
    from werkzeug.middleware.proxy_fix import ProxyFix
    from werkzeug.test import EnvironBuilder

    from server.streams.proxies import behind_proxies
    headers = {"X-Forwarded-For": "203.0.113.9, 198.51.100.7", "X-Forwarded-Proto": "https"}
    scope = {"type": "http", "client": ("10.0.0.2", 5000), "scheme": "http",
             "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()]}
    for hops in (1, 2, 3):
        seen = {}
        ProxyFix(lambda environ, start: seen.update(environ) or [], x_for=hops, x_proto=hops)(
            EnvironBuilder(headers=headers, environ_base={"REMOTE_ADDR": "10.0.0.2"}).get_environ(), None)
        front = behind_proxies(scope, hops)
        assert (front["client"][0], front["scheme"]) == (seen["REMOTE_ADDR"], seen["wsgi.url_scheme"]), hops
