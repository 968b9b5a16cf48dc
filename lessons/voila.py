# Voilà reads this file with voila.json (both are its configuration in this folder):
# the secret that signs each browser's identity cookie, kept in MathCards' data folder
# so that a restart keeps every visitor's identity and room seat (mathcards/keys.py).
from mathcards.keys import cookie_secret

c.Voila.cookie_secret = cookie_secret()  # type: ignore[name-defined]  # noqa: F821
