"""The playground's web page: a group and your private chat with the bot, live.

Served next to the local Bot API on the same aiohttp application:

* `GET /` the page, `GET /static/NAME` its script, style and icon (package data; the
  icon is `GET /favicon.ico` too);
* `GET /events?user=NAME` Server-Sent Events: a snapshot of what NAME sees (the group,
  their private chat, the command menus), then every new, edited and deleted message of
  those chats, the bot's answers to NAME's presses (toasts and alerts) and the Telegram
  rules the bot broke (a red banner);
* `POST /api/send`, `POST /api/press`, `POST /api/link` what a person does: write, press
  a button, follow a link (a `t.me` link to the bot opens the private chat with
  `/start PAYLOAD`, as Telegram's client does; a direct link to one of its Mini Apps
  opens the app in a frame of the page, `world.apps`, with the stand-in for Telegram's
  `telegram-web-app.js`);
* `GET /photo/CHAT/MESSAGE` a message's picture, `GET /media/CHAT/MESSAGE` its animation
  or document (a document as a download); `GET /api/users` who is here.

A person is a name (`?user=NAME`): the first visit makes the user and adds them to the
group, so two tabs, or friends on the network, play each other. All but the page and its
files refuse (403) a request another site's page makes (`cross_site`): only the page's
own requests act.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from aiohttp import web
from aiohttp.typedefs import Handler

from bot.playground import Change, Chat, FakeTelegram, Message, User
from bot.playground.api.http import cross_site
from bot.playground.web.media import Media
from bot.playground.world.view import service_text

log = logging.getLogger(__name__)

STATIC = resources.files("bot.playground.web") / "static"
PAGES = {
    "app.js": "text/javascript",
    "style.css": "text/css",
    "favicon.svg": "image/svg+xml",
    "viewer.js": "text/javascript",  # the record viewer (its routes: bot/playground/viewer.py)
    "viewer.css": "text/css",
    "apps.js": "text/javascript",  # a Mini App's frame, and the stand-in for Telegram's script:
    "telegram-web-app.js": "text/javascript",
}
HISTORY = 200  # messages of a chat in a snapshot
QUEUE = 1000  # events a page may fall behind before it is made to reconnect
PING_SECONDS = 15.0
NAME_LENGTH = 32
FIRST_USER = "Аня"


@dataclass(eq=False)
class Viewer:
    """One open page: whose eyes it is, and what is still to be pushed to it."""

    user: User
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=lambda: asyncio.Queue(QUEUE))

    def push(self, event: dict[str, Any]) -> None:
        try:
            self.queue.put_nowait(event)
        except asyncio.QueueFull:  # far behind: it reconnects and gets a fresh snapshot
            self.queue = asyncio.Queue(QUEUE)
            self.queue.put_nowait({"type": "reload"})


class Front:
    """The web front of one playground: its group, its people and their open pages."""

    def __init__(self, fake: FakeTelegram, group_title: str, language: str = "ru") -> None:
        self.fake = fake
        self.language = language
        self.people: dict[str, User] = {}
        self.viewers: set[Viewer] = set()
        self.run = secrets.token_hex(4)  # in picture addresses: ids start anew every run
        self.group: Chat = fake.add_group(group_title, [self._make(FIRST_USER)])
        fake.listen(self._changed)

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/", self._page)
        app.router.add_get("/static/{name}", self._static)
        app.router.add_get("/favicon.ico", self._icon)  # for a browser that asks anyway
        app.router.add_get("/events", own(self._events))
        app.router.add_get("/api/users", own(self._users))
        app.router.add_post("/api/send", own(self._send))
        app.router.add_post("/api/press", own(self._press))
        app.router.add_post("/api/link", own(self._link))
        media = Media(self.fake)
        app.router.add_get("/photo/{chat}/{message}", own(media.photo))
        app.router.add_get("/media/{chat}/{message}", own(media.file))

    # -- people ----------------------------------------------------------------------------

    def person(self, name: str) -> User:
        """The user called `name`, made on their first visit and added to the group."""
        user = self.people.get(_name(name))
        if user is None:
            user = self._make(name)
            self.fake.user_joins(self.group, user)
        return user

    def _make(self, name: str) -> User:
        user = self.fake.add_user(_name(name), language_code=self.language)
        self.people[user.name] = user
        return user

    def _visitor(self, request: web.Request) -> User:
        """Who opens the page (`?user=NAME`): made on their first visit."""
        return self.person(request.query.get("user") or FIRST_USER)

    def _actor(self, body: dict[str, Any]) -> User | None:
        """Who acts in a POST: someone whose page is open (or was), else None."""
        name = body.get("user")
        return self.people.get(_name(name)) if isinstance(name, str) else None

    # -- what a page shows -----------------------------------------------------------------

    def _where(self, chat: Chat, user: User) -> str | None:
        """Which of `user`'s two panes `chat` is, if either."""
        if chat.id == self.group.id:
            return "group"
        return "private" if chat.id == user.id else None

    def _message(self, message: Message) -> dict[str, Any]:
        sender = message.sender
        photo = message.photo
        entities = message.entities if message.text is not None else message.caption_entities
        return {
            "id": message.message_id,
            "sender": self.fake.bot_name if sender is None else sender.name,
            "sender_id": None if sender is None else sender.id,
            "text": message.content,
            "entities": entities,
            "photo": None
            if photo is None
            else {
                "src": f"/photo/{message.chat.id}/{message.message_id}"
                f"?v={self.run}-{photo.file_id}",
                "width": photo.width,
                "height": photo.height,
            },
            "file": self._file(message),
            "buttons": [
                [
                    {"text": b["text"], "url": b.get("url"), "data": b.get("callback_data")}
                    for b in row
                ]
                for row in message.reply_markup or []
            ],
            "edited": message.edited,
            "service": service_text(message),
            "deleted": message.deleted,
            "reply_to": None if message.reply_to is None else message.reply_to.message_id,
            "date": message.date,
        }

    def _file(self, message: Message) -> dict[str, Any] | None:
        """A message's animation or document as the page shows it (None: it has none)."""
        file = message.file
        if file is None:
            return None
        return {
            "kind": file.kind,
            "src": f"/media/{message.chat.id}/{message.message_id}?v={self.run}-{file.file_id}",
            "mime": file.mime_type,
            "name": file.file_name,
            "size": file.file_size,
            "width": file.width,
            "height": file.height,
        }

    def _chat(self, chat: Chat, user: User) -> dict[str, Any]:
        shown = [m for m in chat.messages.values() if not m.deleted][-HISTORY:]
        return {
            "id": chat.id,
            "title": chat.title if chat.is_group else self.fake.bot_name,
            "messages": [self._message(m) for m in shown],
            "commands": self.fake.commands_for(user, chat),
        }

    def snapshot(self, user: User) -> dict[str, Any]:
        return {
            "type": "snapshot",
            "me": {"id": user.id, "name": user.name, "started": user.started},
            "bot": {"name": self.fake.bot_name, "username": self.fake.bot_username},
            "flood": self.fake.flood,
            "language": self.language,
            "group": self._chat(self.group, user),
            "private": self._chat(self.fake.private(user), user),
        }

    def _changed(self, change: Change) -> None:
        """A listener of the fake: push what changed to the pages that show it."""
        if change.kind == "message" and change.chat_id is not None:
            chat = self.fake.chats.get(change.chat_id)
            message = None if chat is None else chat.messages.get(change.message_id or 0)
            if chat is None or message is None:
                return
            shown = self._message(message)
            for viewer in self.viewers:
                pane = self._where(chat, viewer.user)
                if pane is not None:
                    viewer.push({"type": "message", "chat": pane, "message": shown})
        elif change.kind == "answer":
            pressed = self.fake.chats.get(change.chat_id or 0)
            for viewer in self.viewers:
                if viewer.user.id == change.detail.get("user_id"):
                    pane = None if pressed is None else self._where(pressed, viewer.user)
                    viewer.push({"type": "answer", "chat": pane, **change.detail})
        elif change.kind == "violation":
            log.warning("the bot broke a Telegram rule: %s", change.detail)
            for viewer in self.viewers:
                viewer.push({"type": "violation", **change.detail})
        elif change.kind == "commands":
            for viewer in self.viewers:
                viewer.push(
                    {
                        "type": "commands",
                        "group": self.fake.commands_for(viewer.user, self.group),
                        "private": self.fake.commands_for(viewer.user, viewer.user.id),
                    }
                )

    # -- routes ----------------------------------------------------------------------------

    async def _page(self, request: web.Request) -> web.Response:
        html = (STATIC / "index.html").read_text(encoding="utf-8")
        return web.Response(text=html, content_type="text/html")

    async def _static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in PAGES:
            raise web.HTTPNotFound()
        text = (STATIC / name).read_text(encoding="utf-8")
        return web.Response(text=text, content_type=PAGES[name])

    async def _icon(self, request: web.Request) -> web.Response:
        text = (STATIC / "favicon.svg").read_text(encoding="utf-8")
        return web.Response(text=text, content_type=PAGES["favicon.svg"])

    async def _users(self, request: web.Request) -> web.Response:
        return web.json_response({"users": sorted(self.people)})

    async def _events(self, request: web.Request) -> web.StreamResponse:
        viewer = Viewer(self._visitor(request))
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
        )
        await response.prepare(request)
        self.viewers.add(viewer)
        try:
            await _event(response, self.snapshot(viewer.user))
            while True:
                try:
                    event = await asyncio.wait_for(viewer.queue.get(), PING_SECONDS)
                except TimeoutError:
                    await response.write(b": ping\n\n")
                    continue
                await _event(response, event)
                if event["type"] == "reload":
                    break
        except (ConnectionResetError, ConnectionError):
            pass  # the page was closed
        finally:
            self.viewers.discard(viewer)
        return response

    async def _send(self, request: web.Request) -> web.Response:
        body, user = await self._posted(request)
        if user is None:
            return _refused("open the page as that user first (?user=NAME)")
        text = body.get("text")
        if not isinstance(text, str) or not text.strip():
            return _refused("nothing to send")
        chat = self.group if body.get("chat") == "group" else self.fake.private(user)
        try:
            self.fake.user_sends(user, chat, text.strip())
        except ValueError as error:
            return _refused(str(error))
        return web.json_response({"ok": True, "started": user.started})

    async def _press(self, request: web.Request) -> web.Response:
        body, user = await self._posted(request)
        if user is None:
            return _refused("open the page as that user first (?user=NAME)")
        try:
            chat = self.fake.chats[int(body["chat_id"])]
            message = chat.messages[int(body["message_id"])]
            button = (message.reply_markup or [])[int(body["row"])][int(body["column"])]
        except (KeyError, IndexError, TypeError, ValueError):
            return _refused("that button is gone")
        if self._where(chat, user) is None:
            return _refused("not your chat")
        shown = (body.get("text"), body.get("data"))
        if shown != (button["text"], button.get("callback_data")):  # an older keyboard
            return _refused("that keyboard has just changed: press again")
        try:
            if "callback_data" in button:
                self.fake.user_presses(user, message, str(button["callback_data"]))
                return web.json_response({"ok": True})
            return self._open(user, str(button.get("url") or ""), chat)
        except (LookupError, ValueError) as error:
            return _refused(str(error))

    async def _link(self, request: web.Request) -> web.Response:
        """A link in a message's text: one to the bot opens the private chat."""
        body, user = await self._posted(request)
        if user is None:
            return _refused("open the page as that user first (?user=NAME)")
        chat = self.group if body.get("chat") == "group" else self.fake.private(user)
        return self._open(user, str(body.get("url") or ""), chat)

    def _open(self, user: User, url: str, chat: Chat) -> web.Response:
        """Open `url` as Telegram's client does: a t.me link to the bot sends
        `/start PAYLOAD` in the private chat, a direct link to its app opens the app (from
        `chat`); any other link is the page's to open."""
        try:
            app = self.fake.open_app(user, url, chat)
            if app is not None:
                return web.json_response(
                    {"ok": True, "app": {"url": app.frame, "title": app.title}}
                )
            self.fake.follow_link(user, url)
        except NotImplementedError:  # «add to a group»: only «Двор» is simulated
            return _refused("only this one group is simulated here")
        except LookupError as error:  # an app the bot does not have
            return _refused(str(error))
        except ValueError:  # not a link to this bot
            return web.json_response({"ok": True, "url": url})
        return web.json_response({"ok": True, "opened": "private"})

    async def _posted(self, request: web.Request) -> tuple[dict[str, Any], User | None]:
        """A POST's JSON body and who acts. Only `application/json` is read: another site
        in the person's browser cannot send that without asking first (CORS)."""
        if request.content_type != "application/json":
            return {}, None
        try:
            body = await request.json()
        except (ValueError, UnicodeDecodeError):
            return {}, None
        if not isinstance(body, dict):
            return {}, None
        return body, self._actor(body)


def own(handler: Handler) -> Handler:
    """`handler` for the page's own requests: one another site's page makes is refused."""

    async def guarded(request: web.Request) -> web.StreamResponse:
        if cross_site(request):
            return web.json_response({"ok": False, "error": "cross-site request"}, status=403)
        return await handler(request)

    return guarded


def _name(typed: str) -> str:
    """A person's name as typed in the address: spaces folded, at most `NAME_LENGTH`."""
    return " ".join(typed.split())[:NAME_LENGTH] or FIRST_USER


async def _event(response: web.StreamResponse, event: dict[str, Any]) -> None:
    data = json.dumps(event, ensure_ascii=False)
    await response.write(f"data: {data}\n\n".encode())


def _refused(why: str) -> web.Response:
    return web.json_response({"ok": False, "error": why}, status=400)
