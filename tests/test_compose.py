"""`compose.yaml`: PostgreSQL, the webhook workers and the reverse proxy, wired as
docs/operations.md ("Running at scale") says. Docker Compose itself checks it where it is
installed (`docker compose config`); everywhere the file is read here and held to the bot's
settings."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

from bot.webapp.streams import KEEP_ALIVE_SECONDS

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
ENV = {
    "BOT_TOKEN": "123:abc",
    "POSTGRES_PASSWORD": "secret",
    "WEBHOOK_URL": "https://bot.example.com/telegram",
    "WEBHOOK_SECRET": "s3cret",
    "PUBLIC_HOST": "bot.example.com",
}


def test_the_workers_run_the_deployment_command_on_the_compose_database() -> None:
    services = COMPOSE["services"]
    assert set(services) == {"db", "bot", "proxy"}
    bot = services["bot"]
    assert bot["command"] == ["python", "-m", "bot", "telegram"]
    assert bot["deploy"]["replicas"] >= 2
    documented = set(re.findall(r"^#? ?([A-Z_]+)=", (ROOT / ".env.example").read_text(), re.M))
    assert set(bot["environment"]) <= documented
    url = urlsplit(bot["environment"]["DATABASE_URL"])
    assert url.scheme == "postgresql" and url.hostname == "db" and url.path == "/kozel"
    assert bot["depends_on"]["db"]["condition"] == "service_healthy"
    assert "/healthz" in " ".join(bot["healthcheck"]["test"])


def test_the_proxy_spreads_requests_over_every_worker() -> None:
    proxy = COMPOSE["services"]["proxy"]
    (mount,) = (v for v in proxy["volumes"] if v.endswith(":/etc/caddy/Caddyfile:ro"))
    caddyfile = (ROOT / mount.split(":")[0]).read_text(encoding="utf-8")
    port = COMPOSE["services"]["bot"]["environment"]["WEBHOOK_PORT"]
    assert "name bot" in caddyfile and f"port {port}" in caddyfile
    assert "lb_policy round_robin" in caddyfile and "health_uri /healthz" in caddyfile


def test_the_proxy_keeps_the_table_apps_streams_open() -> None:
    caddyfile = (ROOT / "deploy" / "Caddyfile").read_text(encoding="utf-8")
    route = caddyfile.split("handle @table_app")[1].split("handle {")[0]
    port = COMPOSE["services"]["bot"]["environment"]["WEBAPP_PORT"]
    assert "@table_app path /app /app/* /api/*" in caddyfile and f"port {port}" in route
    assert "flush_interval -1" in route  # each event at once
    (timeout,) = re.findall(r"read_timeout (\d+)s", route)
    assert int(timeout) > KEEP_ALIVE_SECONDS  # a quiet stream's comment comes before it


def _compose() -> list[str] | None:
    for command in (["docker", "compose"], ["docker-compose"]):
        if shutil.which(command[0]) is None:
            continue
        found = subprocess.run([*command, "version"], capture_output=True, check=False)
        if found.returncode == 0:
            return command
    return None


def test_docker_compose_accepts_the_file() -> None:
    command = _compose()
    if command is None:
        reason = "Docker Compose is not installed here (apt-get install docker-compose)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)  # .ci/run installs it
        pytest.skip(reason)
    done = subprocess.run(
        [*command, "-f", str(ROOT / "compose.yaml"), "config", "-q"],
        env={**os.environ, **ENV},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
