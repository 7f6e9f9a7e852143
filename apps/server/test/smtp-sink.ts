import type net from 'node:net';
import { SMTPServer } from 'smtp-server';

/** What an SMTP sink was given: the envelope's recipients and the message as sent. */
export type SmtpReceived = { to: string[]; raw: Buffer };

/**
 * A real SMTP server (smtp-server) on a free local port, without sign-in or STARTTLS, that keeps
 * every message it is given in `received`; for the tests and specs that send mail through it.
 */
export async function startSmtpSink() {
  const received: SmtpReceived[] = [];
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData: (stream, session, cb) => {
      const parts: Buffer[] = [];
      stream.on('data', (d: Buffer) => parts.push(d));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(parts) });
        cb();
      });
    },
  });
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.server.address() as net.AddressInfo).port)));
  return { port, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}
