# Voilà reads this file with voila.json (both are its configuration in this folder):
# the secret that signs each browser's identity cookie, kept in MathCards' data folder
# so that a restart keeps every visitor's identity and room seat (mathcards/keys.py).
from mathcards.keys import cookie_secret

c.Voila.cookie_secret = cookie_secret()  # type: ignore[name-defined]  # noqa: F821
# Voilà's scripts under an address that names their version, so browsers keep them for
# good (mathcards/widgets/network.py: compressed and cached files).
from mathcards.widgets.network import page_config_hook  # noqa: E402

c.VoilaConfiguration.page_config_hook = page_config_hook  # type: ignore[name-defined]  # noqa: F821
