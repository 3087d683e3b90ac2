#!/usr/bin/env python3
"""Hand histories as PokerKit 0.7.7 writes them, from random play, for `stud replay`.

Usage:
    pip install pokerkit==0.7.7
    python3 scripts/pokerkit_histories.py --hands 200 --seed 1 --out /tmp/pk-hands
    stud replay /tmp/pk-hands/*.phh

PokerKit plays the three fixed-limit stud games it deals (FixedLimitSevenCardStud,
...HighLowSplitEightOrBetter, FixedLimitRazz) with everything automated but the players'
betting decisions: antes, bet collection, burning and dealing, the showdown (PokerKit shows
or mucks in its own order) and the pots. The decisions are random and legal: bring in or
complete, fold, check or call, complete, bet or raise; stacks are often short, so all-ins and
side pots are common. Each hand is written with `HandHistory.from_game_state(...).dumps()`,
untouched, one `.phh` file per hand: what another tool's histories look like when they come to
us. The files are the input of the e2e check in CI (`crates/cli/tests/cli.rs`).
"""

import argparse
import os
import random

from pokerkit import (
    Automation,
    FixedLimitRazz,
    FixedLimitSevenCardStud,
    FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    HandHistory,
)

GAMES = [FixedLimitSevenCardStud, FixedLimitSevenCardStudHighLowSplitEightOrBetter, FixedLimitRazz]
AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


def play(game, rng):
    """One hand of random legal play; returns the hand history text."""
    players = rng.randint(2, 7)
    ante, bring_in, small, big = 1, 2, 5, 10
    stacks = [rng.choice([rng.randint(1, 30), rng.randint(30, 200)]) for _ in range(players)]
    table = game(AUTOMATIONS, True, ante, bring_in, small, big)
    state = table(stacks, players)
    steps = 0
    while state.status:
        steps += 1
        if steps > 1000:
            raise RuntimeError('the hand did not end')
        roll = rng.random()
        if state.can_post_bring_in():
            if state.can_complete_bet_or_raise_to() and roll < 0.3:
                state.complete_bet_or_raise_to()
            else:
                state.post_bring_in()
        elif state.can_complete_bet_or_raise_to() and roll < 0.3:
            state.complete_bet_or_raise_to()
        elif state.can_fold() and roll < 0.45 and state.checking_or_calling_amount:
            state.fold()
        elif state.can_check_or_call():
            state.check_or_call()
        else:
            raise RuntimeError('no action for the player to act')
    hh = HandHistory.from_game_state(table, state, ante_trimming_status=True, finishing_stacks=list(state.stacks))
    return hh.dumps()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--hands', type=int, default=200)
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--out', required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    # PokerKit deals with the global `random.shuffle`: seeding it makes the files the same for
    # the same seed (on the same Python), so a CI run checks a known set of hands.
    random.seed(args.seed)
    rng = random.Random(args.seed)
    for k in range(args.hands):
        game = GAMES[k % len(GAMES)]
        with open(os.path.join(args.out, f'{k + 1:04}.phh'), 'w') as f:
            f.write(play(game, rng))


if __name__ == '__main__':
    main()
