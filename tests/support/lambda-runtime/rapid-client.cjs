'use strict';
// Preloaded (node --require) into aws-lambda-ric's process in place of its native transport,
// rapid-client.node, which its install scripts build from C (curl and aws-lambda-cpp) and the
// suite does not build: the same three calls over plain HTTP to the Runtime API at
// AWS_LAMBDA_RUNTIME_API. Everything else the runtime does (find and load the handler from
// _HANDLER under LAMBDA_TASK_ROOT, build the context, call the handler, serialise its result or
// error, report an init error) is aws-lambda-ric's own code. `next` goes over its own HTTP client
// (AWS_LAMBDA_NODEJS_USE_ALTERNATIVE_CLIENT_1=true).
const Module = require('node:module');
const http = require('node:http');
const path = require('node:path');

const [hostname, port] = String(process.env.AWS_LAMBDA_RUNTIME_API).split(':');

function post(urlPath, body, headers) {
  const req = http.request({ hostname, port: Number(port), path: urlPath, method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => res.resume());
  req.on('error', (e) => process.stderr.write(`rapid-client stand-in: POST ${urlPath} failed: ${e.message}\n`));
  req.end(body);
}

const client = {
  next() {
    throw new Error('rapid-client stand-in: next() goes over HTTP (AWS_LAMBDA_NODEJS_USE_ALTERNATIVE_CLIENT_1=true)');
  },
  done(id, body) {
    post(`/2018-06-01/runtime/invocation/${id}/response`, body, {});
  },
  error(id, body) {
    let type = 'Unhandled';
    try {
      type = JSON.parse(body).errorType || type;
    } catch {
      // the body is what the runtime formatted; the type header is only a hint
    }
    post(`/2018-06-01/runtime/invocation/${id}/error`, body, { 'Lambda-Runtime-Function-Error-Type': type });
  },
};

const loadNative = Module._extensions['.node'];
Module._extensions['.node'] = function (module, filename) {
  if (path.basename(filename) === 'rapid-client.node') {
    module.exports = client;
    return;
  }
  return loadNative.call(this, module, filename);
};
