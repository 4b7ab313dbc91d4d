// The server: its JSON answers read exactly (ids past 2**53 stay exact), its streams of
// server-sent events, and its errors as one line the page can show.
import { canonicalId, parseJsonExact } from "./ids.js";

/** An error the server answered (or a server that cannot be reached): its message is
 * the one line to show. */
export class ApiError extends Error {}

async function errorOf(resp) {
  let message = `the server answered ${resp.status}`;
  try {
    const data = parseJsonExact(await resp.text());
    if (data && typeof data.error === "string") message = data.error;
  } catch {
    // not JSON: keep the status line
  }
  if (resp.status === 503) {
    const wait = resp.headers.get("Retry-After");
    message = `the server is busy: ${message}${wait ? ` (try again in ${wait} s)` : ""}`;
  }
  return new ApiError(message);
}

/** fetch() with a body (POST, JSON) or without (GET); ApiError if the server cannot be reached. */
async function request(path, body, signal) {
  try {
    return await fetch(path, body === undefined ? { signal } : {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body,
      signal,
    });
  } catch (e) {
    if (e.name === "AbortError") throw e;
    throw new ApiError("cannot reach the colorit server: is `colorit serve` still running?");
  }
}

/** GET (no body) or POST (body: JSON text) and the exact JSON answer. */
export async function api(path, body, signal) {
  const resp = await request(path, body, signal);
  if (!resp.ok) throw await errorOf(resp);
  return parseJsonExact(await resp.text());
}

/** POST and read the answer's server-sent events one by one: {event, data}. */
export async function* eventStream(path, body, signal) {
  const resp = await request(path, body, signal);
  if (!resp.ok) throw await errorOf(resp);
  const reader = resp.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value.replace(/\r\n?/g, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length) yield { event, data: parseJsonExact(data.join("\n")) };
    }
  }
}

/** The JSON text of a solve request: `board` (or the position `gridJson`) from its start. */
export function solveBody(board, algo, timeLimit, gridJson = board.rowsJson()) {
  return `{"board":${gridJson},"start":[${board.start[0]},${board.start[1]}],"algo":${JSON.stringify(algo)},"time_limit":${timeLimit}}`;
}

/** Colour ids from the server as codes of `board`; ApiError for an id it does not have. */
export function codesOf(board, ids) {
  return ids.map((id) => {
    const code = board.codeOf(typeof id === "number" ? id : canonicalId(id));
    if (code < 0) throw new ApiError(`the server answered colour ${id}, which is not on the board`);
    return code;
  });
}
