"""The server's secrets: the teacher's key, the variant secret and the cookie secret.

- **The teacher's key** opens the teacher's pages (class results, worked
  solutions in teacher mode). A Voilà page is public: anyone who can reach
  the server can open any notebook, so those pages ask for ``?key=...`` in
  their address and compare it with this key.
- **The variant secret** seeds each student's exercise variant together with
  the set, the exercise and the student's name, so nobody can compute another
  student's cards (or answers) from the public rules and a name.

- **The cookie secret** signs the identity cookie Voilà gives each browser
  (``lessons/voila.py`` hands it to Voilà). Voilà's own default is a new one
  at every start, so a restart (an out-of-memory kill included) forgot every
  browser and every room seat with it; this one is kept in the data folder.

The first two come from an environment variable when it is set
(``MATHCARDS_TEACHER_KEY``, ``MATHCARDS_SECRET``: a hub sets them for every
server), else from a file in MathCards' data folder (``teacher-key``,
``variant-secret``), created on first use with a fresh random value and
readable by its owner only. ``python -m mathcards teacher-key`` prints the key
(creating it when missing). The cookie secret is only ever a file
(``cookie-secret``): it is the server's own, never shared with another server.
"""

from __future__ import annotations

import hmac
import os
import secrets
from pathlib import Path

TEACHER_ENV = "MATHCARDS_TEACHER_KEY"
SECRET_ENV = "MATHCARDS_SECRET"
TEACHER_FILE = "teacher-key"
SECRET_FILE = "variant-secret"
COOKIE_FILE = "cookie-secret"
MIN_KEY = 8  # shorter keys from the environment are refused: too easy to guess


def _from_file(name: str, nbytes: int = 18, folder: Path | None = None) -> str:
    """The secret kept in file ``name`` of ``folder`` (default: the data folder), made
    (owner-only) when missing."""
    from mathcards.errors import MathCardsError
    from mathcards.storage import data_dir

    if folder is not None:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    path: Path = (data_dir() if folder is None else folder) / name
    try:
        text = path.read_text(encoding="utf-8").strip()
        if text:
            return text
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise MathCardsError(f"cannot read MathCards' {name} file ({exc.strerror}): check the "
                             f"data folder's permissions") from None
    value = secrets.token_urlsafe(nbytes)
    try:  # O_EXCL: two kernels making it at once agree on the first one written
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _from_file(name, nbytes, folder)
    except OSError as exc:
        raise MathCardsError(f"cannot create MathCards' {name} file ({exc.strerror}): check the "
                             f"data folder's permissions") from None
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(value + "\n")
        out.flush()
        os.fsync(out.fileno())
    return value


def _secret(env: str, file_name: str) -> str:
    from mathcards.errors import MathCardsError

    configured = os.environ.get(env, "").strip()
    if configured:
        if len(configured) < MIN_KEY:
            raise MathCardsError(f"{env} is too short: use at least {MIN_KEY} characters")
        return configured
    return _from_file(file_name)


def teacher_key() -> str:
    """The teacher's key (made on first use when none is set). On a hub with the MathCards
    service only teachers' servers have it: a student's server has none to make."""
    from mathcards.errors import MathCardsError
    from mathcards.hub_client import service_url

    if service_url() and not os.environ.get(TEACHER_ENV, "").strip():
        raise MathCardsError("on this hub the teacher's pages open on a teacher's server only")
    return _secret(TEACHER_ENV, TEACHER_FILE)


def cookie_secret() -> bytes:
    """The secret Voilà signs its identity cookies with (made once, kept across restarts)."""
    return _from_file(COOKIE_FILE, 32).encode("ascii")


_SECRETS: dict[tuple[str, str], str] = {}


def variant_secret() -> str:
    """The secret mixed into every student's exercise variant (read once per place)."""
    from mathcards.storage import ENV_VAR

    where = (os.environ.get(SECRET_ENV, ""), os.environ.get(ENV_VAR, ""))
    if where not in _SECRETS:
        _SECRETS[where] = _secret(SECRET_ENV, SECRET_FILE)
    return _SECRETS[where]


def teacher_token(purpose: str) -> str:
    """A token only the holder of the teacher's key can make, for ``purpose`` (the
    teacher's sign-in cookie, the mark of a teacher's kernel); a new key voids them."""
    digest = hmac.new(teacher_key().encode("utf-8"), purpose.encode("utf-8"), "sha256")
    return digest.hexdigest()[:32]


def is_teacher_key(given: object) -> bool:
    """Whether ``given`` (text from a page address) is the teacher's key."""
    if not isinstance(given, str) or not given:
        return False
    return hmac.compare_digest(given.encode("utf-8"), teacher_key().encode("utf-8"))
