import { randomBytes, scrypt as scryptCb, timingSafeEqual, hash } from 'node:crypto';

type Params = { N: number; r: number; p: number };
const STRONG: Params = { N: 2 ** 17, r: 8, p: 1 };
const FAST: Params = { N: 2 ** 10, r: 8, p: 1 };

function scrypt(password: string, salt: Buffer, { N, r, p }: Params): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password.normalize('NFKC'), salt, 64, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** scrypt$N$r$p$salt$hash (base64url). */
export async function hashPassword(password: string, fast = false): Promise<string> {
  const params = fast ? FAST : STRONG;
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  if (!stored) return false;
  const [alg, N, r, p, salt, hash] = stored.split('$');
  if (alg !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await scrypt(password, Buffer.from(salt, 'base64url'), { N: Number(N), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A dummy hash so that an unknown e-mail costs as much time as a wrong password (one per cost). */
const dummies = new Map<boolean, Promise<string>>();
export function dummyHash(fast: boolean): Promise<string> {
  let dummy = dummies.get(fast);
  if (!dummy) dummies.set(fast, (dummy = hashPassword('not-a-password', fast)));
  return dummy;
}

export const newToken = () => randomBytes(32).toString('base64url');
/** The one-shot hash (every signed-in request hashes its token): no Hash object made and dropped per call. */
export const sha256 = (s: string) => hash('sha256', s, 'buffer');

/** A readable strong password for generated admin sign-ins. */
export function generatePassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const bytes = randomBytes(16);
  let out = '';
  for (let i = 0; i < 16; i++) {
    out += alphabet[bytes[i]! % alphabet.length];
    if (i === 3 || i === 7 || i === 11) out += '-';
  }
  return out;
}
