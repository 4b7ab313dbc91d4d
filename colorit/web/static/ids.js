// Colour ids and exact JSON: ids are any signed 64-bit integers, kept as exact decimal
// strings (a JavaScript number loses them past 2**53), and JSON read without rounding
// them. Nothing here touches the DOM.

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/** One-line error about a board or a link the user gave (the CLI's BoardFormatError). */
export class BoardFormatError extends Error {
  constructor(message) {
    super(message);
    this.name = "BoardFormatError";
  }
}

// ---------------------------------------------------------------------------------------
// Colour ids

export const INTEGER_TEXT = /^[+-]?[0-9]+$/;

/** The canonical decimal text of a colour id given as a string, a BigInt or a safe number. */
export function canonicalId(value) {
  let big;
  if (typeof value === "bigint") {
    big = value;
  } else if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new BoardFormatError(`colour id ${value} is not an exact integer`);
    big = BigInt(value);
  } else if (typeof value === "string" && INTEGER_TEXT.test(value)) {
    big = BigInt(value);
  } else {
    throw new BoardFormatError(`colour id ${JSON.stringify(value)} is not an integer`);
  }
  if (big < INT64_MIN || big > INT64_MAX) throw new BoardFormatError(`colour id ${big} is beyond the signed 64-bit range`);
  return big.toString();
}

/** -1, 0 or 1 as colour id `a` is below, equal to or above `b` (decimal strings). */
export function compareIds(a, b) {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

// ---------------------------------------------------------------------------------------
// Exact JSON

let reviverHasSource = null;

function supportsSourceText() {
  if (reviverHasSource === null) {
    let seen = false;
    try {
      JSON.parse("[1]", (key, value, context) => {
        if (context && typeof context.source === "string") seen = true;
        return value;
      });
    } catch {
      seen = false;
    }
    reviverHasSource = seen;
  }
  return reviverHasSource;
}

/** Quote every integer literal of 16 digits or more outside strings (for engines whose
 * JSON.parse reviver gets no source text). */
function quoteLongIntegers(text) {
  let out = "";
  let last = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i];
    if (ch === '"') {
      i++;
      while (i < n && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      i++;
    } else if (ch === "-" || (ch >= "0" && ch <= "9")) {
      const begin = i;
      i++;
      while (i < n && text[i] >= "0" && text[i] <= "9") i++;
      const isInteger = i >= n || !".eE".includes(text[i]);
      if (!isInteger) {
        while (i < n && "0123456789.eE+-".includes(text[i])) i++;
      } else if (i - begin >= 16) {
        out += text.slice(last, begin) + '"' + text.slice(begin, i) + '"';
        last = i;
      }
    } else {
      i++;
    }
  }
  return out + text.slice(last);
}

/** JSON.parse that keeps integers beyond 2**53 exact: they come back as decimal strings
 * (other numbers as numbers; without the reviver's source text, as in node 20, every
 * integer of 16 digits or more is a string). */
export function parseJsonExact(text) {
  if (supportsSourceText()) {
    return JSON.parse(text, (key, value, context) =>
      typeof value === "number" && !Number.isSafeInteger(value) && context && INTEGER_TEXT.test(context.source)
        ? BigInt(context.source).toString()
        : value,
    );
  }
  return JSON.parse(quoteLongIntegers(text));
}
