import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Socket } from 'node:net';
import { AppError } from '../lib/errors.ts';

/**
 * How much of a request body the server reads, and when it stops (decision 056).
 *
 * - A body whose declared length (Content-Length) is over its route's limit (`bodyLimit`, which
 *   the multipart routes set to what one upload may hold) is refused before a byte of it is read.
 * - An answer given before the body was read whole (a refusal for want of a sign-in, a wrong content
 *   type, a limit crossed while the body came in) closes the connection: the rest is not read to
 *   keep the connection for another request, as HTTP/1.1 servers otherwise do. The client still gets
 *   the answer: the connection is closed for writing first, and what the client still sends is read
 *   and dropped for a short while (at most LINGER_MS, LINGER_BYTES) before it is closed for good.
 */
const LINGER_MS = 2000;
const LINGER_BYTES = 4 * 1024 * 1024;

/** A request that brings a body (a length other than 0, or chunks). */
export function bringsBody(req: FastifyRequest): boolean {
  const h = req.headers;
  if (h['transfer-encoding'] !== undefined) return true;
  const length = h['content-length'];
  return length !== undefined && length !== '0';
}

/** The request's body, not (yet) read to its end. */
const bodyUnread = (req: FastifyRequest) => bringsBody(req) && !req.raw.complete;

/**
 * Closes a connection once its answer is written, reading and dropping what the client still sends
 * for a bounded while (so that the client reads the answer rather than a reset connection).
 */
function lingerThenClose(socket: Socket) {
  if (socket.destroyed) return;
  let dropped = 0;
  const done = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(done, LINGER_MS);
  timer.unref();
  socket.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER_BYTES) done();
  });
  socket.once('end', done);
  socket.once('error', done);
  socket.resume();
}

export const bodyLimitsPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRequest', async (req) => {
    if (!bringsBody(req)) return;
    const declared = Number(req.headers['content-length']);
    const limit = req.routeOptions.bodyLimit;
    if (Number.isFinite(declared) && limit !== undefined && declared > limit) {
      throw new AppError(413, 'errors.bodyTooLarge', { max: Math.max(1, Math.round(limit / (1024 * 1024))) });
    }
  });

  app.addHook('onSend', async (req, reply, payload) => {
    if (bodyUnread(req) && !reply.raw.headersSent) {
      reply.header('connection', 'close');
      // Node closes a connection marked so by ending it and destroying it at once; here the
      // destroying waits until the client has had the time to read the answer (above). Whatever
      // was reading the body (an upload's parser) stops.
      const socket = req.raw.socket;
      socket.destroySoon = function lingering(this: Socket) {
        this.end();
        lingerThenClose(this);
      };
      req.raw.unpipe();
    }
    return payload;
  });
});
