#!/usr/bin/env python3
"""Cross-check our stud hand histories (.phhs) against PokerKit 0.7.7.

Usage:
    pip install pokerkit==0.7.7
    cargo build -p stud-cli
    ./target/debug/stud sim --variant stud8 --players 5 --hands 300 --seed 1 > /tmp/h.phhs
    python3 scripts/pokerkit_check.py /tmp/h.phhs [more.phhs ...]     # or: ... | pokerkit_check.py
    # big-bet stud (pot limit, no limit), with the offered actions compared as well:
    ./target/debug/stud sim --variant razz --betting pot_limit --ante 10 --bring-in 25 \
        --small-bet 50 --players 6 --hands 300 --seed 1 > /tmp/p.phhs
    python3 scripts/pokerkit_check.py --stud ./target/debug/stud /tmp/p.phhs

Every hand is replayed action by action with PokerKit's own `parse_action` on a
fresh state (FixedLimitSevenCardStud, ...HighLowSplitEightOrBetter, FixedLimitRazz;
ante trimming on; raise cap = `_max_raises` + 1 wagers per street; everything but
dealing and player actions automated; burns are '??', cards come from our history).
Any PokerKit exception or warning is a disagreement, and so are final stacks that
differ from our `finishing_stacks`.  The `HandHistory` loader is not used: it
silently repairs invalid histories.

Big-bet hands (`P7S`, `P7S/8`, `PR`; `N7S`, `N7S/8`, `NR`; docs/PHH.md) have no PokerKit
class: they are replayed on a generic `State` with PokerKit's stud streets, `min_bet` as
the minimum bet on every street, no raise limit and `BettingStructure.POT_LIMIT` or
`NO_LIMIT`.  A replay only shows that PokerKit allows what we did; with `--stud BINARY`
the script also asks our engine what it offered at every decision (`stud replay` of the
hand up to that action followed by an illegal `cbr 0`: the refusal lists the legal
actions and the ends of the wager range) and compares that with PokerKit's offer (fold,
check or call, bring-in, min and max raise-to); any difference no reason below explains is
a disagreement.  Two differences are emulated rather than excluded: facing the bring-in
PokerKit offers a completion from the minimum bet, RULES.md 10.5 a raise of at least the
minimum bet over the bring-in (the maximum is the same); the bring-in player's wager range
(RULES.md 10.3, opening for more) is not compared, only that they may bring in.

Hands that touch a known difference between RULES.md and PokerKit (shared/PHH.md)
are counted as `excluded`, under the first reason that applies (a hand where
PokerKit objects *before* the first such action still counts as a disagreement):
  bring_in_not_below_small_bet  PokerKit requires bring_in < small_bet
  community_card                a `d db` action (PokerKit would recycle the muck)
  open_pair_big_bet             a 4th-street bet/raise of more than the small bet
  short_all_in_wager            an all-in bet/raise/completion below a full bet
  uncapped_heads_up             more wagers on a street than the cap allows
  odd_chips_tie                 a pot split among 3+ winners leaves 2+ odd chips
  hilo_side_pot_no_low          PokerKit pays a side pot's low half to hands with no low
  merged_pots_odd_chip          PokerKit merged pots (after killing losing hands) and
                                so placed odd chips differently from pot-by-pot splits
  mucked_winner                 a mucked hand changes the result (ours: cards speak)
and in big-bet stud (RULES.md 10; the fixed-limit cap, open pair and half-bet reasons do
not apply):
  bring_in_not_below_min_bet    PokerKit requires bring_in < min_bet (BARGE's game has them
                                equal): no PokerKit state at all
  bring_in_opens_for_more       the bring-in player opened for more (RULES.md 10.3): PokerKit
                                has only a completion, measured from zero, not a raise of
                                one's own bring-in
  short_bet_reopens_checks      (--stud) after an all-in bet below the minimum bet PokerKit
                                lets the players who checked raise; RULES.md 10.6 does not
  short_raise_reopens_bring_in  (--stud) the same on 3rd street: after an all-in raise of
                                less than the minimum bet over the bring-in, PokerKit lets
                                the bring-in player raise; RULES.md 10.6 does not
Mucks are replayed as shows of the dealt cards (our cards-speak rule); the
as-recorded replay only tells whether a muck mattered.  A bring-in passed on because
the low card is all-in from the ante is NOT excluded: PokerKit 0.7.7 passes it to the
next player clockwise with chips, exactly as RULES.md 4 says.  PokerKit wants all-in
hands shown before the runout (and again at the end), we write one show block at the
end: the script shows the cards held so far at that point (counted on stderr).

Output: one JSON line {"hands", "agree", "disagree", "excluded": {reason: n}} (with
--stud also "decisions_compared"), then one line per disagreement (table, first diverging
action, both final stacks); a note on stderr.  Exit status 1 if any hand disagrees.
"""
import json
import re
import subprocess
import sys
import tomllib
import warnings
from collections import Counter

from pokerkit import (
    Automation,
    BettingStructure,
    ChipsPushing,
    Deck,
    EightOrBetterLowHand,
    FixedLimitRazz,
    FixedLimitSevenCardStud,
    FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    Mode,
    Opening,
    RegularLowHand,
    StandardHighHand,
    State,
    Street,
)
from pokerkit.notation import parse_action

GAMES = {
    'F7S': FixedLimitSevenCardStud,
    'F7S/8': FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    'FR': FixedLimitRazz,
}
# Big-bet stud (docs/PHH.md): PokerKit has no class for it; a generic State with the stud
# streets, the game's deck and hand types, and the betting structure models it.
BIG_BET_GAMES = {  # the code after the structure letter: (deck, hand types, low game)
    '7S': (Deck.STANDARD, (StandardHighHand,), False),
    '7S/8': (Deck.STANDARD, (StandardHighHand, EightOrBetterLowHand), False),
    'R': (Deck.REGULAR, (RegularLowHand,), True),
}
STRUCTURES = {'P': BettingStructure.POT_LIMIT, 'N': BettingStructure.NO_LIMIT}
AUTOMATIONS = (  # not CARD_BURNING: PokerKit would burn a random card we deal later
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


def static_reasons(h):
    """Known differences visible in the history itself: a list of (index of the action where
    it first shows, reason)."""
    return big_bet_reasons(h) if is_big_bet(h) else fixed_limit_reasons(h)


def big_bet_reasons(h):
    """static_reasons for pot limit and no limit (RULES.md 10)."""
    reasons = []
    if h['bring_in'] >= h['min_bet']:
        reasons.append((0, 'bring_in_not_below_min_bet'))
    third, first = True, True
    for i, a in enumerate(h['actions']):
        w = a.split()
        if w[0] == 'd':
            if w[1] == 'db':
                reasons.append((i, 'community_card'))
            third = third and len(w[3]) == 6
            continue
        if first and third and w[1] == 'cbr':
            reasons.append((i, 'bring_in_opens_for_more'))
        first = False
    return reasons


def fixed_limit_reasons(h):
    """static_reasons for fixed limit, found with a tiny bookkeeper."""
    n, sb, bb, bi = len(h['starting_stacks']), h['small_bet'], h['big_bet'], h['bring_in']
    stacks = [max(0, s - a) for s, a in zip(h['starting_stacks'], h['antes'])]
    reasons = []
    if bi >= sb:
        reasons.append((0, 'bring_in_not_below_small_bet'))
    street, bets, dealt = 2, [0] * n, set()
    wagers, big_on_4th, completed, prev_deal = 0, False, False, False
    cap = h.get('_max_raises', 3) + 1
    for i, a in enumerate(h['actions']):
        w = a.split()
        if w[0] == 'd':
            if w[1] == 'db':
                reasons.append((i, 'community_card'))
                prev_deal = True
                continue
            p = int(w[2][1:]) - 1
            if len(w[3]) == 6:          # 3rd street: down, down, up
                street = 3
            elif not prev_deal or p in dealt:
                street, bets, dealt, wagers, big_on_4th = street + 1, [0] * n, set(), 0, False
            dealt.add(p)
            prev_deal = True
            continue
        prev_deal = False
        p, verb = int(w[0][1:]) - 1, w[1]
        if verb == 'pb':
            put = min(stacks[p], bi)
        elif verb == 'cc':
            put = min(stacks[p], max(bets) - bets[p])
        elif verb == 'cbr':
            to = int(w[2])
            put, inc = to - bets[p], to - max(bets)
            wagers += 1
            if street == 4 and inc > sb:
                reasons.append((i, 'open_pair_big_bet'))
                big_on_4th = True
            full = sb if street == 3 or (street == 4 and not big_on_4th) else bb
            short = to < sb if street == 3 and not completed else inc < full
            completed = completed or street == 3
            if put == stacks[p] and short:
                reasons.append((i, 'short_all_in_wager'))
            if wagers > cap and h.get('_uncapped_heads_up'):
                reasons.append((i, 'uncapped_heads_up'))
        else:
            continue
        bets[p] += put
        stacks[p] -= put
    return reasons


def is_big_bet(h):
    return h['variant'][0] in STRUCTURES


def new_state(h, divmod):
    """A fresh PokerKit state for the hand's game and stakes."""
    n = len(h['starting_stacks'])
    if not is_big_bet(h):
        game = type('Stud', (GAMES[h['variant']],), {
            'max_completion_betting_or_raising_count': h.get('_max_raises', 3) + 1})
        game = game(AUTOMATIONS, True, h['antes'], h['bring_in'], h['small_bet'], h['big_bet'],
                    mode=Mode.TOURNAMENT, divmod=divmod)
        return game(h['starting_stacks'], n)
    # PokerKit's own stud streets (games.SevenCardStud) with `min_bet` as the minimum bet on
    # every street and no limit on the number of raises.
    deck, hand_types, low = BIG_BET_GAMES[h['variant'][1:]]
    later = Opening.LOW_HAND if low else Opening.HIGH_HAND
    first = Opening.HIGH_CARD if low else Opening.LOW_CARD
    streets = (Street(False, (False, False, True), 0, False, first, h['min_bet'], None),
               *(Street(True, (up,), 0, False, later, h['min_bet'], None)
                 for up in (True, True, True, False)))
    return State(AUTOMATIONS, deck, hand_types, streets, STRUCTURES[h['variant'][0]], True,
                 h['antes'], 0, h['bring_in'], h['starting_stacks'], n,
                 mode=Mode.TOURNAMENT, divmod=divmod)


def replay(h, actions, options=None):
    """Replay with PokerKit. Returns (stacks, divergence or None, dynamic reasons).
    With a dict `options`, also records what PokerKit lets the player do before each player
    action (`pokerkit_options`), by action index."""
    flags = set()

    def split(a, b):                    # PokerKit gives all odd chips to the first winner
        q, r = divmod(a, b)
        if r >= 2:
            flags.add('odd_chips_tie')
        return q, r

    state = new_state(h, split)
    pots = []
    for i, a in enumerate(actions):
        if state.showdown_indices:
            pots = [pot.amount for pot in state.pots]   # before PokerKit kills losing hands
        while a.startswith('d ') and state.showdown_indices:
            # PokerKit (like the PHH examples) has all-in hands shown before the runout and
            # again at the end; we write one show at the end.  Show the cards held so far.
            state.show_or_muck_hole_cards(True)
            flags.add('moved_showdown')
        with warnings.catch_warnings():  # burns are '??'; PokerKit warns when its deck is empty
            warnings.simplefilter('ignore')
            if state.card_burning_status:
                state.burn_card('??')
        if options is not None and a.split()[1] != 'sm':
            options[i] = pokerkit_options(h, state)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            try:
                parse_action(state, a)
            except Exception as e:      # noqa: BLE001 - any refusal is a disagreement
                return list(state.stacks), (i, a, f'{type(e).__name__}: {e}'), flags
        if caught:
            return list(state.stacks), (i, a, f'warning: {caught[0].message}'), flags
    if state.status:
        return list(state.stacks), (len(actions), '<end>', 'PokerKit expects more actions'), flags
    return list(state.stacks), None, flags | payout_reasons(state, pots)


def payout_reasons(state, pots):
    """Known differences in how PokerKit paid the pots."""
    flags, paid = set(), {}
    for op in state.operations:
        if isinstance(op, ChipsPushing) and op.hand_type_index is not None:
            winners = [i for i, amount in enumerate(op.amounts) if amount]
            paid.setdefault(op.pot_index, []).append((sum(op.amounts), winners))
            high_winners = paid[op.pot_index][0][1]
            if (op.hand_type_index == 1 and winners != high_winners
                    and not all(has_low(state.hole_cards[i]) for i in winners)):
                flags.add('hilo_side_pot_no_low')   # ours: the high hand takes it all
    # PokerKit merges pots once killed hands leave them with the same contenders, then
    # splits the merged pot; RULES.md splits (and gives odd chips) pot by pot.
    for pushes in paid.values():
        merged, total = [], sum(amount for amount, _ in pushes)
        while pots and sum(merged) < total:
            merged.append(pots.pop(0))
        halves = [winners for _, winners in pushes]
        by_pot = sum((split_pot(amount, halves) for amount in merged), Counter())
        if all(halves) and by_pot != split_pot(total, halves):
            flags.add('merged_pots_odd_chip')
    return flags


def split_pot(amount, halves):
    """RULES.md 5: odd chip of a hi/lo split to high, then one each in seat order."""
    shares = Counter()
    parts = [amount - amount // 2, amount // 2] if len(halves) == 2 else [amount]
    for part, winners in zip(parts, halves):
        q, r = divmod(part, len(winners))
        for k, i in enumerate(winners):
            shares[i] += q + (k < r)
    return shares


def has_low(cards):
    try:
        return EightOrBetterLowHand.from_game(cards) is not None
    except ValueError:
        return False


def shown_mucks(h):
    """The actions with every muck replaced by a show of the dealt cards (cards speak).
    Also returns a divergence if a show names cards other than those dealt."""
    cards, out = {}, []
    for i, a in enumerate(h['actions']):
        w = a.split()
        if w[0] == 'd' and w[1] == 'dh':
            cards[w[2]] = cards.get(w[2], '') + w[3]
        elif len(w) >= 2 and w[1] == 'sm':
            if len(w) == 2:
                a = f'{w[0]} sm {cards.get(w[0], "")}'
            elif w[2] != cards.get(w[0]):
                return out, (i, h['actions'][i], f'shown cards differ from dealt {cards.get(w[0])}')
        out.append(a)
    return out, None


def pokerkit_options(h, state):
    """What PokerKit lets the player to act do, as (kinds, wager range, context): kinds from
    bring_in, fold, check, call; the wager range (min_to, max_to) or None; where RULES.md 10
    prices a wager differently on purpose, the range our rules give instead (below)."""
    kinds = set()
    if state.can_post_bring_in():
        kinds.add('bring_in')
    if state.can_fold():
        kinds.add('fold')
    if state.can_check_or_call():
        kinds.add('call' if state.checking_or_calling_amount else 'check')
    low = state.min_completion_betting_or_raising_to_amount
    wager = None if low is None else (low, state.max_completion_betting_or_raising_to_amount)
    p = state.actor_index
    context = {'pokerkit': wager, 'increment': state.completion_betting_or_raising_amount,
               'street': state.street_index}
    if 'bring_in' in kinds:
        # RULES.md 10.3: the bring-in player may open for more, priced as bringing in and
        # raising it; PokerKit offers a completion to between the minimum bet and the pot.
        # Not compared; a hand where it is taken is excluded (bring_in_opens_for_more).
        wager = 'not compared'
    elif wager and state.completion_status:
        # Facing the bring-in PokerKit offers a completion to the minimum bet; RULES.md 10.5
        # a raise of at least the minimum bet over the bring-in. The largest is the same.
        low = min(state.stacks[p] + state.bets[p], max(state.bets) + h['min_bet'])
        wager = (low, max(low, wager[1]))
    return kinds, wager, context


LEGAL = re.compile(r'legal: \[(.*)\]')
KINDS = {'Fold': 'fold', 'Call': 'call', 'Check': 'check', 'BringIn': 'bring_in'}


def our_options(error):
    """The legal actions in our engine's refusal of a probe ('... legal: [Fold, Call,
    Raise { to: 75 }, Raise { to: 125 }]'), as (kinds, wager range or None)."""
    m = LEGAL.search(error or '')
    if not m:
        return None
    kinds, tos = set(), []
    for item in filter(None, m.group(1).split(', ')):
        to = re.search(r'to: (\d+)', item)
        if to:
            tos.append(int(to.group(1)))
        else:
            kinds.add(KINDS.get(item, item))
    return kinds, (min(tos), max(tos)) if tos else None


def decisions(h):
    """The indices of the player actions (not shows) before the first known difference."""
    static = static_reasons(h)
    end = static[0][0] if static else len(h['actions'])
    return [i for i, a in enumerate(h['actions'][:end])
            if not a.startswith('d ') and a.split()[1] != 'sm']


def toml_value(v):
    if isinstance(v, bool):
        return 'true' if v else 'false'
    if isinstance(v, list):
        return '[' + ', '.join(map(toml_value, v)) + ']'
    return json.dumps(v)


def probe_ours(stud, named):
    """Asks our engine (`stud replay`) what the player may do at each decision of each
    big-bet hand: the hand up to that action, then an illegal `cbr 0` whose refusal lists
    the legal actions. Returns {hand name: {action index: our_options}}."""
    tables, where = [], {}
    for n, (name, h) in enumerate(named):
        head = ''.join(f'{k} = {toml_value(v)}\n' for k, v in h.items()
                       if k not in ('actions', 'finishing_stacks'))
        for i in decisions(h):
            actions = h['actions'][:i] + [h['actions'][i].split()[0] + ' cbr 0']
            key = f'{n}_{i}'
            where[key] = (name, i)
            tables.append(f'[{key}]\n{head}actions = {toml_value(actions)}\n')
    if not tables:
        return {}
    run = subprocess.run([stud, 'replay', '-'], input='\n'.join(tables), text=True,
                         capture_output=True, check=False)
    lines = run.stdout.splitlines()
    if len(lines) != len(tables):
        sys.exit(f'{stud} replay answered {len(lines)} of {len(tables)} probes: {run.stderr}')
    found = {}
    for line in lines:
        r = json.loads(line)
        name, i = where[r['hand']]
        found.setdefault(name, {})[i] = our_options(r.get('error')) or ('?', r.get('error'))
    return found


def option_differences(h, pokerkit, ours):
    """Decisions where our engine and PokerKit offer different actions: a list of (action
    index, known reason or None, description)."""
    out = []
    for i, (kinds, wager) in sorted(ours.items()):
        if i not in pokerkit:
            continue                    # PokerKit stopped before it
        pk_kinds, pk_wager, ctx = pokerkit[i]
        if pk_wager == 'not compared':
            pk_wager = wager
        if (kinds, wager) == (pk_kinds, pk_wager):
            continue
        reason, label = None, ''
        if (wager is None and pk_wager is not None and kinds == pk_kinds
                and 0 < ctx['increment'] < h['min_bet']):
            # Every wager on the street so far is an all-in short of a full one: a bet below
            # the minimum bet, or on 3rd street a raise of less than the minimum bet over the
            # bring-in.  PokerKit counts the first wager of a street as full whatever its size
            # (its increment starts at 0), so it reopens the betting for the players who
            # checked or brought in; RULES.md 10.6 (TDA) does not: they have acted.
            reason = 'short_raise_reopens_bring_in' if ctx['street'] == 0 else \
                'short_bet_reopens_checks'
        elif (kinds == pk_kinds and wager and pk_wager and wager[1] == pk_wager[1]
              and wager[0] > pk_wager[0]):
            # Seen so far only after a full raise over a short all-in: the engine measures
            # that raise from the last full level, counting the all-in's chips in it (an
            # engine bug against RULES.md 10.5; docs/PHH.md, "Pot limit against PokerKit").
            label = '; ours asks a larger minimum raise (raise over a short all-in?)'
        out.append((i, reason, f'ours {sorted(kinds)} {wager}, pokerkit {sorted(pk_kinds)} '
                               f'{pk_wager} (unadjusted {ctx["pokerkit"]}){label}'))
    return out


def check(h, ours=None):
    """Returns (verdict, reason, divergence, pokerkit stacks, agrees, moved showdown)."""
    actions, bad_show = shown_mucks(h)
    if bad_show:
        return 'disagree', None, bad_show, None, False, False
    if static_reasons(h)[:1] in ([(0, 'bring_in_not_below_small_bet')],
                                 [(0, 'bring_in_not_below_min_bet')]):
        return 'excluded', static_reasons(h)[0][1], None, None, False, False  # no such state
    pokerkit = None if ours is None else {}
    stacks, div, flags = replay(h, actions, pokerkit)
    ok = div is None and stacks == h['finishing_stacks']
    moved = 'moved_showdown' in flags
    differences = [] if ours is None else option_differences(h, pokerkit, ours)
    bad = [(i, h['actions'][i], f'offered actions differ: {text}')
           for i, reason, text in differences if reason is None]
    if bad and (div is None or div[0] is None or bad[0][0] <= div[0]):
        return 'disagree', None, bad[0], stacks, False, moved
    static = static_reasons(h)
    static += sorted({(i, r) for i, r, _ in differences if r}, key=lambda x: x[0])[:1]
    static.sort(key=lambda x: x[0])
    if static and div and div[0] is not None and div[0] < static[0][0]:
        static = []                     # PokerKit objected before any known difference
    reasons = [r for _, r in static] + sorted(flags - {'moved_showdown'})
    if not reasons and actions != h['actions']:
        recorded, rdiv, _ = replay(h, h['actions'])
        if (recorded, rdiv) != (stacks, div):
            reasons.append('mucked_winner')
    div = div or (None, '<payout>', 'final stacks differ')
    verdict = 'excluded' if reasons else 'agree' if ok else 'disagree'
    return verdict, (reasons or [None])[0], div, stacks, ok, moved


def hands(paths):
    for path in paths or ['-']:
        text = sys.stdin.read() if path == '-' else open(path, encoding='utf-8').read()
        for name, h in tomllib.loads(text).items():
            yield f'{path}[{name}]', h


def main(argv):
    args = argv[1:]
    stud = None
    if args[:1] == ['--stud']:
        stud, args = args[1], args[2:]
    named = list(hands(args))
    ours = probe_ours(stud, [(n, h) for n, h in named if is_big_bet(h)]) if stud else {}
    counts, excluded, lines = Counter(), Counter(), []
    for name, h in named:
        probed = ours.get(name, {}) if stud and is_big_bet(h) else None
        verdict, reason, div, stacks, ok, moved = check(h, probed)
        counts['decisions'] += len(probed or ())
        counts['hands'] += 1
        counts[verdict] += 1
        counts['moved'] += moved
        if verdict == 'excluded':
            excluded[reason] += 1
            counts['excluded_ok'] += ok
        elif verdict == 'disagree':
            i, action, why = div
            lines.append(f'{name} action {i}: {action!r} ({why}); '
                         f'ours {h["finishing_stacks"]} pokerkit {stacks}')
    result = {'hands': counts['hands'], 'agree': counts['agree'],
              'disagree': counts['disagree'], 'excluded': dict(excluded)}
    if stud:
        result['decisions_compared'] = counts['decisions']
    print(json.dumps(result))
    for line in lines:
        print(line)
    print(f'note: {counts["excluded_ok"]} of {counts["excluded"]} excluded hands agree with'
          f' PokerKit anyway; {counts["moved"]} hands had all-in hands shown before the runout',
          file=sys.stderr)
    return 1 if counts['disagree'] else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
