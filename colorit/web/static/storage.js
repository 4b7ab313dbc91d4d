// Settings kept in this browser (localStorage), for the panels that keep one.

/** Keep a setting in this browser; without storage it is just not kept. */
export function remember(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // storage may be off
  }
}

/** A setting kept in this browser, or null. */
export function recall(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
