"""Mutation testing of one game's engine with mutmut (``make mutants GAME=<game>``).

mutmut changes one small thing at a time in the game's rules modules (an operator, a
number, a condition, a returned value...) and runs the game's rule tests against each
change; a mutant the tests do not notice "survives". mutmut runs, for each mutant, only
the tests that call the mutated function, two at a time, each in a fork.

The work happens in a copy (``build/mutants/<game>/``), never in the source tree. The
report prints, per module, the killed share of the rules mutants and lists every
surviving one with file, line and the changed line. Mutants that change only a text (a
log line or an error message: wording, not rules) are counted apart and left out of the
share. Survivors written down as equivalent in ``tests/mutants_equivalent.txt`` (file,
the changed line, the reason) are left out too, and listed as such.

    python scripts/mutants.py mobile-markets                 # every mutant
    python scripts/mutants.py mobile-markets --sample 300    # a seeded sample
    python scripts/mutants.py smartphone-inc --module selling
    python scripts/mutants.py age-of-automaton --report-only # the last run's results
"""

from __future__ import annotations

import argparse
import ast
import difflib
import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENT = ROOT / "tests" / "mutants_equivalent.txt"

# The rules modules of each engine: not the protocol glue (game), the data loaders, the
# views, the labels and other wording, the AIs, the planners' enumerations, the versions
# and migrations of saved states.
GAMES: dict[str, dict[str, list[str] | str]] = {
    "smartphone-inc": {
        "package": "smartphone_inc",
        "modules": [
            "common", "control", "directives", "flow", "hardcore", "improve", "logistics",
            "new_technologies", "outcome_yields", "planning", "preparation", "prices", "priority",
            "production", "research", "retailers", "scoring", "selling", "small_board", "steve",
            "technologies",
        ],
        "tests": ["test_si_*.py", "test_su_*.py", "test_mini_upgrade_goods.py"],
        "not_tests": ["test_su_bot.py", "test_su_bot_e2e.py"],
    },
    "mobile-markets": {
        "package": "mobile_markets",
        "modules": [
            "common", "displays", "effects", "events", "flow", "market", "marketing", "pads",
            "planning", "preparation", "pricing", "product", "production", "profit", "sales",
            "steve_jr", "technology",
        ],
        "tests": ["test_mm_*.py"],
        "not_tests": ["test_mm_bot.py", "test_mm_discord.py", "test_mm_ai.py"],
    },
    "age-of-automaton": {
        "package": "age_of_automaton",
        "modules": [
            "achievements", "audit", "cleanup", "common", "donation", "draft", "effects", "flow",
            "free", "market", "relationships", "reliability", "reputation", "scoring", "setup",
            "special", "technology", "actions/__init__", "actions/assembling", "actions/equipment",
            "actions/funding", "actions/prospect", "actions/purchasing", "actions/rnd",
            "actions/sale", "actions/sponsorship",
        ],
        "tests": ["test_aoa_*.py"],
        "not_tests": ["test_aoa_bot.py", "test_aoa_discord.py", "test_aoa_render_offers.py", "test_aoa_plurals.py"],
    },
}

KILLED = {1, 3, 24, -24, 36, 152, 255}  # a failing test, an internal error, a timeout
SURVIVED = {0}
NO_TESTS = {5, 33}  # no rule test calls the function: as good as a survivor


def rule_tests(game: str, tests: Path) -> list[str]:
    spec = GAMES[game]
    found: set[str] = set()
    for pattern in spec["tests"]:
        found |= {p.name for p in tests.glob(str(pattern))}
    return sorted(f"tests/{n}" for n in found - set(spec["not_tests"]))


def module_path(game: str, module: str) -> str:
    return f"engine/{GAMES[game]['package']}/{module}.py"


def prepare(game: str, work: Path, modules: list[str], tests: Path) -> None:
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.png")
    shutil.copytree(ROOT / "engine", work / "engine", ignore=ignore)
    shutil.copytree(tests, work / "tests", ignore=ignore)
    # the test settings of pyproject.toml, without anything else
    (work / "pyproject.toml").write_text(
        '[tool.pytest.ini_options]\ntestpaths = ["tests"]\nasyncio_mode = "auto"\n'
        'asyncio_default_fixture_loop_scope = "function"\n'
        'markers = ["rule(*ids): rulebook checklist ids", "slow: long-running test"]\n'
    )
    lines = ["[mutmut]", f"source_paths = engine/{GAMES[game]['package']}/", "only_mutate ="]
    lines += [f"    {module_path(game, m)}" for m in modules]
    lines += ["also_copy =", "    engine/", "pytest_add_cli_args =", "    -p", "    no:cacheprovider"]
    lines += ["pytest_add_cli_args_test_selection ="] + [f"    {t}" for t in rule_tests(game, tests)]
    (work / "setup.cfg").write_text("\n".join(lines) + "\n")


def mutmut(work: Path, names: list[str], jobs: int) -> int:
    exe = Path(sys.executable).parent / "mutmut"
    cmd = ["nice", "-n", "10", str(exe), "run", "--max-children", str(jobs), *names]
    # The bot's picture workers are child processes of the process that draws
    # (bot.picture_workers), and mutmut collects its own workers with os.wait(): a picture
    # worker of a test run in mutmut's process (a bot that warms its painter up) would be
    # collected in their place, and mutmut stops (KeyError). Rules tests draw in threads.
    env = {**os.environ, "BOARDROOM_PICTURES": "thread"}
    with open(work / "mutmut.log", "a") as log:
        return subprocess.call(cmd, cwd=work, stdout=log, stderr=subprocess.STDOUT, env=env)


def metas(work: Path) -> dict[str, dict[str, int | None]]:
    out = {}
    for meta in (work / "mutants" / "engine").rglob("*.py.meta"):
        rel = str(meta.relative_to(work / "mutants"))[: -len(".meta")]
        out[rel] = json.loads(meta.read_text())["exit_code_by_key"]
    return out


# --- where a mutant is, and whether it is only wording ----------------------------------------


def _functions(tree: ast.AST, mangle: bool) -> dict[str, ast.FunctionDef]:
    """Functions by mutmut's names: ``x_f``, ``xǁClassǁmethod`` (``mangle``: the names
    of the source file; else the names as they stand in mutmut's copy)."""
    out: dict[str, ast.FunctionDef] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    out.setdefault(f"xǁ{node.name}ǁ{item.name}" if mangle else item.name, item)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            out.setdefault(f"x_{node.name}" if mangle else node.name, node)
    return out


def _body(source: list[str], fn: ast.FunctionDef) -> list[str]:
    return source[fn.lineno : fn.end_lineno]  # without the def line (its name differs)


class Locator:
    def __init__(self, work: Path) -> None:
        self.work = work
        self.cache: dict[str, tuple[list[str], dict, list[str], dict]] = {}

    def _load(self, rel: str):
        if rel not in self.cache:
            mut_src = (self.work / "mutants" / rel).read_text().splitlines()
            orig_src = (self.work / rel).read_text().splitlines()
            self.cache[rel] = (
                mut_src, _functions(ast.parse("\n".join(mut_src)), False),
                orig_src, _functions(ast.parse("\n".join(orig_src)), True),
            )
        return self.cache[rel]

    def text_only(self, rel: str, line: int) -> bool:
        """Whether ``line`` of the source assigns a name that its function uses only in
        texts (f-strings, log lines, error messages): e.g. ``verb = "earns" if ...``."""
        _, _, orig_src, orig_fns = self._load(rel)
        fn = next((f for f in orig_fns.values() if f.lineno <= line <= (f.end_lineno or 0)), None)
        if fn is None:
            return False
        names = {
            t.id for node in ast.walk(fn) if isinstance(node, ast.Assign) and node.lineno == line
            for t in node.targets if isinstance(t, ast.Name)
        }
        if not names:
            return False
        in_text: set[int] = set()
        for node in ast.walk(fn):
            texty = isinstance(node, ast.JoinedStr) or (
                isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in TEXT_CALLS
            )
            if texty:
                in_text |= {id(n) for n in ast.walk(node)}
        uses = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id in names and isinstance(n.ctx, ast.Load)]
        return bool(uses) and all(id(n) in in_text for n in uses)

    def in_text_function(self, rel: str, name: str) -> bool:
        """Mutants of a function that only makes text (describe, label, name, plural...)."""
        base = name.rsplit(".", 1)[1].rsplit("__mutmut_", 1)[0]
        return bool(re.search(r"describe|text|label|_name|names|words|plural|title|summary|need_words", base))

    def locate(self, rel: str, name: str) -> tuple[int, str, str]:
        """(line in the source file, the original line, the mutated line)."""
        mut_src, mut_fns, orig_src, orig_fns = self._load(rel)
        short = name.rsplit(".", 1)[1]
        base = short.rsplit("__mutmut_", 1)[0]
        mutant, orig = mut_fns.get(short), mut_fns.get(base + "__mutmut_orig")
        where = orig_fns.get(base)
        if mutant is None or orig is None or where is None:
            return 0, "", ""
        a, b = _body(mut_src, orig), _body(mut_src, mutant)
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
            if tag != "equal":
                old = " ".join(x.strip() for x in a[i1:i2])
                new = " ".join(x.strip() for x in b[j1:j2])
                return where.lineno + 1 + i1, old, new
        return where.lineno, "", ""


def _tokens(text: str) -> list[tuple[int, str]]:
    try:
        return [
            (t.type, t.string)
            for t in tokenize.generate_tokens(io.StringIO(text).readline)
            if t.type not in (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER, tokenize.INDENT, tokenize.DEDENT)
        ]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return []


TEXT_CALLS = {"say", "log_action", "require", "IllegalAction", "card_name", "names", "earn", "plural"}
WORDING_CALL = re.compile(r"^\s*(say|log_action|_say|note)\(")


def _text_literal(tok: str) -> bool:
    """A string written for people (a space or a capital in it), not an identifier."""
    body = tok.lstrip("rbfRBF").strip("'\"")
    return bool(re.search(r"\s|[A-Z]", body))


def is_wording(old: str, new: str) -> bool:
    """A mutant that changes only a text: a log line, an error message, a label."""
    if WORDING_CALL.match(old):
        return True
    if re.sub(r",?\s*why=[^,)]*", "", old) == re.sub(r",?\s*why=[^,)]*", "", new):
        return True  # only the "why" label of an effect (what the log says it is for)
    a, b = _tokens(old), _tokens(new)
    if not a or not b:
        return False
    sm = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            continue
        changed = a[i1:i2] + b[j1:j2]
        if not all(t == tokenize.STRING or (t == tokenize.NAME and s == "None") for t, s in changed):
            return False
        if all(_text_literal(s) for t, s in a[i1:i2] if t == tokenize.STRING) and any(
            t == tokenize.STRING for t, s in a[i1:i2]
        ):
            continue  # a text for people changed
        if not any(t == tokenize.STRING and s.strip("rbfRBF").strip("'\"") != "" for t, s in a[i1:i2]):
            return False  # "" -> "XXXX" changes a value, not a text
    texts_only = all(
        all(_text_literal(s) for t, s in a[i1:i2] if t == tokenize.STRING)
        for tag, i1, i2, _, _ in sm.get_opcodes() if tag != "equal"
    )
    # a text for people, an error message (of require / IllegalAction) or a log line
    return texts_only or bool(re.search(r"\b(require|IllegalAction|say|log_action|earn|ValueError)\(", old))


def equivalents() -> list[tuple[str, str, str]]:
    """(file, mutated line, reason) from tests/mutants_equivalent.txt."""
    out = []
    if EQUIVALENT.exists():
        for line in EQUIVALENT.read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                path, mutated, reason = (x.strip() for x in line.split(" | ", 2))
                out.append((path, mutated, reason))
    return out


def report(game: str, work: Path, modules: list[str], out_json: Path | None) -> dict:
    loc = Locator(work)
    eq = equivalents()
    wanted = {module_path(game, m) for m in modules}
    per: dict[str, dict] = {}
    survivors: list[dict] = []
    for rel, codes in sorted(metas(work).items()):
        if rel not in wanted:
            continue
        row = per.setdefault(rel, {"killed": 0, "survived": 0, "equivalent": 0, "wording": 0, "unchecked": 0})
        for name, code in sorted(codes.items()):
            if code is None or code == 34:
                row["unchecked"] += 1
                continue
            line, old, new = loc.locate(rel, name)
            if is_wording(old, new) or loc.text_only(rel, line) or loc.in_text_function(rel, name):
                row["wording"] += 1
                continue
            if code in KILLED:
                row["killed"] += 1
                continue
            reason = next((r for p, m, r in eq if p == rel and m == new), None)
            entry = {"file": rel, "line": line, "name": name, "old": old, "new": new,
                     "why": "no rule test calls it" if code in NO_TESTS else "survived"}
            if code not in SURVIVED | NO_TESTS:
                entry["why"] = f"exit code {code}"
            if reason:
                row["equivalent"] += 1
                entry["equivalent"] = reason
            else:
                row["survived"] += 1
            survivors.append(entry)
    total_k = sum(r["killed"] for r in per.values())
    total_s = sum(r["survived"] for r in per.values())
    print(f"\n{game}: rules modules, killed share of the non-equivalent mutants checked")
    print(f"{'module':44} {'killed':>7} {'surv.':>6} {'equiv.':>6} {'share':>7} {'wording':>8} {'unchecked':>9}")
    for rel, r in per.items():
        n = r["killed"] + r["survived"]
        share = f"{100 * r['killed'] / n:6.1f}%" if n else "    -  "
        print(f"{rel:44} {r['killed']:7} {r['survived']:6} {r['equivalent']:6} {share:>7} {r['wording']:8} {r['unchecked']:9}")
    n = total_k + total_s
    print(f"{'all rules modules':44} {total_k:7} {total_s:6} {sum(r['equivalent'] for r in per.values()):6} "
          f"{(100 * total_k / n if n else 0):6.1f}%")
    live = [s for s in survivors if "equivalent" not in s]
    if live:
        print(f"\nsurvivors ({len(live)}):")
        for s in live:
            print(f"  {s['file']}:{s['line']}: {s['why']}: {s['old']}  ->  {s['new']}")
    eqs = [s for s in survivors if "equivalent" in s]
    if eqs:
        print(f"\nequivalent ({len(eqs)}, tests/mutants_equivalent.txt):")
        for s in eqs:
            print(f"  {s['file']}:{s['line']}: {s['new']}  ({s['equivalent']})")
    result = {"game": game, "modules": per, "survivors": survivors,
              "killed": total_k, "survived": total_s, "share": (total_k / n if n else None)}
    if out_json:
        out_json.write_text(json.dumps(result, indent=1))
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game", choices=sorted(GAMES))
    ap.add_argument("--module", action="append", help="only this rules module (repeatable), e.g. selling")
    ap.add_argument("--sample", type=int, default=0, help="check a seeded sample of N mutants (0: all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2, help="mutants checked at once (the machine has 2 cores)")
    ap.add_argument("--report-only", action="store_true", help="print the last run's results again")
    ap.add_argument("--tests", type=Path, default=ROOT / "tests",
                    help="the tests/ folder to run (e.g. an older checkout's, for a before figure)")
    ap.add_argument("--work", type=Path, help="the work folder (default build/mutants/<game>)")
    args = ap.parse_args()
    spec = GAMES[args.game]
    modules = args.module or list(spec["modules"])
    for m in modules:
        if m not in spec["modules"]:
            ap.error(f"{m} is not one of the rules modules of {args.game}: {', '.join(spec['modules'])}")
    work = args.work or ROOT / "build" / "mutants" / args.game
    started = time.monotonic()
    if not args.report_only:
        prepare(args.game, work, modules, args.tests.resolve())
        if args.sample:
            # a first pass makes the mutants and finds which tests call which function
            mutmut(work, ["no.such.mutant*"], args.jobs)
            names = sorted(n for codes in metas(work).values() for n in codes)
            names = sorted(random.Random(args.seed).sample(names, min(args.sample, len(names))))
            print(f"checking {len(names)} mutants sampled (seed {args.seed})", flush=True)
            rc = mutmut(work, names, args.jobs)
        else:
            rc = mutmut(work, [], args.jobs)
        if rc not in (0, 1):
            print(f"mutmut failed (exit {rc}); see {work / 'mutmut.log'}")
            return rc
    report(args.game, work, modules, work / "report.json")
    if not args.report_only:
        print(f"\n{args.game}: {time.monotonic() - started:.0f} s (jobs {args.jobs}, {os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
