/**
 * Where each key and array element of a JSON text starts, by its path: "output_schema.title (line 6)" in a
 * message lets a person go straight to it. Only for text JSON.parse accepted; anything else maps nothing.
 */
export function jsonPathLines(text: string): (path: ReadonlyArray<PropertyKey>) => number | undefined {
  const lines = new Map<string, number>();
  let i = 0;
  let line = 1;
  const skip = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) if (text[i++] === '\n') line++;
  };
  const string = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (path: PropertyKey[]): void => {
    skip();
    lines.set(key(path), lines.get(key(path)) ?? line);
    const c = text[i];
    if (c === '{') {
      i++;
      skip();
      while (i < text.length && text[i] !== '}') {
        const keyLine = line;
        const name = string();
        lines.set(key([...path, name]), keyLine);
        skip();
        i++; // ':'
        value([...path, name]);
        skip();
        if (text[i] === ',') i++;
        skip();
      }
      i++;
    } else if (c === '[') {
      i++;
      skip();
      for (let index = 0; i < text.length && text[i] !== ']'; index++) {
        value([...path, index]);
        skip();
        if (text[i] === ',') i++;
        skip();
      }
      i++;
    } else if (c === '"') string();
    else while (i < text.length && !',}] \t\n\r'.includes(text[i]!)) i++;
  };
  try {
    value([]);
  } catch {
    return () => undefined;
  }
  return path => {
    // The nearest enclosing key that is in the text: a missing field is reported where its object starts.
    for (let n = path.length; n >= 0; n--) {
      const found = lines.get(key(path.slice(0, n)));
      if (found !== undefined) return found;
    }
    return undefined;
  };
}

const key = (path: ReadonlyArray<PropertyKey>) => JSON.stringify(path.map(p => (typeof p === 'number' ? p : String(p))));
