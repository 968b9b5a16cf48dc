"""Read an exercise-set file, keeping the line of every value, and report every problem.

``read_set_text`` never raises for a bad file: it returns the set (or None) and
a list of ``Problem``\\ s, each with its line and a fix. ``load_set`` raises one
``ExerciseFileError`` holding them all; ``check_file`` is what the
``python -m mathcards check`` command prints.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from mathcards.exercises.kinds import KINDS
from mathcards.exercises.model import (
    DEFAULT_SOLUTION_AFTER,
    DEFAULT_TRIES,
    EXERCISE_KEYS,
    SET_KEYS,
    Exercise,
    ExerciseFileError,
    ExerciseSet,
    Problem,
    _unknown_field,
    _unknown_kind,
)
from mathcards.games.registry import find_game, game_names
from mathcards.i18n import PSEUDO, SOURCE, _, available

MAX_BYTES = 1_000_000
# Bounds on the document's shape, checked on the parser's events before anything is built:
# an exercise file is a few levels deep, and aliases (``*name``) may repeat a part, but a
# few nested aliases can stand for billions of values ("billion laughs").
MAX_DEPTH = 32
MAX_ALIASES = 500
MAX_VALUES = 200_000


class _NumberTooLong(yaml.constructor.ConstructorError):
    """A whole number of more digits than Python turns into a number (4,300)."""


class _SetLoader(yaml.SafeLoader):
    """YAML's safe loader, with a whole number too long to convert reported at its line."""

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        try:
            return super().construct_yaml_int(node)
        except ValueError:  # Python refuses to convert more than 4,300 digits
            digits = sum(ch.isdigit() for ch in str(node.value))
            raise _NumberTooLong(None, None, _(
                "a number of {digits} digits is too long: write a shorter number (numbers "
                "here are small), or put it in quotes if it is text").format(
                    digits=f"{digits:,}"), node.start_mark) from None


_SetLoader.add_constructor("tag:yaml.org,2002:int", _SetLoader.construct_yaml_int)


def _yaml_problem(exc: yaml.YAMLError) -> Problem:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line = mark.line + 1 if mark is not None else 1
    what = (getattr(exc, "problem", None) or str(exc)).strip()
    if "\t" in what or "'\\t'" in what:
        fix = _("indent with spaces, not tabs")
    elif "mapping values are not allowed" in what:
        fix = _("a value with ': ' inside must be in quotes, or a 'key: value' lost its "
                "indent")
    elif "expected <block end>" in what or "did not find expected" in what:
        fix = _("check the indentation: items of one list start with '- ' at the same "
                "column")
    else:
        fix = _("check the indentation and that each 'key: value' has a space after the "
                "colon")
    # YAML's own words (what) stay as the YAML reader gives them
    return Problem(line, _("this is not valid YAML ({what}): {fix}").format(what=what,
                                                                              fix=fix))


def _reader_problem(exc: yaml.reader.ReaderError, text: str) -> Problem:
    line = text[: max(exc.position, 0)].count("\n") + 1
    code = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1] or " ")
    name = "NUL" if code == 0 else f"U+{code:04X}"
    return Problem(line, _("the file holds a control character ({name}) that is not text: "
                           "delete it, or save the file again as plain UTF-8 text").format(
                               name=name))


def _shape_problem(text: str) -> Problem | None:
    """A problem when the document nests too deep or its aliases stand for too much.

    One pass over the parser's events (the parser keeps no recursion), counting the values
    the document would hold with every alias written out, so nothing is built or walked
    when the answer is too many.
    """
    depth = 0
    aliases = 0
    total = 0  # values with every alias expanded
    sizes: dict[str, int] = {}  # anchor -> the values its part holds
    open_parts: list[list[Any]] = []  # [anchor, values so far] of each collection being read
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        line = event.start_mark.line + 1 if event.start_mark is not None else 1
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                return Problem(line, _(
                    "the file nests more than {depth} levels deep: an exercise needs a few "
                    "levels, check the indentation and the brackets").format(depth=MAX_DEPTH))
            open_parts.append([event.anchor, 1])
            total += 1
            continue
        if isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
            anchor, size = open_parts.pop()
            if anchor is not None:
                sizes[anchor] = size
            if open_parts:
                open_parts[-1][1] += size
            continue
        if isinstance(event, yaml.AliasEvent):
            aliases += 1
            if aliases > MAX_ALIASES:
                return Problem(line, _("the file uses more than {count} aliases ('*name'): "
                                       "write the values out instead").format(
                                           count=MAX_ALIASES))
            if any(anchor == event.anchor for anchor, _size in open_parts):
                return Problem(line, _("the alias '*{name}' is inside the part it names: an "
                                       "alias can only repeat a finished part").format(
                                           name=event.anchor))
            size = sizes.get(event.anchor, 1) if event.anchor is not None else 1
        elif isinstance(event, yaml.ScalarEvent):
            size = 1
            if event.anchor is not None:
                sizes[event.anchor] = 1
        else:
            continue
        total += size
        if total > MAX_VALUES:
            return Problem(line, _("with its aliases ('*name') written out this file holds "
                                   "over {count} values: write the values out instead of "
                                   "nesting aliases").format(count=f"{MAX_VALUES:,}"))
        if open_parts:
            open_parts[-1][1] += size
    return None


def parse_yaml(text: str) -> tuple[Any, dict[tuple[Any, ...], int], list[Problem]]:
    """The document's data, the line of every value by its path, and YAML problems."""
    if len(text) > MAX_BYTES:
        return None, {}, [Problem(None, _("the set is over 1 MB: split it into smaller "
                                               "sets"))]
    try:
        shape = _shape_problem(text)
    except yaml.reader.ReaderError as exc:
        return None, {}, [_reader_problem(exc, text)]
    except yaml.YAMLError as exc:
        return None, {}, [_yaml_problem(exc)]
    if shape is not None:
        return None, {}, [shape]
    loader = _SetLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, {}, [Problem(1, _("the file is empty: start with 'title:' and "
                                           "'exercises:'"))]
        data = loader.construct_document(node)
    except _NumberTooLong as exc:
        mark = exc.problem_mark
        return None, {}, [Problem(mark.line + 1 if mark is not None else 1, str(exc.problem))]
    except yaml.YAMLError as exc:
        return None, {}, [_yaml_problem(exc)]
    finally:
        loader.dispose()
    lines: dict[tuple[Any, ...], int] = {}
    problems: list[Problem] = []
    _walk(node, data, (), lines, problems)
    return data, lines, problems


def _walk(node: Any, data: Any, path: tuple[Any, ...], lines: dict[tuple[Any, ...], int],
          problems: list[Problem]) -> None:
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode) and isinstance(data, dict):
        seen: dict[Any, int] = {}
        for key_node, value_node in node.value:
            key = key_node.value
            line = key_node.start_mark.line + 1
            if key in seen:
                problems.append(Problem(line, _("'{key}' is given twice (first on line "
                                                "{line}): keep one").format(
                                                    key=key, line=seen[key])))
            seen[key] = line
            if key in data:
                lines[(*path, key, "key")] = line
                _walk(value_node, data[key], (*path, key), lines, problems)
    elif isinstance(node, yaml.SequenceNode) and isinstance(data, list):
        for i, (item_node, item) in enumerate(zip(node.value, data, strict=False)):
            _walk(item_node, item, (*path, i), lines, problems)


def read_set_text(text: str, *, name: str = "exercises") -> tuple[ExerciseSet | None,
                                                                  list[Problem]]:
    """The set in ``text`` (None when it cannot be built) and every problem in it."""
    data, lines, problems = parse_yaml(text)
    if data is None:
        return None, problems
    if not isinstance(data, dict):
        return None, [*problems, Problem(
            1, _("the file must be 'key: value' settings: start with 'title:' and list "
                 "'exercises:'"))]

    def line_of(*path: Any) -> int | None:
        while path:
            if path in lines:
                return lines[path]
            path = path[:-1]
        return 1

    for key in data:
        if key not in SET_KEYS:
            problems.append(Problem(line_of(key, "key"), _(
                "unknown setting '{key}': a set has {keys}").format(
                    key=key, keys=", ".join(SET_KEYS))))
    lang = data.get("lang", SOURCE)
    if not isinstance(lang, str) or lang.strip() not in _languages():
        problems.append(Problem(line_of("lang"), _language_problem(lang)))
        lang = SOURCE
    lang = lang.strip()
    title = data.get("title")
    titles: dict[str, str] = {}
    if title is None:
        problems.append(Problem(1, _("give the set a title: 'title: Reach the goal'")))
    elif isinstance(title, dict):
        titles, found = _per_language(title, lang, "title",
                                      lambda *p: line_of("title", *p))
        problems.extend(found)
        title = titles.get(lang, "")
    elif not isinstance(title, str) or not title.strip():
        problems.append(Problem(line_of("title"), _("the title must be text, like 'title: "
                                                    "Reach the goal'")))
    instructions = data.get("instructions", "")
    instructions_by_lang: dict[str, str] = {}
    if instructions is None:
        instructions = ""
    if isinstance(instructions, dict):  # per language, as the title may be
        instructions_by_lang, found = _per_language(
            instructions, lang, "instructions", lambda *p: line_of("instructions", *p))
        problems.extend(found)
        instructions = instructions_by_lang.get(lang, "")
    elif not isinstance(instructions, str):
        problems.append(Problem(line_of("instructions"), _("instructions must be text")))
        instructions = ""
    set_id = data.get("id", name)
    if not isinstance(set_id, (str, int)) or isinstance(set_id, bool) or not str(set_id).strip():
        problems.append(Problem(line_of("id"), _("the id must be a short word like "
                                                 "{example}").format(
                                                     example=repr(game_names()[0]))))
        set_id = name
    game = data.get("game")
    if game is not None and find_game(game) is None:
        problems.append(Problem(line_of("game"), _("unknown game {game}: games are "
                                                   "{games}").format(
                                                       game=repr(game),
                                                       games=", ".join(game_names()))))
        game = None
    solution_after = data.get("solution_after", DEFAULT_SOLUTION_AFTER)
    if isinstance(solution_after, bool) or not isinstance(solution_after, int) \
            or not 1 <= solution_after <= 20:
        problems.append(Problem(line_of("solution_after"),
                                _("solution_after must be a number of attempts from 1 to "
                                  "20, not {value}").format(value=repr(solution_after))))
        solution_after = DEFAULT_SOLUTION_AFTER
    items = data.get("exercises")
    exercises: list[Exercise] = []
    if items is None:
        problems.append(Problem(line_of(), _("list the exercises under 'exercises:', each "
                                             "starting with '- kind: ...'")))
        items = []
    elif not isinstance(items, list) or not items:
        problems.append(Problem(line_of("exercises"), _("'exercises' must be a list: each "
                                                        "one starts with '- kind: ...'")))
        items = []
    broken = False
    for index, item in enumerate(items):
        number = index + 1
        line = line_of("exercises", index)
        if not isinstance(item, dict):
            problems.append(Problem(line, _("an exercise is 'key: value' lines starting with "
                                            "'- kind: ...'"), number))
            broken = True
            continue
        exercise, found = _read_exercise(item, number, game, lambda *p, i=index:
                                         line_of("exercises", i, *p), lang)
        problems.extend(found)
        if exercise is None:
            broken = True
        else:
            exercises.append(exercise)
    if problems or broken:
        return None, problems
    try:
        exercise_set = ExerciseSet(title=str(title).strip(), exercises=exercises,
                                   instructions=instructions.strip(), id=str(set_id).strip(),
                                   solution_after=solution_after, lang=lang, titles=titles,
                                   instructions_by_lang=instructions_by_lang)
    except ExerciseFileError as exc:
        return None, exc.problems
    return exercise_set, []


def _languages() -> tuple[str, ...]:
    """The language codes a set may use: the languages a page can be shown in."""
    return tuple(code for code in available() if code != PSEUDO)


def _language_problem(code: object) -> str:
    return _("unknown language code {code}: the languages are {codes}").format(
        code=repr(code), codes=", ".join(_languages()))


def _per_language(value: dict[Any, Any], lang: str, key: str,
                  line_of: Callable[..., int | None],
                  number: int | None = None) -> tuple[dict[str, str], list[Problem]]:
    """A text given per language (``{en: ..., es: ...}``): the texts, and its problems (an
    unknown language code, an empty text, the set's own language missing)."""
    texts: dict[str, str] = {}
    problems: list[Problem] = []
    for code, text in value.items():
        if not isinstance(code, str) or code not in _languages():
            problems.append(Problem(line_of(code, "key"), _language_problem(code), number))
        elif not isinstance(text, str) or not text.strip():
            problems.append(Problem(line_of(code), _(
                "the {key} in {code} is empty: write it, or leave that language out").format(
                    key=key, code=code), number))
        else:
            texts[code] = text.strip()
    if lang not in value:
        problems.append(Problem(line_of(), _(
            "the {key} has no text in the set's own language ({code}): add '{code}: ...'"
            ).format(key=key, code=lang), number))
    return texts, problems


def _read_exercise(item: dict[str, Any], number: int, game: str | None,
                   line_of: Callable[..., int | None],
                   lang: str = SOURCE) -> tuple[Exercise | None, list[Problem]]:
    problems: list[Problem] = []
    kind_name = item.get("kind")
    if kind_name is None:
        return None, [Problem(line_of(), _("say what kind of exercise this is: 'kind: "
                                           "reach_goal' (kinds: {kinds})").format(
                                               kinds=", ".join(KINDS)), number)]
    if not isinstance(kind_name, str) or kind_name not in KINDS:
        return None, [Problem(line_of("kind"), _unknown_kind(kind_name), number)]
    kind = KINDS[kind_name]
    if game is not None and kind.game != game:
        problems.append(Problem(line_of("kind"), _("{kind} is a {game} exercise but this "
                                                   "set is for {set_game}").format(
                                                       kind=kind_name, game=kind.game,
                                                       set_game=game), number))
    field_names = {s.name for s in kind.fields}
    fields: dict[str, Any] = {}
    options: dict[str, Any] = {}
    for key, value in item.items():
        if key == "kind":
            continue
        if key in field_names:
            fields[key] = value
        elif key in EXERCISE_KEYS:
            options[key] = value
        else:
            problems.append(Problem(line_of(key, "key"), _unknown_field(kind, str(key)), number))
    ex_id = options.get("id", "")
    if ex_id != "" and (isinstance(ex_id, bool) or not isinstance(ex_id, (str, int))):
        problems.append(Problem(line_of("id"), _("an exercise id is a short word or number"),
                                number))
        ex_id = ""
    prompt = options.get("prompt", "") or ""
    prompts: dict[str, str] = {}
    if isinstance(prompt, dict):
        prompts, found = _per_language(prompt, lang, "prompt",
                                       lambda *p: line_of("prompt", *p), number)
        problems.extend(found)
        prompt = prompts.get(lang, "")
    elif not isinstance(prompt, str):
        problems.append(Problem(line_of("prompt"), _("the prompt must be text"), number))
        prompt = ""
    tries = options.get("tries", DEFAULT_TRIES)
    if isinstance(tries, bool) or not isinstance(tries, int) or not 1 <= tries <= 5000:
        problems.append(Problem(line_of("tries"), _("tries must be a number from 1 to 5000, "
                                                    "not {value}").format(value=repr(tries)),
                                number))
        tries = DEFAULT_TRIES
    after = options.get("solution_after")
    if after is not None and (isinstance(after, bool) or not isinstance(after, int)
                              or not 1 <= after <= 20):
        problems.append(Problem(line_of("solution_after"), _("solution_after must be a "
                                                             "number from 1 to 20"), number))
        after = None
    require = options.get("require", [])
    if isinstance(require, str):
        require = [require]
    if not isinstance(require, list):
        problems.append(Problem(line_of("require"), _("require is a list like [solvable, "
                                                      "'best stacks >= 2']"), number))
        require = []
    try:  # the fields and constraints are read by Exercise, each problem at its key's line
        exercise = Exercise(kind, id=ex_id, prompt=prompt, prompts=prompts, require=require,
                            tries=tries,
                            solution_after=after, number=number, line=line_of(),
                            field_lines={key: line_of(key) for key in (*fields, "require")},
                            **fields)
    except ExerciseFileError as exc:
        return None, [*problems, *exc.problems]
    if problems:
        return None, problems
    return exercise, []


def read_set_file(path: str | Path) -> tuple[ExerciseSet | None, list[Problem]]:
    """Read a set file: the set and its reading problems (not yet the deep checks)."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    # the file's name only: a page shows these lines, and must not show the server's folders
    except FileNotFoundError:
        return None, [Problem(None, _("no such file: {name}").format(name=path.name))]
    except IsADirectoryError:
        return None, [Problem(None, _("{name} is a folder: give an exercise file "
                                      "(.yaml)").format(name=path.name))]
    except OSError as exc:
        return None, [Problem(None, _("cannot read {name}: {why}").format(
            name=path.name, why=exc.strerror or _("not allowed")))]
    if len(raw) > MAX_BYTES:
        return None, [Problem(None, _("{name} is over 1 MB: split it into smaller "
                                      "sets").format(name=path.name))]
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        return None, [Problem(line, "the file is not UTF-8 text: save it as UTF-8")]
    exercise_set, problems = read_set_text(text, name=path.stem)
    if exercise_set is not None:
        exercise_set.path = path
    return exercise_set, problems


def check_file(path: str | Path) -> list[Problem]:
    """Every problem of a set file: reading, impossible positions, unmet constraints."""
    exercise_set, problems = read_set_file(path)
    if exercise_set is None:
        return problems
    return exercise_set.problems()


def load_set(path: str | Path, *, check: bool = True) -> ExerciseSet:
    """Read a set file; ``ExerciseFileError`` lists every problem if it cannot be used."""
    exercise_set, problems = read_set_file(path)
    if exercise_set is not None and check:
        problems = exercise_set.problems()
    if problems or exercise_set is None:
        raise ExerciseFileError(problems, str(path))
    return exercise_set


def load_set_text(text: str, *, name: str = "exercises", check: bool = True) -> ExerciseSet:
    """A set from YAML text (a notebook cell can hold one)."""
    exercise_set, problems = read_set_text(text, name=name)
    if exercise_set is not None and check:
        problems = exercise_set.problems()
    if problems or exercise_set is None:
        raise ExerciseFileError(problems, name)
    return exercise_set


__all__ = [
    "DEFAULT_TRIES",
    "check_file",
    "load_set",
    "load_set_text",
    "parse_yaml",
    "read_set_file",
    "read_set_text",
]
