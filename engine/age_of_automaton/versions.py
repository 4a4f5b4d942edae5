"""Which rules this code plays Age of Automaton under (see engine/versions.py).

A game keeps the rules version it started with until it ends; new games get the
current one. Where a rule changes, the code keeps the old behaviour reachable by
branching on ``state["rules"]``.

``RULES``: the rules version a new game starts under, kept in ``state["rules"]``.
History:

1. the rulebook as first built: an Achievement is claimed by the engine the moment a
   player meets it (in turn order), its first-met bonus going to the players who claim
   it while nobody else has.
2. Achievements are a player's decision (issue 11, "Achievements are offered when met";
   rulebook: "players *can* place their own Achievement tokens ... at any time"). The
   moment a player meets an unclaimed card it is *offered* to that player, and stays
   offered even if the requirement later stops holding (the player could have claimed
   it at that moment; the async game must not lose it for them). The bonus of 1 credit
   or any 1 resource goes to the player(s) who were the first to *fulfil* it, whenever
   they claim. Offers are claimed as a free action in one's turn or Donation; before the
   final scoring each player is asked to claim what is left. New keys of the state:
   ``offers`` (seat → cards met and not claimed) and ``firsts`` (card → the first
   players to fulfil it).

3. Achievements are claimed before the Audit (issue: an Achievement met in the Donation
   phase, or in another player's turn, could not be claimed before that round's Audit,
   so its first-fulfilment bonus of 1 credit could not count there; the rulebook lets a
   player claim "at any time ... IMMEDIATELY"). Before the Audit resolves (rounds 2-5),
   each player in turn order with Achievements still offered is asked to claim them, as
   before the final scoring (claiming only ever gains, so there is no "no"; the AI
   claims). The question carries ``"before": "audit"``; the state has no new key.

4. Reliability benefits arrive IMMEDIATELY (issue 22; rulebook, Reliability Track: "If
   the token is moved on a space containing benefits, the player gains those benefits
   IMMEDIATELY"). Rules 1-3 queued them behind the open question: credits won by an
   Overdrive during a Prospect came only after the Prospect was resolved, so the marker
   stopped at a space it could now pay and a second lowering was refused. From rules 4
   the benefits are gained the moment the marker moves, before the special action's
   credits are paid (so Overclock at reliability 1 with 0 credits is allowed: the space
   0 gives the 2 credits it pays); a question a benefit raises comes before the open
   one. Also from rules 4: a main action may end the turn by itself once resolved
   (``"end": true``, "Confirm and end the turn": an accepted option of every main action,
   not listed twice in ``legal_actions``; the turn prompt says ``"can_end": true``), the
   Level dice are not asked about when Overdrive cannot be played, the Prospect bonus is
   chosen with "Move with these dice" where it is a choice (``{"type": "dice",
   "overdrive": false, "take": {...}}``, listed once per bonus; the plain move, then the
   pick, stays accepted), and the VP scored in the round are kept by source for the
   round's results (new key ``round_vp``: {"round", "vp": seat → source → VP}).

``SCHEMA`` (``setup.SCHEMA``) did not move: a rules-1 state has the same shape as
before, the new keys belong to rules-2 games only.
"""

RULES = 4
KNOWN = (1, 2, 3, 4)
