"""Issue 20 §4's options figures: the longest options refusal for hostile input, and
which self-contradicting options are taken, in every game.

    PYTHONPATH=. .venv/bin/python scripts/probe_options.py
"""

from __future__ import annotations

from bot.games import find

X = "x" * 6000
HOSTILE = [
    X, "=" + X, X + "=1", "difficulty=" + X, "tech_sides=" + X, "technologies=" + X, "colours=" + X,
    "{" + X, '{"' + X + '": 1}', '{"difficulty": "' + X + '"}', " ".join(f"k{i}=v" for i in range(1000)),
    "technologies=everything", "technologies=spatial-vp+ceo-wi-fi",
]
TWICE = ["difficulty=hard difficulty=easy", '{"difficulty": "hard", "difficulty": "easy"}',
         "hardcore=true hardcore=false", "limited_common_specialists=true limited_common_specialists=false"]


def main() -> None:
    for name in ("smartphone-inc", "mobile-markets", "age-of-automaton"):
        presenter = find(name)
        assert presenter is not None
        longest = 0
        for typed in HOSTILE:
            try:
                presenter.parse_options(typed)
            except ValueError as exc:
                longest = max(longest, len(str(exc)))
        taken = []
        for typed in TWICE:
            try:
                presenter.parse_options(typed)
                taken.append(typed)
            except ValueError:
                pass
        print(f"{name}: longest refusal {longest} characters; contradictions taken: {taken}")


if __name__ == "__main__":
    main()
