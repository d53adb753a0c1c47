"""The host side of ``spades-bot/1``: a bot program in a child process, seen as a ``Bot``.

To the referee an ``ExternalBot`` is a bot like any other. Behind it a program,
written in any language, reads the game as JSON lines on its stdin and answers
on its stdout. Every way a program can fail (silence, death, garbage, an answer
without the expected key) becomes a ``BotFailure`` naming the reason, so the
referee forfeits that game and a match goes on.

The program lives for one game: it is started in ``start_game`` and stopped on
``game_over``, on its first failure, or by ``close()``, whichever comes first;
a finalizer kills it even if the caller forgets to close.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import IO, Final, NoReturn, TextIO, TypeVar

from spades.bots import Bot, BotFailure
from spades.bots.base import default_pass
from spades.core import (
    BLIND_NIL,
    Card,
    CardsPassed,
    Event,
    GameOver,
    HandDealt,
    PlayerView,
    Rule,
    Rules,
    Seat,
)

from .messages import (
    Message,
    ProtocolError,
    accepted_requests,
    bid_from_reply,
    bid_request,
    blind_nil_from_reply,
    blind_nil_request,
    card_from_reply,
    cards_message,
    decode,
    encode,
    event_message,
    hello,
    is_answer,
    name_from_ready,
    pass_from_reply,
    pass_request,
    play_request,
    quit_message,
    quote,
)

DEFAULT_TIMEOUT: Final = 10.0
QUIT_GRACE: Final = 1.0
"""Seconds a program gets to exit after ``quit`` before it is killed."""
MAX_LINE: Final = 1 << 16
"""Longest line read at once: a longer one arrives in pieces, and fails as not JSON."""
STDERR_LINES_KEPT: Final = 20
NAME_LENGTH: Final = 60

T = TypeVar("T")


class BotProcess:
    """One running bot program.

    Threads read its stdout (into a queue, so a read can time out) and its
    stderr (always drained, so a chatty program never blocks on a full pipe).
    Writes to its stdin are plain blocking writes: a bot must read every line
    before a request to answer it, and between two requests a seat is sent at
    most about a hand's messages (a few KB), far below the pipe's buffer.
    """

    def __init__(self, argv: Sequence[str], stderr: TextIO | None = None) -> None:
        try:
            # A session of its own: stopping it kills everything it started, too.
            self.popen = subprocess.Popen(
                list(argv),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
        except OSError as error:
            raise BotFailure(f"cannot run {quote(shlex.join(argv))}: {error.strerror}") from None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.stderr_tail: deque[str] = deque(maxlen=STDERR_LINES_KEPT)
        self._stderr_sink = stderr
        self._readers = [
            threading.Thread(target=self._read_stdout, daemon=True),
            threading.Thread(target=self._read_stderr, daemon=True),
        ]
        for reader in self._readers:
            reader.start()
        # Kills the program if this object is dropped, or at exit, without a stop().
        self._finalizer = weakref.finalize(self, kill_session, self.popen)

    def _read_stdout(self) -> None:
        stream = self.popen.stdout
        assert stream is not None
        with stream:
            for raw in iter(lambda: stream.readline(MAX_LINE), b""):
                self.lines.put(raw.decode("utf-8", errors="replace").rstrip("\r\n"))
        self.lines.put(None)  # end of output: the program exited or closed it

    def _read_stderr(self) -> None:
        stream = self.popen.stderr
        assert stream is not None
        with stream:
            for raw in iter(lambda: stream.readline(MAX_LINE), b""):
                line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
                self.stderr_tail.append(line)
                if self._stderr_sink is not None:
                    try:
                        self._stderr_sink.write(line + "\n")
                    except (OSError, ValueError):
                        self._stderr_sink = None  # keep draining even if the log is gone

    def send(self, line: str) -> None:
        """Write one line; ``OSError`` (a broken pipe) if the program is gone."""
        stdin = self.popen.stdin
        assert stdin is not None
        stdin.write(line.encode("utf-8"))
        stdin.flush()

    def read_line(self, timeout: float) -> str | None:
        """The next line the program writes, ``None`` at the end of its output;
        ``TimeoutError`` if none comes within ``timeout`` seconds."""
        try:
            return self.lines.get(timeout=max(timeout, 0.0))
        except queue.Empty:
            raise TimeoutError from None

    def exit_reason(self) -> str:
        """Why the program's output ended, with its last words on stderr."""
        try:
            code = self.popen.wait(timeout=QUIT_GRACE)
        except subprocess.TimeoutExpired:
            reason = "closed its output"
        else:
            reason = f"was killed by signal {-code}" if code < 0 else f"exited with code {code}"
        self._readers[1].join(timeout=0.5)  # let the last stderr lines in
        if self.stderr_tail:
            reason += f" (last line on stderr: {quote(self.stderr_tail[-1])})"
        return reason

    def stop(self, farewell: str | None = None, grace: float = QUIT_GRACE) -> None:
        """Send ``farewell``, give the program ``grace`` seconds to exit, then kill
        whatever is left of it."""
        try:
            if farewell is not None and grace > 0:
                self.send(farewell)
            stdin = self.popen.stdin
            assert stdin is not None
            stdin.close()  # end of input: a well-behaved program exits now
        except OSError:
            pass  # already gone
        if grace > 0:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(timeout=grace)
        self._finalizer()  # kills the session, reaps the program
        for reader in self._readers:
            reader.join(timeout=0.5)


def kill_session(popen: subprocess.Popen[bytes]) -> None:
    """Kill the program and anything it started (its session), and reap it."""
    with contextlib.suppress(ProcessLookupError, PermissionError):  # nothing left to kill
        os.killpg(popen.pid, signal.SIGKILL)
    popen.kill()  # in case the session could not be signalled; a no-op once it is reaped
    popen.wait()
    stdin: IO[bytes] | None = popen.stdin
    if stdin is not None and not stdin.closed:
        with contextlib.suppress(OSError):
            stdin.close()


def default_name(argv: Sequence[str]) -> str:
    """A readable name for a command: its words with directories dropped.

    >>> default_name(["/usr/bin/python3", "examples/simple_bot.py"])
    'python3 simple_bot.py'
    """
    return " ".join(os.path.basename(word) or word for word in argv)[:NAME_LENGTH]


class ExternalBot(Bot):
    """A bot program speaking ``spades-bot/1`` on its stdin and stdout.

    ``command`` is split like a shell command line when it is a string.
    ``seed`` is passed to the program in ``hello``; ``timeout`` is how many
    seconds it has for each answer (and to say ``ready``). The referee reads
    ``name`` before the game starts, so it is ``name`` if given, else the
    command; without a given ``name`` the name the program announces replaces
    it from then on. ``stderr``, if given, receives the program's log lines;
    otherwise only the last few are kept, to quote when it fails.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        seed: int | str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        name: str | None = None,
        stderr: TextIO | None = None,
    ) -> None:
        super().__init__(seed)
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.command:
            raise ValueError("a bot command cannot be empty")
        if timeout <= 0:
            raise ValueError(f"the timeout must be positive, got {timeout}")
        self.seed = seed
        self.timeout = timeout
        self.name = name or default_name(self.command)
        self._named = name is not None
        self._stderr = stderr
        self._process: BotProcess | None = None
        self.accepts: frozenset[str] = frozenset()
        """The optional requests (``blind_nil``, ``pass``) the program said it answers."""
        self._withheld = 0
        """The seat's deal, while it is withheld for a blind-Nil offer (0 otherwise)."""

    # --------------------------------------------------------------- the game

    def start_game(self, seat: Seat, rules: Rules) -> None:
        self.close()  # one program per game: a bot object may play several in turn
        self._process = BotProcess(self.command, self._stderr)
        ready = self._ask(hello(seat, rules, self.seed), "hello")
        announced = name_from_ready(ready)
        if announced is not None and not self._named:
            self.name = announced
        self.accepts = accepted_requests(ready)
        self._withheld = 0

    def observe(self, event: Event, view: PlayerView) -> None:
        if self._process is None:
            return  # it failed (and forfeited) or was closed: nothing more to tell
        if isinstance(event, GameOver):
            # Never fail here: the game is decided, and the referee would stop
            # telling the other bots the result.
            with contextlib.suppress(BotFailure):
                self._send(event_message(event, view))
            self.close()
            return
        if isinstance(event, HandDealt):
            # A blind Nil is bid unseen: a program that can be offered one is
            # not sent its deal until it has answered the offer.
            offered = "blind_nil" in self.accepts and view.blind_nil_open
            self._withheld = view.hand if offered else 0
            self._send(event_message(event, view, withhold_cards=offered))
            return
        self._send(event_message(event, view))
        if isinstance(event, CardsPassed) and view.received and "pass" in self.accepts:
            # The last pass of the hand: the seat's cards, with the ones it was given.
            self._send(cards_message(view.hand))

    def blind_nil(self, view: PlayerView) -> bool:
        """Ask a program that accepts the offer; its deal follows the answer."""
        if not self._withheld:
            return False  # never offered: it has seen its cards, or cannot be asked
        reply = self._ask(blind_nil_request(view), "blind_nil")
        blind = self._parse(blind_nil_from_reply, reply)
        self._deliver_cards()
        return blind

    def bid(self, view: PlayerView) -> int:
        self._deliver_cards()  # the offer lapsed (a partner's Nil, say): the cards are due
        reply = self._ask(bid_request(view), "bid")
        bid = self._parse(bid_from_reply, reply)
        if bid == BLIND_NIL:
            self._fail(
                f"bid blind Nil after seeing its cards: the host offers blind Nil before "
                f'the deal, to programs that list "blind_nil" in ready\'s "accepts" '
                f"(rule {Rule.BLIND_NIL})"
            )
        return bid

    def pass_cards(self, view: PlayerView) -> list[Card]:
        """Ask a program that accepts ``pass``; pass the documented default for one
        written before it (the host tells it the cards in ``cards_passed``)."""
        if "pass" not in self.accepts:
            return default_pass(view)
        self._deliver_cards()
        reply = self._ask(pass_request(view), "pass")
        return self._parse(pass_from_reply, reply)

    def play(self, view: PlayerView) -> Card:
        self._deliver_cards()
        reply = self._ask(play_request(view), "play")
        return self._parse(card_from_reply, reply)

    def close(self) -> None:
        """Say ``quit``, wait briefly, then kill the program. Safe to call twice."""
        process, self._process = self._process, None
        if process is not None:
            process.stop(encode(quit_message()))

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def pid(self) -> int | None:
        """The running program's process id, ``None`` when none is running."""
        return None if self._process is None else self._process.popen.pid

    # ------------------------------------------------------------ the talking

    def _deliver_cards(self) -> None:
        """Send the withheld deal, once the blind-Nil offer is answered or lapsed."""
        if self._withheld:
            hand, self._withheld = self._withheld, 0
            self._send(cards_message(hand))

    def _running(self) -> BotProcess:
        if self._process is None:
            raise BotFailure("the program is not running (it failed, or the game is over)")
        return self._process

    def _send(self, message: Message) -> None:
        process = self._running()
        try:
            process.send(encode(message))
        except OSError:
            self._fail(process.exit_reason())

    def _ask(self, message: Message, request: str) -> Message:
        """Send a request and wait for its answer, skipping lines of unknown types."""
        process = self._running()
        self._send(message)
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                line = process.read_line(deadline - time.monotonic())
            except TimeoutError:
                self._fail(f"did not answer within {self.timeout:g} s (asked to {request})")
            if line is None:
                self._fail(process.exit_reason())
            if not line.strip():
                continue  # a stray blank line is harmless
            try:
                reply = decode(line)
                if is_answer(reply, request):
                    return reply
            except ProtocolError as error:
                self._fail(str(error))

    def _parse(self, parse: Callable[[Message], T], reply: Message) -> T:
        try:
            return parse(reply)
        except ProtocolError as error:
            self._fail(str(error))

    def _fail(self, reason: str) -> NoReturn:
        """Stop the program at once (its side forfeits) and raise ``BotFailure``."""
        process, self._process = self._process, None
        if process is not None:
            process.stop(grace=0)
        raise BotFailure(reason)
