'use strict';

const test = require('node:test');
const assert = require('node:assert');
const { camel, camelizeKeys } = require('../lib');

test('camel', () => {
  assert.strictEqual(camel('foo_bar-baz'), 'fooBarBaz');
  assert.strictEqual(camel('a__b'), 'aB');
});

test('camelizeKeys', () => {
  assert.deepStrictEqual(camelizeKeys({ 'x-y': 1, z: 2 }), { xY: 1, z: 2 });
});
