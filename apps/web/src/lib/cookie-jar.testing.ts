/**
 * A cookie jar as the browser keeps one behind document.cookie: "name=value; path=/; max-age=N"
 * sets (max-age=0 deletes), reading answers "a=1; b=2". The header a request would carry is that.
 */
export class CookieJar {
  jar = new Map<string, string>();
  get cookie() {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  set cookie(line: string) {
    const [pair, ...attrs] = line.split('; ');
    const i = pair!.indexOf('=');
    const name = pair!.slice(0, i);
    const maxAge = attrs.find((a) => a.startsWith('max-age='));
    if (maxAge === 'max-age=0') this.jar.delete(name);
    else this.jar.set(name, pair!.slice(i + 1));
  }
}
