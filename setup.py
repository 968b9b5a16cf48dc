"""Package discovery only; everything else is in pyproject.toml.

setuptools' ``packages.find`` cannot find a package that lives in another folder
(``widgets/`` installs as ``mathcards.widgets``), so the list is made here: every package
under ``mathcards/`` (a new game's package too, with no list to edit) and the widgets.
"""

from setuptools import find_packages, setup

setup(packages=[*find_packages(include=["mathcards", "mathcards.*"]), "mathcards.widgets"])
