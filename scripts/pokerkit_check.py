#!/usr/bin/env python3
"""Cross-check our stud hand histories (.phhs) against PokerKit 0.7.7.

Usage:
    pip install pokerkit==0.7.7
    cargo build -p stud-cli
    ./target/debug/stud sim --variant stud8 --players 5 --hands 300 --seed 1 > /tmp/h.phhs
    python3 scripts/pokerkit_check.py /tmp/h.phhs [more.phhs ...]     # or: ... | pokerkit_check.py

Every hand is replayed action by action with PokerKit's own `parse_action` on a
fresh state (FixedLimitSevenCardStud, ...HighLowSplitEightOrBetter, FixedLimitRazz;
ante trimming on; raise cap = `_max_raises` + 1 wagers per street; everything but
dealing and player actions automated; burns are '??', cards come from our history).
Any PokerKit exception or warning is a disagreement, and so are final stacks that
differ from our `finishing_stacks`.  The `HandHistory` loader is not used: it
silently repairs invalid histories.

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
Mucks are replayed as shows of the dealt cards (our cards-speak rule); the
as-recorded replay only tells whether a muck mattered.  A bring-in passed on because
the low card is all-in from the ante is NOT excluded: PokerKit 0.7.7 passes it to the
next player clockwise with chips, exactly as RULES.md 4 says.  PokerKit wants all-in
hands shown before the runout (and again at the end), we write one show block at the
end: the script shows the cards held so far at that point (counted on stderr).

Output: one JSON line {"hands", "agree", "disagree", "excluded": {reason: n}}, then
one line per disagreement (table, first diverging action, both final stacks); a note
on stderr.  Exit status 1 if any hand disagrees.
"""
import json
import sys
import tomllib
import warnings
from collections import Counter

from pokerkit import (
    Automation,
    ChipsPushing,
    EightOrBetterLowHand,
    FixedLimitRazz,
    FixedLimitSevenCardStud,
    FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    Mode,
)
from pokerkit.notation import parse_action

GAMES = {
    'F7S': FixedLimitSevenCardStud,
    'F7S/8': FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    'FR': FixedLimitRazz,
}
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
    """Known differences visible in the history itself, found with a tiny bookkeeper:
    a list of (index of the action where it first shows, reason)."""
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


def replay(h, actions):
    """Replay with PokerKit. Returns (stacks, divergence or None, dynamic reasons)."""
    flags = set()

    def split(a, b):                    # PokerKit gives all odd chips to the first winner
        q, r = divmod(a, b)
        if r >= 2:
            flags.add('odd_chips_tie')
        return q, r

    game = type('Stud', (GAMES[h['variant']],), {
        'max_completion_betting_or_raising_count': h.get('_max_raises', 3) + 1})
    game = game(AUTOMATIONS, True, h['antes'], h['bring_in'], h['small_bet'], h['big_bet'],
                mode=Mode.TOURNAMENT, divmod=split)
    state = game(h['starting_stacks'], len(h['starting_stacks']))
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


def check(h):
    """Returns (verdict, reason, divergence, pokerkit stacks, agrees, moved showdown)."""
    actions, bad_show = shown_mucks(h)
    if bad_show:
        return 'disagree', None, bad_show, None, False, False
    stacks, div, flags = replay(h, actions)
    ok = div is None and stacks == h['finishing_stacks']
    moved = 'moved_showdown' in flags
    static = static_reasons(h)
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
    counts, excluded, lines = Counter(), Counter(), []
    for name, h in hands(argv[1:]):
        verdict, reason, div, stacks, ok, moved = check(h)
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
    print(json.dumps({'hands': counts['hands'], 'agree': counts['agree'],
                      'disagree': counts['disagree'], 'excluded': dict(excluded)}))
    for line in lines:
        print(line)
    print(f'note: {counts["excluded_ok"]} of {counts["excluded"]} excluded hands agree with'
          f' PokerKit anyway; {counts["moved"]} hands had all-in hands shown before the runout',
          file=sys.stderr)
    return 1 if counts['disagree'] else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
