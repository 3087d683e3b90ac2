// Unit tests of the operator console's pure parts (web/admin.js under Node: the module starts
// the page only where there is a document): where an API refusal is shown (errorPath,
// gameFault), what a change form sends (patchBody: a tournament's rotation goes whole), the
// forms' starting values (a mixed table's default games, a rotation waiting for the next
// level), a rotation in words, the patch schema's bounds and a list's length. Run: node --test
// admin-unit.test.mjs
import assert from 'node:assert/strict';
import test from 'node:test';
import {
  DEFAULT_ROTATION, errorPath, fieldsOf, gameFault, parseField, patchBody, patchFieldsOf, rotationData, rotationText,
  rotationWords, tableFormValues, tournamentFormValues,
} from '../../web/admin.js';

const TABLE = ['name', 'variant', 'betting', 'ante', 'bring_in', 'small_bet', 'big_bet', 'rotation_hands', 'rotation_games'];
const TOURNAMENT = ['name', 'rotation_hands', 'rotation_games'];

test('errorPath: a field path leading the message, serde type errors, the body-wide prefix', () => {
  assert.equal(errorPath('rotation_games[0].betting: invalid type: integer `3`, expected a string', TABLE), 'rotation_games.0.betting');
  assert.equal(errorPath('rotation_hands: only a rotation changes games', TOURNAMENT), 'rotation_hands');
  assert.equal(errorPath('rotation_hands: invalid value: integer `0`, expected a nonzero u32', TABLE), 'rotation_hands');
  assert.equal(errorPath('the JSON body is not the request: missing field `variant`', TABLE), 'variant');
  assert.equal(errorPath('Failed to deserialize the JSON body into the target type: missing field `ante`', TABLE), 'ante');
  assert.equal(errorPath('rotation_games needs rotation_hands (how many hands each game lasts)', TABLE), 'rotation_games');
  assert.equal(errorPath('rotation_games must list 1 to 16 games', TABLE), 'rotation_games');
  // A path naming no field of the form falls back to the names in the sentence.
  assert.equal(errorPath('bring_in (50) must not exceed small_bet (20)', TABLE), 'bring_in');
  assert.equal(errorPath('levels[0].bring_in: too big', TOURNAMENT), null);
});

test('gameFault: the rotation game a refusal names, at its betting or at the item', () => {
  const body = { rotation_games: [{ variant: 'razz' }, { variant: 'stud', betting: 'fixed_limit' }, { variant: 'stud8', betting: 'pot_limit' }] };
  assert.equal(gameFault('stud fixed_limit: small_bet (20) must not exceed big_bet (0)', body), 'rotation_games.1.betting');
  assert.equal(gameFault('razz pot_limit: bring_in (30) must not exceed small_bet (20)', body), 'rotation_games.0');
  assert.equal(gameFault('rotation_games: levels[2] stud8 pot_limit: bring_in (30) must not exceed small_bet (20)', body), 'rotation_games.2.betting');
  assert.equal(gameFault('london no_limit: anything', body), null);
  assert.equal(gameFault('stud fixed_limit: small_bet (20) must not exceed big_bet (0)', { name: 'x' }), null);
  assert.equal(gameFault('name: too long', body), null);
  // errorPath prefers the game over the stake it names, and over the bare list.
  assert.equal(errorPath('stud fixed_limit: small_bet (20) must not exceed big_bet (0)', TABLE, body), 'rotation_games.1.betting');
  assert.equal(errorPath('rotation_games: levels[0] razz pot_limit: bring_in (30) must not exceed small_bet (20)', TOURNAMENT, body), 'rotation_games.0');
  // Without the list in the body the stake's name is the field (the table's own stakes changed).
  assert.equal(errorPath('stud fixed_limit: small_bet (20) must not exceed big_bet (0)', TABLE, { small_bet: 20 }), 'small_bet');
});

test('patchBody: only what changed; a tournament\'s rotation goes whole', () => {
  const before = { name: 'A', rotation_hands: 4, rotation_games: [{ variant: 'razz', betting: 'fixed_limit' }, { variant: 'stud', betting: 'fixed_limit' }] };
  const same = { name: 'A', rotation_hands: 4, rotation_games: [{ variant: 'razz', betting: 'fixed_limit' }, { variant: 'stud', betting: 'fixed_limit' }] };
  assert.deepEqual(patchBody(same, before), {});
  const games = [{ variant: 'stud', betting: 'fixed_limit' }, { variant: 'razz', betting: 'fixed_limit' }];
  assert.deepEqual(patchBody({ ...same, rotation_games: games }, before), { rotation_games: games });
  const together = [['rotation_hands', 'rotation_games']];
  assert.deepEqual(patchBody({ ...same, rotation_games: games }, before, together), { rotation_hands: 4, rotation_games: games });
  assert.deepEqual(patchBody({ ...same, rotation_hands: 6 }, before, together), { rotation_hands: 6, rotation_games: same.rotation_games });
  assert.deepEqual(patchBody({ ...same, name: 'B' }, before, together), { name: 'B' });
  // A per-level rotation (no hands): the games alone.
  assert.deepEqual(patchBody({ name: 'A', rotation_games: games }, { name: 'A', rotation_hands: null, rotation_games: same.rotation_games }, together), { rotation_games: games });
  // A game's betting left to the table's equals one sent as null.
  assert.deepEqual(patchBody({ rotation_games: [{ variant: 'razz' }] }, { rotation_games: [{ variant: 'razz', betting: null }] }), {});
});

test('the forms\' starting values: a mixed table\'s default games, a waiting rotation', () => {
  const plain = { name: 'T', variant: 'stud', rotation_hands: null, rotation_games: null };
  assert.equal(tableFormValues(plain), plain);
  const own = { name: 'T', variant: 'stud', rotation_hands: 4, rotation_games: [{ variant: 'stud' }] };
  assert.equal(tableFormValues(own), own);
  const mixed = tableFormValues({ name: 'T', variant: 'razz', rotation_hands: 8, rotation_games: null });
  assert.deepEqual(mixed.rotation_games, [{ variant: 'razz' }, { variant: 'stud' }, { variant: 'stud8' }]);
  mixed.rotation_games[0].variant = 'london';
  assert.equal(DEFAULT_ROTATION[0].variant, 'razz', 'the default list was changed through a form\'s copy');

  const t = { name: 'R', rotation_hands: 4, rotation_games: [{ variant: 'razz', betting: 'fixed_limit' }] };
  assert.equal(tournamentFormValues(t), t);
  const waiting = tournamentFormValues({ ...t, rotation_pending: { rotation_hands: 6, rotation_games: [{ variant: 'stud', betting: 'pot_limit' }] } });
  assert.equal(waiting.rotation_hands, 6);
  assert.deepEqual(waiting.rotation_games, [{ variant: 'stud', betting: 'pot_limit' }]);
  assert.equal(tournamentFormValues({ ...t, rotation_pending: { rotation_games: [{ variant: 'stud' }] } }).rotation_hands, null);
});

test('a rotation in words and as data', () => {
  const games = [{ variant: 'razz' }, { variant: 'stud', betting: 'pot_limit' }, { variant: 'stud8', betting: 'fixed_limit' }];
  assert.equal(rotationText(games, 'fixed_limit'), 'Razz, Stud (pot limit), Stud Hi/Lo');
  assert.equal(rotationText(games, 'pot_limit'), 'Razz, Stud, Stud Hi/Lo (fixed limit)');
  assert.equal(rotationText([], 'fixed_limit'), '');
  assert.equal(rotationData(games, 'no_limit'), 'razz:no_limit stud:pot_limit stud8:fixed_limit');
  assert.equal(rotationWords({ rotation_hands: 6, rotation_games: games }, 'fixed_limit'), 'every 6 hands: Razz, Stud (pot limit), Stud Hi/Lo');
  assert.equal(rotationWords({ rotation_hands: 1, rotation_games: [{ variant: 'razz' }] }, 'fixed_limit'), 'every 1 hand: Razz');
  assert.equal(rotationWords({ rotation_hands: null, rotation_games: [{ variant: 'london' }] }, 'fixed_limit'), 'one game per level: London Lowball');
});

test('fields: a patch keeps its own bounds; a list\'s length and a game to choose are checked here', () => {
  const game = { type: 'object', required: ['variant'], properties: { variant: { enum: ['stud', 'razz'] }, betting: { type: ['string', 'null'], enum: ['fixed_limit', 'pot_limit', null] } } };
  const create = { properties: { rotation_hands: { type: ['integer', 'null'], minimum: 1 }, rotation_games: { type: ['array', 'null'], items: game, minItems: 1, maxItems: 2 } } };
  const patch = { properties: { rotation_hands: { type: ['integer', 'null'], minimum: 1, maximum: 1000, description: 'patched' }, rotation_games: { type: ['array', 'null'], items: game, maxItems: 2 } } };
  const [hands, list] = patchFieldsOf(patch, create);
  assert.equal(hands.kind, 'int');
  assert.equal(hands.max, 1000);
  assert.equal(hands.min, 1);
  assert.equal(hands.required, false);
  assert.equal(hands.description, 'patched');
  assert.equal(list.kind, 'objects');
  assert.equal(list.maxItems, 2);
  assert.equal(list.minItems, 1);
  assert.equal(fieldsOf(create)[0].max, undefined);

  const errors = [];
  assert.equal(parseField(hands, '1001', 'rotation_hands', errors), undefined);
  assert.deepEqual(errors, [{ path: 'rotation_hands', message: 'must be 1 to 1000' }]);
  errors.length = 0;
  assert.deepEqual(parseField(list, [{ variant: 'razz', betting: '' }, { variant: 'stud', betting: 'pot_limit' }], 'rotation_games', errors), [{ variant: 'razz' }, { variant: 'stud', betting: 'pot_limit' }]);
  assert.deepEqual(errors, []);
  assert.equal(parseField(list, [{ variant: 'razz' }, { variant: 'stud' }, { variant: 'razz' }], 'rotation_games', errors), undefined);
  assert.deepEqual(errors, [{ path: 'rotation_games', message: 'at most 2 games' }]);
  errors.length = 0;
  parseField(list, [{ variant: '', betting: '' }], 'rotation_games', errors);
  assert.deepEqual(errors, [{ path: 'rotation_games.0.variant', message: 'choose one' }]);
  errors.length = 0;
  assert.equal(parseField(list, [], 'rotation_games', errors), undefined, 'an empty list in a patch is no change');
});
