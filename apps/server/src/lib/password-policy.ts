import fs from 'node:fs';
import { PASSWORD_MIN_LENGTH } from '@crm/contract';

const COMMON = new Set(
  fs
    .readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.normalize('NFKC').toLowerCase()),
);

const RUNS = ['0123456789', 'abcdefghijklmnopqrstuvwxyz', 'qwertyuiopasdfghjklzxcvbnm', 'αβγδεζηθικλμνξοπρστυφχψω', 'абвгдеёжзийклмнопрстуфхцчшщъыьэюя'];

/** A run of consecutive characters going up or down (12345678, 87654321, abcdefgh). */
function isRun(p: string): boolean {
  return RUNS.some((run) => run.includes(p) || [...run].reverse().join('').includes(p));
}

/**
 * Why a new password is refused, as an i18n key with its parameters, or null when it is fine:
 * too short, blank, one character repeated, a run like 12345678, one of the most used passwords,
 * or the e-mail (or its name part) itself.
 */
export function passwordProblem(password: string, email?: string): { code: string; params?: Record<string, number> } | null {
  if (password.trim().length === 0) return { code: 'validation.passwordBlank' };
  if ([...password].length < PASSWORD_MIN_LENGTH) return { code: 'validation.passwordTooShort', params: { min: PASSWORD_MIN_LENGTH } };
  const p = password.normalize('NFKC').trim().toLowerCase();
  const chars = [...p];
  const mail = email?.trim().toLowerCase();
  if (new Set(chars).size === 1 || isRun(p) || COMMON.has(p) || COMMON.has(p.replace(/\s+/g, ''))) return { code: 'validation.passwordCommon' };
  if (mail && (p === mail || p === mail.split('@')[0])) return { code: 'validation.passwordIsEmail' };
  return null;
}
