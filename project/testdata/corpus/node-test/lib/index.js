'use strict';

function camel(key) {
  return key.replace(/[-_]+([a-z0-9])/g, (_, c) => c.toUpperCase());
}

function camelizeKeys(obj) {
  const out = {};
  for (const [k, v] of Object.entries(obj)) {
    out[camel(k)] = v;
  }
  return out;
}

module.exports = { camel, camelizeKeys };
