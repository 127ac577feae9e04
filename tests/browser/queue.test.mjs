// queue.test.mjs -- the moves queued behind a click (web/queue.js): what
// goes next when a view comes, and when the queue is dropped silently.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allowed, nextQueued, thenMoves } from '../../web/queue.js';

const queue = (moves) => ({ code: 'ABCD', seat: 0, at: 5, moves });
const view = (moves, v) => ({ type: 'view', code: 'ABCD', seat: 0, moves, view: { to_move: 0, ...v } });

test('data-then names the moves in order, blanks left out', () => {
  assert.deepEqual(thenMoves('take UE/Ham| end |'), ['take UE/Ham', 'end']);
  assert.deepEqual(thenMoves(undefined), []);
});

test('the next queued move goes when the next view has the same seat to move and allows it', () => {
  const next = nextQueued(queue(['take UE/Ham', 'end']), view(6, { legal: ['take UE/Ham', 'take deck'] }));
  assert.deepEqual(next, { send: 'take UE/Ham', rest: ['end'] });
});

test('a move of several parts goes while the view takes its verb (the server judges the parts)', () => {
  assert.equal(allowed(['pay $1', 'pay HA/Ham'], 'pay $2 HA/Ham power:mob-boss'), true);
  assert.equal(allowed(['use HA/Ham'], 'use HA/Ham UE/Onions'), true);
  assert.equal(allowed(['discard HA/Ham'], 'discard HA/Ham MT/Onions'), true);
  assert.equal(allowed(['take deck', 'end'], 'pay $3'), false, 'nothing to pay now');
  assert.equal(allowed(['end'], 'take UE/Ham'), false);
  assert.equal(allowed(['build A1 HA/Ham'], 'build A1 HA/Ham MT/Onions'), false, 'only payments, discards and ingredients join');
});

test('the queue is dropped: a move the view does not allow, another seat to move, another table, nothing left', () => {
  assert.equal(nextQueued(queue(['end']), view(6, { legal: ['discard HA/Ham'] })), null);
  assert.equal(nextQueued(queue(['end']), view(6, { to_move: 1, legal: ['end'] })), null);
  assert.equal(nextQueued(queue(['end']), { ...view(6, { legal: ['end'] }), code: 'WXYZ' }), null);
  assert.equal(nextQueued(queue([]), view(6, { legal: ['end'] })), null);
  assert.equal(nextQueued(null, view(6, { legal: ['end'] })), null);
});

test('a view from before the move on its way keeps the queue waiting', () => {
  assert.equal(nextQueued(queue(['end']), view(5, { legal: ['end'] })), 'wait');
});
