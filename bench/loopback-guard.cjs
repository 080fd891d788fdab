// Preloaded (NODE_OPTIONS=--require) into every measured process so the benchmark cannot reach the
// network: a TCP connection to anything but loopback fails at once and is reported on stderr, where the
// harness counts it. Telemetry or update checks that slipped past the env switches therefore show up
// instead of silently costing time. Unix sockets and loopback are left alone.
const net = require('node:net');

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost', '::ffff:127.0.0.1']);
const original = net.Socket.prototype.connect;

function target(args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (first && typeof first === 'object') {
    if (first.path) return undefined; // unix socket
    return { host: first.host ?? 'localhost', port: first.port };
  }
  if (typeof first === 'string' && Number.isNaN(Number(first))) return undefined; // unix socket path
  return { host: typeof args[1] === 'string' ? args[1] : 'localhost', port: first };
}

net.Socket.prototype.connect = function guardedConnect(...args) {
  const t = target(args);
  if (t && !LOOPBACK.has(String(t.host))) {
    process.stderr.write(`[loopback-guard] blocked connection to ${t.host}:${t.port}\n`);
    const err = Object.assign(new Error(`loopback-guard: ${t.host} is not loopback`), {
      code: 'ECONNREFUSED',
    });
    process.nextTick(() => this.destroy(err));
    return this;
  }
  return original.apply(this, args);
};
