"""The world as a test sets it up: users, groups, topics, the bot's place in a group,
upgrades to supergroups, old messages, and faults of the network (`fail`, `slow`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.playground.api.errors import Fault
from bot.playground.world.models import Chat, Topic, User
from bot.playground.world.state import MessageRef, World


@dataclass(frozen=True, kw_only=True, slots=True)
class Supergroup:
    """A new group made a supergroup, with what only a supergroup has: topics (`forum`)
    and a public `username`."""

    forum: bool = False
    username: str | None = None


class Building(World):
    """Changes to the world that no user types: it is so, from now on."""

    def fail(
        self,
        methods: str,
        *,
        seconds: float | None = None,
        times: int | None = None,
        code: int = 502,
        description: str = "Bad Gateway",
        retry_after: int | None = None,
    ) -> None:
        """Calls of `methods` (space-separated) fail with `code` for `seconds` of the fake's
        clock or for `times` calls (a 429 with `retry_after`)."""
        until = None if seconds is None else self.now() + seconds
        for method in methods.lower().split():
            self.faults[method] = Fault(
                code=code,
                description=description,
                retry_after=retry_after,
                delay=0.0,
                times=times,
                until=until,
            )

    def slow(self, methods: str, delay: float, *, times: int | None = None) -> None:
        """Calls of `methods` are answered only after `delay` seconds (`times` of them)."""
        for method in methods.lower().split():
            self.faults[method] = Fault(
                code=0, description="", retry_after=None, delay=delay, times=times, until=None
            )

    def add_user(
        self,
        first_name: str,
        username: str | None = None,
        *,
        language_code: str | None = "ru",
        last_name: str | None = None,
        user_id: int | None = None,
    ) -> User:
        """A user (with a private chat with the bot that they have not started yet)."""
        if user_id is None:
            user_id = self._next_user_id
            self._next_user_id += 1
        if user_id in self.users or user_id == self.bot_id:
            raise ValueError(f"user id {user_id} is taken")
        user = User(user_id, first_name, username, language_code, last_name)
        self.users[user_id] = user
        self.chats[user_id] = Chat(id=user_id, type="private", user=user)
        return user

    def add_group(
        self,
        title: str,
        members: Iterable[User],
        *,
        supergroup: Supergroup | None = None,
        creator: User | None = None,
        admins: Iterable[User] = (),
        bot_admin: bool = False,
        with_bot: bool = True,
    ) -> Chat:
        """A group that already exists, with the bot in it (no updates are sent).

        `creator` defaults to the first member; `supergroup` makes it one (a forum with
        `Supergroup(forum=True)`).
        """
        people = list(members)
        number = self._next_group
        self._next_group += 1
        if supergroup is None:
            chat = Chat(id=-(4_000_000_000 + number), type="group", title=title)
        else:
            chat = Chat(
                id=-(1_002_000_000_000 + number),
                type="supergroup",
                title=title,
                username=supergroup.username,
                forum=supergroup.forum,
            )
        for user in people:
            chat.members[user.id] = "member"
        for user in admins:
            chat.members[user.id] = "administrator"
        owner = creator or (people[0] if people else None)
        if owner is not None:
            chat.members[owner.id] = "creator"
        if bot_admin:
            chat.bot_status = "administrator"
        elif not with_bot:
            chat.bot_status = "left"
        self.chats[chat.id] = chat
        return chat

    def add_topic(self, group: Chat, name: str, *, by: User | None = None) -> Topic:
        """A new forum topic; the `forum_topic_created` service message reaches the bot."""
        if not group.forum:
            raise ValueError(f"{group!r} is not a forum")
        actor = by or self._creator(group)
        topic = Topic(group.next_message_id, name)  # its id is its first message's
        group.topics[topic.thread_id] = topic
        created = self._new_message(
            group,
            actor,
            service={"forum_topic_created": {"name": name, "icon_color": 0x6FB9F0}},
            thread_id=topic.thread_id,
        )
        self._deliver(created)
        return topic

    def close_topic(self, group: Chat, topic: Topic) -> None:
        """Close a topic: only administrators (and the bot if it is one) may write there."""
        topic.closed = True

    def bot_added_to(self, group: Chat, by: User, *, admin: bool = False) -> None:
        """`by` adds the bot: `my_chat_member` and a `new_chat_members` message."""
        old = group.bot_status
        group.bot_status = "administrator" if admin else "member"
        self._my_chat_member(group, by, old, group.bot_status)
        message = self._new_message(group, by, service={"new_chat_members": [self._bot_user()]})
        self._deliver(message)

    def bot_removed_from(self, group: Chat, by: User | None = None) -> None:
        """The bot is kicked from `group`: a `my_chat_member` update (→ kicked)."""
        actor = by or self._creator(group)
        old = group.bot_status
        group.bot_status = "kicked"
        self._new_message(group, actor, service={"left_chat_member": self._bot_user()})
        self._my_chat_member(group, actor, old, "kicked")

    def set_bot_admin(self, group: Chat, admin: bool = True, *, by: User | None = None) -> None:
        """Promote (or demote) the bot: a `my_chat_member` update."""
        old = group.bot_status
        group.bot_status = "administrator" if admin else "member"
        self._my_chat_member(group, by or self._creator(group), old, group.bot_status)

    def migrate_group_to_supergroup(self, group: Chat, *, by: User | None = None) -> Chat:
        """Upgrade a basic group: a new chat id; the old one answers 400 `migrate_to_chat_id`.

        Both service messages (`migrate_to_chat_id` in the old chat, `migrate_from_chat_id`
        in the new one) are delivered to the bot if it is a member.
        """
        if group.type != "group" or group.migrated_to is not None:
            raise ValueError(f"{group!r} is not a basic group")
        actor = by or self._creator(group)
        number = self._next_group
        self._next_group += 1
        upgraded = Chat(
            id=-(1_002_000_000_000 + number),
            type="supergroup",
            title=group.title,
            members=dict(group.members),
            bot_status=group.bot_status,
            migrated_from=group.id,
        )
        self.chats[upgraded.id] = upgraded
        to_message = self._new_message(group, actor, service={"migrate_to_chat_id": upgraded.id})
        group.migrated_to = upgraded.id
        from_message = self._new_message(
            upgraded, actor, service={"migrate_from_chat_id": group.id}
        )
        self._deliver(to_message)
        self._deliver(from_message)
        return upgraded

    def make_uneditable(self, message: MessageRef) -> None:
        """From now on edits of `message` answer 400 "message can't be edited" (old messages)."""
        self._stored(message).editable = False
